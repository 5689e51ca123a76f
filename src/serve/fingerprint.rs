//! What each input of a render is now (see [`crate::render::Input`]), for the memo to compare
//! each output's recorded reads against: so a rebuild renders again exactly the outputs that
//! read something an edit changed.
//!
//! The content files' hashes ([`FileHash`]) are kept from one rebuild to the next and made
//! again only for the files that changed; the settings' once per load. What the index derives
//! from the files (links, backlinks, related notes, the notes of each client, capability and
//! spec revision, ids, the matrix) is hashed when an output that read it is checked. No page
//! is named here: what a page depends on is what it read while it rendered.

use crate::index::links::LinkTarget;
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::model::{doc_id, Document, Spanned};
use crate::render::{fold, Input, Inputs};
use crate::text_file::Section;
use chrono::NaiveDate;
use rayon::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The hashes of one content file: all of it, what comes before its body (its front
/// matter), and what it is known by, each with its path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileHash {
    pub full: u64,
    pub front: u64,
    /// A document's id and file name (what links to it resolve by, and its route), and a
    /// capability's aliases; 0 for files that are no document.
    pub id: u64,
}

/// Hashes every content file of `index` (by file id).
pub fn file_hashes(index: &SiteIndex) -> Vec<FileHash> {
    let mut hashes: Vec<FileHash> = index
        .files
        .par_iter()
        .map(|f| FileHash {
            full: hash(&(&f.path, &f.text)),
            ..FileHash::default()
        })
        .collect();
    for (doc, id, aliases) in known_by(index) {
        set_document(index, (doc, id, aliases), &mut hashes);
    }
    hashes
}

/// Hashes one file again, after it changed.
pub fn rehash_file(index: &SiteIndex, file: usize, hashes: &mut [FileHash]) {
    if let (Some(f), Some(h)) = (index.files.get(file), hashes.get_mut(file)) {
        h.full = hash(&(&f.path, &f.text));
    }
    if let Some(document) = known_by(index).find(|(doc, ..)| doc.file == file) {
        set_document(index, document, hashes);
    }
}

/// Every document with what it is known by: its id and a capability's aliases.
fn known_by(index: &SiteIndex) -> impl Iterator<Item = (&Document, &str, &[Spanned<String>])> {
    let content = &index.content;
    let notes = (content.notes.iter()).map(|n| (&n.doc, doc_id(&n.id, &n.doc), &[][..]));
    let clients = (content.clients.iter()).map(|c| (&c.doc, doc_id(&c.id, &c.doc), &[][..]));
    let capabilities = (content.capabilities.iter())
        .map(|c| (&c.doc, doc_id(&c.id, &c.doc), c.aliases.as_slice()));
    let guides = (content.guides.iter()).map(|g| (&g.doc, g.doc.stem.as_str(), &[][..]));
    notes.chain(clients).chain(capabilities).chain(guides)
}

/// Sets the hashes only documents have: of the front matter, and of what the document is
/// known by (its id and file name, and a capability's aliases; not its position: a lookup's
/// result is one, so the ids of a section are folded in order, and a note's route stays when
/// a file is added before it).
fn set_document(
    index: &SiteIndex,
    (doc, id, aliases): (&Document, &str, &[Spanned<String>]),
    hashes: &mut [FileHash],
) {
    if let (Some(f), Some(h)) = (index.files.get(doc.file), hashes.get_mut(doc.file)) {
        let front = f.text.get(..doc.body.range.start).unwrap_or(&f.text);
        h.front = hash(&(&f.path, front));
        let aliases: Vec<&str> = aliases.iter().map(|a| a.value.as_str()).collect();
        h.id = hash(&(id, &doc.stem, aliases));
    }
}

/// A hash of the site's settings (`site.yaml` as read, `baseUrl` override included): made
/// once per load, as they change only with a reload.
pub fn settings_hash(index: &SiteIndex) -> u64 {
    hash(&format!("{:?}", index.config))
}

/// The hash of an input the site no longer has (a page read a note since removed).
const GONE: u64 = 0x676f_6e65_2067_6f6e;

/// What every input of `index` is now.
pub struct InputHashes<'i> {
    index: &'i SiteIndex,
    /// The index's files' hashes ([`file_hashes`]).
    files: &'i [FileHash],
    /// The settings' hash ([`settings_hash`]).
    settings: u64,
    /// A number that changes whenever a template or static file does.
    theme: u64,
    /// The day ages count to ([`crate::render::reference_day`]), and its hash.
    reference: (Option<NaiveDate>, bool),
    reference_hash: u64,
    /// Each section's ids (by position in [`Section::ALL`]), and the matrix: made on first
    /// use, as they fold every document of a section.
    ids: [OnceLock<u64>; Section::ALL.len()],
    matrix: OnceLock<u64>,
}

impl<'i> InputHashes<'i> {
    /// The inputs of `index`, with its files' hashes, its settings', a number that changes
    /// whenever a template or static file does, and the day ages count to.
    pub fn new(
        index: &'i SiteIndex,
        files: &'i [FileHash],
        settings: u64,
        theme: u64,
        reference: (Option<NaiveDate>, bool),
    ) -> InputHashes<'i> {
        InputHashes {
            index,
            files,
            settings,
            theme,
            reference,
            reference_hash: hash(&reference),
            ids: Default::default(),
            matrix: OnceLock::new(),
        }
    }

    /// The day ages count to, as these hashes take it.
    pub fn reference(&self) -> (Option<NaiveDate>, bool) {
        self.reference
    }

    /// The hashes of a page's file, `None` for pages made from none (or no longer there).
    fn file(&self, page: Page) -> Option<FileHash> {
        let doc = self.index.document(page)?;
        self.files.get(doc.file).copied()
    }

    /// The hashes of file `file` (zeros for one not hashed).
    fn of_file(&self, file: usize) -> FileHash {
        self.files.get(file).copied().unwrap_or_default()
    }

    /// The documents of `section` (a pass over every document: for what is made once).
    fn documents(&self, section: Section) -> impl Iterator<Item = &'i Document> + 'i {
        let section_of = move |d: &&Document| d.section == section;
        self.index.content.documents().filter(section_of)
    }
}

impl Inputs for InputHashes<'_> {
    fn hash(&self, input: Input) -> u64 {
        let index = self.index;
        let list = |items: Option<&Vec<usize>>| {
            items.map_or(GONE, |items| fold(items.iter().map(|&i| i as u64)))
        };
        match input {
            Input::Settings => self.settings,
            Input::Reference => self.reference_hash,
            Input::Theme => self.theme,
            Input::Count(section) => index.content.len(section) as u64,
            Input::Ids(section) => {
                let at = Section::ALL.iter().position(|s| *s == section).unwrap_or(0);
                *self.ids[at].get_or_init(|| {
                    let ids = self.documents(section).map(|d| self.of_file(d.file).id);
                    fold(ids)
                })
            }
            // A document's route is its id; the others' follow from the settings.
            Input::Route(page) => match page {
                Page::Note(_)
                | Page::Client(_)
                | Page::Capability(_)
                | Page::Guide(_)
                | Page::Observation(_) => self
                    .file(page)
                    .map_or(GONE, |f| fold([self.settings, f.id])),
                _ => self.settings,
            },
            Input::Front(page) => self.file(page).map_or(GONE, |f| f.front),
            Input::File(page) => self.file(page).map_or(GONE, |f| f.full),
            Input::Links(page) => links_hash(index, page),
            Input::Backlinks(page) => {
                let pages = index.backlinks.get(&page).map_or(&[][..], Vec::as_slice);
                fold(pages.iter().map(|&p| page_code(p)))
            }
            Input::Related(n) => list(index.related.get(n)),
            Input::NotesOf(page) => list(match page {
                Page::Client(i) => index.notes_by_client.get(i),
                Page::Capability(i) => index.notes_by_capability.get(i),
                Page::Spec(i) => index.notes_by_spec.get(i),
                _ => None,
            }),
            Input::Matrix => *self.matrix.get_or_init(|| {
                let fronts = (self.documents(Section::Clients))
                    .chain(self.documents(Section::Capabilities))
                    .chain(self.documents(Section::Observations))
                    .map(|d| self.of_file(d.file).front);
                fold([self.settings].into_iter().chain(fronts))
            }),
        }
    }
}

/// A hash of what the links in `page`'s body resolve to: a link to a page renders as that
/// page's route (an input of its own) and anchor; any other link renders from its
/// destination, which is in the page's own file, and its kind.
fn links_hash(index: &SiteIndex, page: Page) -> u64 {
    let mut hasher = DefaultHasher::new();
    for link in index.links_on(page) {
        link.link.hash(&mut hasher);
        std::mem::discriminant(&link.target).hash(&mut hasher);
        if let LinkTarget::Page { page, anchor } = &link.target {
            (page, anchor).hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// A page as a number, to fold into a hash.
fn page_code(page: Page) -> u64 {
    let (kind, i) = match page {
        Page::Home => (0, 0),
        Page::Index(section) => (1, section as usize),
        Page::Note(i) => (2, i),
        Page::Client(i) => (3, i),
        Page::Capability(i) => (4, i),
        Page::Guide(i) => (5, i),
        Page::Spec(i) => (6, i),
        Page::SpecIndex => (7, 0),
        Page::Observation(i) => (8, i),
    };
    (kind << 56) ^ i as u64
}

fn hash(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}
