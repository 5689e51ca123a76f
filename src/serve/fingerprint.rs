//! Fingerprints: a hash of what each output is made from, so a rebuild renders again only
//! the pages an edit changed (see [`crate::render::Fingerprint`]).
//!
//! A note page is made from its own file, the titles and cards of the pages it lists or links
//! to (related notes, backlinks, body link targets, its successor), the clients',
//! capabilities' and guides' files (their titles and ids), the settings and the theme. A
//! client, capability or spec page is made from the non-note files, the notes' ids (links
//! resolve through them), the front matter of the notes it lists and of the notes support
//! cells cite, and its backlinks; home and the client, capability and spec indexes likewise
//! without a list of notes. The research index, guide pages, feeds, sitemap and API read
//! every note's front matter. So an edit to a note's body re-renders that note and the notes
//! whose links or backlinks it changed; an edit to its title, those and the pages listing it.
//! The search index is built apart (it reads every body).

use crate::index::links::LinkTarget;
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::model::text;
use crate::source::Section;
use chrono::NaiveDate;
use rayon::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The hashes of one content file: all of it, and what comes before its body (its front
/// matter), each with its path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileHash {
    pub full: u64,
    pub front: u64,
    /// A research note's id and file name (what links to it resolve by); 0 for other files.
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
    for doc in index.content.documents() {
        set_front(index, doc, &mut hashes);
    }
    for note in &index.content.notes {
        set_id(note, &mut hashes);
    }
    hashes
}

/// Hashes one file again, after it changed.
pub fn rehash_file(index: &SiteIndex, file: usize, hashes: &mut [FileHash]) {
    if let Some(f) = index.files.get(file) {
        hashes[file].full = hash(&(&f.path, &f.text));
    }
    if let Some(doc) = index.content.documents().find(|d| d.file == file) {
        set_front(index, doc, hashes);
    }
    if let Some(note) = index.content.notes.iter().find(|n| n.doc.file == file) {
        set_id(note, hashes);
    }
}

fn set_id(note: &crate::model::Note, hashes: &mut [FileHash]) {
    if let Some(h) = hashes.get_mut(note.doc.file) {
        let id = crate::index::doc_id(&note.id, &note.doc);
        h.id = hash(&(id, &note.doc.stem, note.doc.file));
    }
}

fn set_front(index: &SiteIndex, doc: &crate::model::Document, hashes: &mut [FileHash]) {
    if let (Some(f), Some(h)) = (index.files.get(doc.file), hashes.get_mut(doc.file)) {
        let front = f.text.get(..doc.body.range.start).unwrap_or(&f.text);
        h.front = hash(&(&f.path, front));
    }
}

/// A hash of the site's settings (`site.yaml` as read, `baseUrl` override included): made
/// once per load, as they change only with a reload.
pub fn settings_hash(index: &SiteIndex) -> u64 {
    hash(&format!("{:?}", index.config))
}

/// The fingerprint of every output of one render.
pub struct Fingerprints {
    notes: Vec<u64>,
    /// Home and the indexes of clients, capabilities, guides and spec revisions.
    listings: u64,
    clients: Vec<u64>,
    capabilities: Vec<u64>,
    specs: Vec<u64>,
    /// Every other output: it may read any note's front matter.
    others: u64,
    /// Each note's record in the data API.
    records: Vec<u64>,
    reference: (Option<NaiveDate>, bool),
}

impl Fingerprints {
    /// Fingerprints of `index`'s outputs; `hashes` are its files' ([`file_hashes`]),
    /// `settings` its settings' ([`settings_hash`]), `theme` a number that changes whenever a
    /// template or static file does, `reference` the day ages count to
    /// ([`crate::render::reference_day`]).
    pub fn new(
        index: &SiteIndex,
        hashes: &[FileHash],
        settings: u64,
        theme: u64,
        reference: (Option<NaiveDate>, bool),
    ) -> Fingerprints {
        let content = &index.content;
        let file = |doc: &crate::model::Document| hashes.get(doc.file).copied().unwrap_or_default();
        let shared = hash(&(settings, reference, theme));
        let fronts: Vec<u64> = content.notes.iter().map(|n| file(&n.doc).front).collect();
        let non_notes = fold(
            (content.clients.iter().map(|c| file(&c.doc).full))
                .chain(content.capabilities.iter().map(|c| file(&c.doc).full))
                .chain(content.guides.iter().map(|g| file(&g.doc).full)),
        );
        // Every link's resolution follows from the notes' ids and paths and the non-note files.
        let ids = fold(
            content
                .notes
                .iter()
                .map(|n| file(&n.doc).id)
                .chain([non_notes]),
        );
        let page_key = |page: Page| match page {
            Page::Note(n) => fronts.get(n).copied().unwrap_or_default(),
            _ => 0,
        };
        let notes_of = |notes: &[usize]| fold(notes.iter().flat_map(|&n| [n as u64, fronts[n]]));
        let backlinks_of = |page: Page| {
            let pages = index.backlinks.get(&page).map_or(&[][..], Vec::as_slice);
            fold(pages.iter().flat_map(|&p| [page_code(p), page_key(p)]))
        };
        // The notes support cells cite: the matrix shows them by title.
        let mut cited: Vec<usize> = (content.clients.iter())
            .flat_map(|c| c.support.iter().flat_map(|cell| &cell.research))
            .filter_map(|r| index.ids.note(&r.value))
            .collect();
        cited.sort_unstable();
        cited.dedup();
        let lengths = fold(
            (index.notes_by_client.iter())
                .chain(&index.notes_by_capability)
                .chain(&index.notes_by_spec)
                .map(|notes| notes.len() as u64),
        );
        let note_count = content.notes.len() as u64;
        let listings = fold([shared, ids, notes_of(&cited), note_count, lengths]);
        let list_page =
            |page: Page, notes: &[usize]| fold([listings, notes_of(notes), backlinks_of(page)]);
        let clients = (index.notes_by_client.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Client(i), notes))
            .collect();
        let capabilities = (index.notes_by_capability.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Capability(i), notes))
            .collect();
        let specs = (index.notes_by_spec.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Spec(i), notes))
            .collect();
        let other_backlinks = (index.backlinks.keys())
            .filter(|page| !matches!(page, Page::Note(_)))
            .flat_map(|&page| [page_code(page), backlinks_of(page)]);
        let others = fold(
            [listings, fold(fronts.iter().copied())]
                .into_iter()
                .chain(other_backlinks),
        );
        let has_link = |n: usize| text(&content.notes[n].summary).contains(['[', '<']);
        let notes = content
            .notes
            .par_iter()
            .enumerate()
            .map(|(i, note)| {
                let successor = note
                    .superseded_by
                    .as_ref()
                    .and_then(|s| index.ids.note(&s.value))
                    .map_or(0, |n| notes_of(&[n]));
                let summary_links = has_link(i) || index.related[i].iter().any(|&n| has_link(n));
                fold([
                    shared,
                    non_notes,
                    file(&note.doc).full,
                    notes_of(&index.related[i]),
                    backlinks_of(Page::Note(i)),
                    links_of(index, Page::Note(i), page_key),
                    successor,
                    if summary_links { ids } else { 0 },
                ])
            })
            .collect();
        let records = fronts.iter().map(|&f| fold([shared, non_notes, f]));
        Fingerprints {
            records: records.collect(),
            notes,
            listings,
            clients,
            capabilities,
            specs,
            others,
            reference,
        }
    }

    /// The day ages count to, as these fingerprints took it.
    pub fn reference(&self) -> (Option<NaiveDate>, bool) {
        self.reference
    }
}

impl crate::render::Fingerprint for Fingerprints {
    fn page(&self, page: Page) -> Option<u64> {
        match page {
            Page::Note(i) => self.notes.get(i).copied(),
            Page::Client(i) => self.clients.get(i).copied(),
            Page::Capability(i) => self.capabilities.get(i).copied(),
            Page::Spec(i) => self.specs.get(i).copied(),
            Page::Home | Page::SpecIndex => Some(self.listings),
            Page::Index(Section::Research) => Some(self.others),
            Page::Index(_) => Some(self.listings),
            Page::Guide(_) => Some(self.others),
        }
    }

    fn files(&self) -> Option<u64> {
        Some(self.others)
    }

    fn note_record(&self, note: usize) -> Option<u64> {
        self.records.get(note).copied()
    }
}

/// A hash of the body links on `page`: a link to a page renders as that page's route
/// (`page_key`: what it follows from) and anchor; any other link renders from its
/// destination, which is in the page's own text, and its kind.
fn links_of(index: &SiteIndex, page: Page, page_key: impl Fn(Page) -> u64) -> u64 {
    let mut hasher = DefaultHasher::new();
    for link in index.links_on(page) {
        std::mem::discriminant(&link.target).hash(&mut hasher);
        if let LinkTarget::Page { page, anchor } = &link.target {
            (page, page_key(*page), anchor).hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// A page as a number, to fold into a fingerprint.
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
    };
    (kind << 56) ^ i as u64
}

/// Folds values into one, in order: each step goes through murmur3's 64-bit finalizer, so
/// every bit of every value reaches the result. The values are hashes, counts and indexes;
/// much cheaper than hashing them again with SipHash, one by one.
fn fold(values: impl IntoIterator<Item = u64>) -> u64 {
    let mix = |mut z: u64| {
        z ^= z >> 33;
        z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^= z >> 33;
        z = z.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        z ^ (z >> 33)
    };
    (values.into_iter()).fold(0x243f_6a88_85a3_08d3, |acc, v| mix(acc.rotate_left(29) ^ v))
}

fn hash(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}
