//! What an output reads: the inputs views take from the index, each named by an [`Input`] and
//! recorded by the context that hands it out (see `ctx`), so an earlier output can be reused
//! while every input it read is unchanged ([`Inputs`] says what each is now).

use crate::index::routes::Page;
use crate::text_file::Section;

/// One thing an output is made from. Every read of the index by a view goes through an
/// accessor of the page's context, which records the input it hands out; an output is the
/// same as last time while the hashes of the inputs it read are.
///
/// An input covers what its accessor returns and nothing more: a view that needs something
/// else asks for it through another accessor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Input {
    /// `site.yaml` as read (the `baseUrl` override included): titles, kinds, groups, spec
    /// revisions, thresholds, the base URL every link starts with.
    Settings,
    /// The day ages count to, and whether `SOURCE_DATE_EPOCH` gave it.
    Reference,
    /// The theme's templates (read by every output made from one).
    Theme,
    /// How many documents a section has: read by whatever goes through every document of a
    /// section (so a document added or removed changes it) and by the navigation.
    Count(Section),
    /// What an id resolves to in a section: the ids (and file names) of its documents,
    /// capabilities' aliases included. Read by every lookup of an id, found or not.
    Ids(Section),
    /// A page's route, from its document's id or file name (and the base URL).
    Route(Page),
    /// A document's front matter and path: every field but the body.
    Front(Page),
    /// A document's whole file: its body, headings and links as written, too.
    File(Page),
    /// What the links in a page's body resolve to.
    Links(Page),
    /// The pages linking to a page.
    Backlinks(Page),
    /// A note's `related` notes, resolved.
    Related(usize),
    /// The notes about a client, a capability or a spec revision.
    NotesOf(Page),
    /// The support matrix: capability groups and order, client columns, cells and tallies
    /// (made from `site.yaml` and every client's and capability's front matter).
    Matrix,
}

/// The current hash of each input: what [`super::Memo`] compares an output's reads by.
/// `fieldnotes serve` keeps one for the site it serves (`serve::fingerprint`).
pub trait Inputs: Sync {
    /// A hash of what `input` is now; an input the site no longer has hashes to a value none
    /// that it has can take.
    fn hash(&self, input: Input) -> u64;
}

/// The inputs one output read, sorted, each once.
pub type Reads = std::sync::Arc<[Input]>;

/// The fingerprint of `reads`: their current hashes folded in order.
pub fn fingerprint(reads: &[Input], inputs: &dyn Inputs) -> u64 {
    fold(reads.iter().map(|&input| inputs.hash(input)))
}

/// Folds values into one, in order: each step goes through murmur3's 64-bit finalizer, so
/// every bit of every value reaches the result. The values are hashes, counts and indexes;
/// much cheaper than hashing them again with SipHash, one by one.
pub fn fold(values: impl IntoIterator<Item = u64>) -> u64 {
    let mix = |mut z: u64| {
        z ^= z >> 33;
        z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^= z >> 33;
        z = z.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        z ^ (z >> 33)
    };
    (values.into_iter()).fold(0x243f_6a88_85a3_08d3, |acc, v| mix(acc.rotate_left(29) ^ v))
}
