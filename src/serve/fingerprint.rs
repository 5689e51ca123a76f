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
}

/// Hashes every content file of `index` (by file id).
pub fn file_hashes(index: &SiteIndex) -> Vec<FileHash> {
    let mut hashes: Vec<FileHash> = index
        .files
        .par_iter()
        .map(|f| FileHash {
            full: hash(&(&f.path, &f.text)),
            front: 0,
        })
        .collect();
    for doc in index.content.documents() {
        set_front(index, doc, &mut hashes);
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
        let non_notes = hash(
            &(content.clients.iter().map(|c| file(&c.doc).full))
                .chain(content.capabilities.iter().map(|c| file(&c.doc).full))
                .chain(content.guides.iter().map(|g| file(&g.doc).full))
                .collect::<Vec<u64>>(),
        );
        // Every link's resolution follows from the notes' ids and paths and the non-note files.
        let ids = hash(&(
            content
                .notes
                .iter()
                .map(|n| (crate::index::doc_id(&n.id, &n.doc), &n.doc.stem, n.doc.file))
                .collect::<Vec<_>>(),
            non_notes,
        ));
        let page_key = |page: Page| match page {
            Page::Note(n) => fronts.get(n).copied().unwrap_or_default(),
            _ => 0,
        };
        let notes_of = |notes: &[usize]| -> u64 {
            hash(&notes.iter().map(|&n| (n, fronts[n])).collect::<Vec<_>>())
        };
        let backlinks_of = |page: Page| -> Vec<(Page, u64)> {
            let pages = index.backlinks.get(&page);
            let pages = pages.map(|pages| pages.iter().map(|&p| (p, page_key(p))));
            pages.map(Iterator::collect).unwrap_or_default()
        };
        // The notes support cells cite: the matrix shows them by title.
        let mut cited: Vec<usize> = (content.clients.iter())
            .flat_map(|c| c.support.iter().flat_map(|cell| &cell.research))
            .filter_map(|r| index.ids.note(&r.value))
            .collect();
        cited.sort_unstable();
        cited.dedup();
        let lengths = (index.notes_by_client.iter())
            .chain(&index.notes_by_capability)
            .chain(&index.notes_by_spec)
            .map(Vec::len)
            .collect::<Vec<_>>();
        let listings = hash(&(shared, ids, notes_of(&cited), content.notes.len(), lengths));
        let list_page =
            |page: Page, notes: &[usize]| hash(&(listings, notes_of(notes), backlinks_of(page)));
        let clients = (index.notes_by_client.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Client(i), notes))
            .collect();
        let capabilities = (index.notes_by_capability.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Capability(i), notes))
            .collect();
        let specs = (index.notes_by_spec.iter().enumerate())
            .map(|(i, notes)| list_page(Page::Spec(i), notes))
            .collect();
        let other_backlinks: Vec<(&Page, &Vec<Page>)> = index
            .backlinks
            .iter()
            .filter(|(page, _)| !matches!(page, Page::Note(_)))
            .collect();
        let others = hash(&(listings, &fronts, other_backlinks));
        // Each note's body link targets, in one hasher per note (links come page by page).
        // A link to a page renders as that page's route and anchor; any other link renders
        // from its destination, which is in the note's text, and its kind.
        let mut links = vec![0u64; content.notes.len()];
        let mut current: Option<(usize, DefaultHasher)> = None;
        for link in &index.links {
            let Page::Note(i) = link.from else { continue };
            if current.as_ref().is_some_and(|(n, _)| *n != i) {
                if let Some((n, hasher)) = current.take() {
                    links[n] = hash(&(links[n], hasher.finish()));
                }
            }
            let (_, hasher) = current.get_or_insert_with(|| (i, DefaultHasher::new()));
            std::mem::discriminant(&link.target).hash(hasher);
            if let LinkTarget::Page { page, anchor } = &link.target {
                (page, page_key(*page), anchor).hash(hasher);
            }
        }
        if let Some((n, hasher)) = current {
            links[n] = hash(&(links[n], hasher.finish()));
        }
        let has_link = |n: usize| text(&content.notes[n].summary).contains(['[', '<']);
        let notes = content
            .notes
            .par_iter()
            .enumerate()
            .map(|(i, note)| {
                let related: Vec<(usize, u64)> =
                    index.related[i].iter().map(|&n| (n, fronts[n])).collect();
                let backlinks: Vec<(Page, u64)> = index
                    .backlinks
                    .get(&Page::Note(i))
                    .map(|pages| pages.iter().map(|&p| (p, page_key(p))).collect())
                    .unwrap_or_default();
                let successor = note
                    .superseded_by
                    .as_ref()
                    .and_then(|s| index.ids.note(&s.value))
                    .map(|n| (n, fronts[n]));
                let summary_links =
                    (has_link(i) || index.related[i].iter().any(|&n| has_link(n))).then_some(ids);
                hash(&(
                    shared,
                    non_notes,
                    file(&note.doc).full,
                    related,
                    backlinks,
                    links[i],
                    successor,
                    summary_links,
                ))
            })
            .collect();
        let records = fronts.iter().map(|&f| hash(&(shared, non_notes, f)));
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

fn hash(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}
