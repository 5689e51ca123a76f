//! Index: resolve every id, link, `related` list and support cell, once, into lookups that
//! lint and render both read: ids, resolved links, backlinks, notes per client, capability
//! and spec revision, and the support matrix.

pub mod evidence;
pub mod hashed_names;
mod ids;
pub(crate) mod links;
mod matrix;
pub mod observations;
pub mod outputs;
pub(crate) mod routes;

use crate::config::SiteConfig;
use crate::load::{Assets, Unreadable};
use crate::model::{doc_id, Content, Document};
use crate::parse::ParsedSite;
use crate::text_file::{Section, TextFile};
pub use ids::{AliasClash, CaseClash, Ids};
use links::LinkTarget;
pub use matrix::{Matrix, MatrixGroup};
pub use observations::Observations;
use rayon::prelude::*;
use routes::Page;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A body link with what it resolved to.
#[derive(Debug, Clone)]
pub struct ResolvedLink {
    /// The page the link sits on.
    pub from: Page,
    /// Index into that document's `body.links`.
    pub link: usize,
    pub target: LinkTarget,
}

/// The index of a site: the parsed content plus everything resolved across files.
#[derive(Debug)]
pub struct SiteIndex {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub files: Vec<TextFile>,
    pub content: Content,
    pub unreadable: Vec<Unreadable>,
    /// The templates and static files, and those that may not be read.
    pub assets: Assets,
    pub ids: Ids,
    /// Every body link of every document, resolved, sorted by the page it is on (documents in
    /// index order, each body's links in order).
    pub links: Vec<ResolvedLink>,
    /// Pages that link to each page, sorted, without repeats.
    pub backlinks: BTreeMap<Page, Vec<Page>>,
    /// For each note, its resolved `related` notes (unknown ids left out).
    pub related: Vec<Vec<usize>>,
    pub notes_by_client: Vec<Vec<usize>>,
    pub notes_by_capability: Vec<Vec<usize>>,
    pub notes_by_spec: Vec<Vec<usize>>,
    pub matrix: Matrix,
    /// The observations' clients, transcripts and the cells citing them.
    pub observations: Observations,
}

/// Builds the index of a parsed site.
pub fn index(site: ParsedSite) -> SiteIndex {
    let ids = ids::collect(&site.content, &site.config);
    let (links, backlinks, refs) = resolve_all(&site, &ids);
    assemble(site, ids, links, backlinks, refs)
}

/// Every body link resolved, the backlinks they make, and the notes' references: the links on
/// one core and the references on the other.
fn resolve_all(
    site: &ParsedSite,
    ids: &Ids,
) -> (Vec<ResolvedLink>, BTreeMap<Page, Vec<Page>>, NoteRefs) {
    let ((links, backlinks), refs) = rayon::join(
        || {
            let links = resolve_links(&site.content, ids);
            let backlinks = backlinks(&links);
            (links, backlinks)
        },
        || NoteRefs::of(&site.content, &site.config, ids),
    );
    (links, backlinks, refs)
}

/// Indexes `site` again after the documents of `changed` pages were replaced in place
/// (`fieldnotes serve`, after an edit), reusing `previous`'s resolved links of every other
/// page when no id changed; otherwise indexes it all. The result equals [`index`]'s.
pub fn reindex(site: ParsedSite, previous: Resolved, changed: &[Page]) -> SiteIndex {
    let ids = ids::collect(&site.content, &site.config);
    if ids != previous.ids {
        let (links, backlinks, refs) = resolve_all(&site, &ids);
        return assemble(site, ids, links, backlinks, refs);
    }
    reindex_same_ids(site, previous, changed)
}

/// [`reindex`] when the caller knows no id changed: only research notes were edited, each
/// keeping its id (and so its file name). Skips collecting every id again to find that out.
pub fn reindex_same_ids(site: ParsedSite, previous: Resolved, changed: &[Page]) -> SiteIndex {
    let Resolved {
        ids,
        mut links,
        mut backlinks,
        mut refs,
    } = previous;
    for page in changed {
        if let Page::Note(n) = page {
            refs.update(*n, &site.content, &ids);
        }
    }
    let unlink = |backlinks: &mut BTreeMap<Page, Vec<Page>>, link: &ResolvedLink| {
        if let LinkTarget::Page { page, .. } = link.target {
            if let Some(from) = backlinks.get_mut(&page) {
                from.retain(|p| *p != link.from);
                if from.is_empty() {
                    backlinks.remove(&page);
                }
            }
        }
    };
    // Links are in `Page` order (section order is `Page` order) and, within a page, in body
    // order: each changed page's run is found by binary search and replaced.
    for &page in changed {
        let on_page = links_on(&links, page);
        let (start, end) = (on_page.start, on_page.end);
        for link in &links[start..end] {
            unlink(&mut backlinks, link);
        }
        let Some((section, i)) = section_index(page) else {
            continue;
        };
        let Some(doc) = site
            .content
            .documents()
            .filter(|d| d.section == section)
            .nth(i)
        else {
            continue;
        };
        let fresh = doc
            .body
            .links
            .iter()
            .enumerate()
            .map(|(link, l)| ResolvedLink {
                from: page,
                link,
                target: links::resolve(&l.dest, doc.section, page, &ids),
            });
        links.splice(start..end, fresh);
    }
    for link in links.iter().filter(|l| changed.contains(&l.from)) {
        if let LinkTarget::Page { page, .. } = link.target {
            if page != link.from {
                let from = backlinks.entry(page).or_default();
                if let Err(at) = from.binary_search(&link.from) {
                    from.insert(at, link.from);
                }
            }
        }
    }
    assemble(site, ids, links, backlinks, refs)
}

/// Where the links on `page` are in `links` (sorted by page, as [`SiteIndex::links`] is).
fn links_on(links: &[ResolvedLink], page: Page) -> std::ops::Range<usize> {
    let start = links.partition_point(|l| l.from < page);
    start..start + links[start..].partition_point(|l| l.from == page)
}

/// What [`reindex`] reuses of the previous index: its ids, resolved links and references.
pub struct Resolved {
    pub ids: Ids,
    pub links: Vec<ResolvedLink>,
    pub backlinks: BTreeMap<Page, Vec<Page>>,
    pub refs: NoteRefs,
}

/// The section and position of a page made from a document.
fn section_index(page: Page) -> Option<(Section, usize)> {
    match page {
        Page::Note(i) => Some((Section::Research, i)),
        Page::Client(i) => Some((Section::Clients, i)),
        Page::Capability(i) => Some((Section::Capabilities, i)),
        Page::Guide(i) => Some((Section::Guides, i)),
        Page::Observation(i) => Some((Section::Observations, i)),
        _ => None,
    }
}

/// What follows from the notes' front matter: each note's related notes, and the notes
/// about each client, capability and spec revision.
pub struct NoteRefs {
    pub related: Vec<Vec<usize>>,
    pub notes_by_client: Vec<Vec<usize>>,
    pub notes_by_capability: Vec<Vec<usize>>,
    pub notes_by_spec: Vec<Vec<usize>>,
}

/// A note's related notes, clients, capabilities and spec revisions, resolved.
fn refs_of(note: &crate::model::Note, ids: &Ids) -> [Vec<usize>; 4] {
    [
        dedup(note.related.iter().filter_map(|r| ids.note(&r.value))),
        dedup(note.clients.iter().filter_map(|c| ids.client(&c.value))),
        dedup(
            note.capabilities
                .iter()
                .filter_map(|c| ids.capability(&c.value).map(|x| x.0)),
        ),
        dedup(note.spec_versions.iter().filter_map(|s| ids.spec(&s.value))),
    ]
}

impl NoteRefs {
    fn of(content: &Content, config: &SiteConfig, ids: &Ids) -> NoteRefs {
        let mut refs = NoteRefs {
            related: Vec::with_capacity(content.notes.len()),
            notes_by_client: vec![Vec::new(); content.clients.len()],
            notes_by_capability: vec![Vec::new(); content.capabilities.len()],
            notes_by_spec: vec![Vec::new(); config.spec_versions.len()],
        };
        for (n, note) in content.notes.iter().enumerate() {
            let [related, clients, capabilities, specs] = refs_of(note, ids);
            refs.related.push(related);
            for (lists, of) in refs.lists().into_iter().zip([clients, capabilities, specs]) {
                for i in of {
                    lists[i].push(n);
                }
            }
        }
        refs
    }

    /// The lists of notes per client, capability and spec revision.
    fn lists(&mut self) -> [&mut Vec<Vec<usize>>; 3] {
        [
            &mut self.notes_by_client,
            &mut self.notes_by_capability,
            &mut self.notes_by_spec,
        ]
    }

    /// The references again after note `n`'s front matter changed (the ids did not).
    fn update(&mut self, n: usize, content: &Content, ids: &Ids) {
        let Some(note) = content.notes.get(n) else {
            return;
        };
        let [related, clients, capabilities, specs] = refs_of(note, ids);
        if let Some(slot) = self.related.get_mut(n) {
            *slot = related;
        }
        for (lists, of) in self.lists().into_iter().zip([clients, capabilities, specs]) {
            for (i, list) in lists.iter_mut().enumerate() {
                let wanted = of.contains(&i);
                match list.binary_search(&n) {
                    Ok(at) if !wanted => {
                        list.remove(at);
                    }
                    Err(at) if wanted => list.insert(at, n),
                    _ => {}
                }
            }
        }
    }
}

/// The index from its resolved parts, with what follows from them.
fn assemble(
    site: ParsedSite,
    ids: Ids,
    links: Vec<ResolvedLink>,
    backlinks: BTreeMap<Page, Vec<Page>>,
    refs: NoteRefs,
) -> SiteIndex {
    let matrix = Matrix::build(&site.content, &site.config, &ids);
    let observations = Observations::build(&site.content, &ids);
    SiteIndex {
        root: site.root,
        config: site.config,
        files: site.files,
        content: site.content,
        unreadable: site.unreadable,
        assets: site.assets,
        ids,
        links,
        backlinks,
        related: refs.related,
        notes_by_client: refs.notes_by_client,
        notes_by_capability: refs.notes_by_capability,
        notes_by_spec: refs.notes_by_spec,
        matrix,
        observations,
    }
}

/// Distinct values in first-seen order (the lists are short: a linear check is fastest).
fn dedup(items: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The page a document is rendered as.
pub fn page_of(section: Section, index: usize) -> Page {
    match section {
        Section::Research => Page::Note(index),
        Section::Clients => Page::Client(index),
        Section::Capabilities => Page::Capability(index),
        Section::Guides => Page::Guide(index),
        Section::Observations => Page::Observation(index),
    }
}

fn resolve_links(content: &Content, ids: &Ids) -> Vec<ResolvedLink> {
    let pages: Vec<(&Document, Page)> = Section::ALL
        .into_iter()
        .flat_map(|section| {
            content
                .documents()
                .filter(move |d| d.section == section)
                .enumerate()
                .map(move |(i, d)| (d, page_of(section, i)))
        })
        .collect();
    pages
        .par_iter()
        .flat_map_iter(|&(doc, from)| {
            doc.body
                .links
                .iter()
                .enumerate()
                .map(move |(link, l)| ResolvedLink {
                    from,
                    link,
                    target: links::resolve(&l.dest, doc.section, from, ids),
                })
        })
        .collect()
}

fn backlinks(links: &[ResolvedLink]) -> BTreeMap<Page, Vec<Page>> {
    let mut pairs: Vec<(Page, Page)> = links
        .iter()
        .filter_map(|link| match link.target {
            LinkTarget::Page { page, .. } if page != link.from => Some((page, link.from)),
            _ => None,
        })
        .collect();
    pairs.par_sort_unstable();
    pairs.dedup();
    let mut map: BTreeMap<Page, Vec<Page>> = BTreeMap::new();
    for (to, from) in pairs {
        map.entry(to).or_default().push(from);
    }
    map
}

impl SiteIndex {
    /// The index taken apart again: the parsed site, and what [`reindex`] reuses of it (after
    /// an edit to one document, `fieldnotes serve` and `fieldnotes lsp` replace it in the
    /// parsed site and index again).
    pub fn into_parts(self) -> (ParsedSite, Resolved) {
        let resolved = Resolved {
            ids: self.ids,
            links: self.links,
            backlinks: self.backlinks,
            refs: NoteRefs {
                related: self.related,
                notes_by_client: self.notes_by_client,
                notes_by_capability: self.notes_by_capability,
                notes_by_spec: self.notes_by_spec,
            },
        };
        let parsed = ParsedSite {
            root: self.root,
            config: self.config,
            files: self.files,
            content: self.content,
            unreadable: self.unreadable,
            assets: self.assets,
        };
        (parsed, resolved)
    }

    /// How the cell of `client` for `capability` was checked (`none` when the map has none).
    pub fn evidence(&self, client: usize, capability: usize) -> evidence::Evidence {
        evidence::of_position(&self.content, &self.ids, &self.matrix, client, capability)
    }

    /// The result observation `o` holds for capability `cap` (an alias key counts), if any.
    pub fn observed_result(&self, o: usize, cap: usize) -> Option<&crate::model::ObservedResult> {
        (self.content.observations[o].results.iter())
            .find(|r| self.ids.capability(&r.capability.value).map(|x| x.0) == Some(cap))
    }

    /// The resolved body links on `page`, in body order.
    pub fn links_on(&self, page: Page) -> &[ResolvedLink] {
        &self.links[links_on(&self.links, page)]
    }

    /// The document a page renders, for pages that have one.
    pub fn document(&self, page: Page) -> Option<&Document> {
        let c = &self.content;
        match page {
            Page::Note(i) => c.notes.get(i).map(|n| &n.doc),
            Page::Client(i) => c.clients.get(i).map(|n| &n.doc),
            Page::Capability(i) => c.capabilities.get(i).map(|n| &n.doc),
            Page::Guide(i) => c.guides.get(i).map(|n| &n.doc),
            Page::Observation(i) => c.observations.get(i).map(|n| &n.doc),
            _ => None,
        }
    }

    /// The route of a page (`/research/<id>`; `/` for the home page).
    pub fn route(&self, page: Page) -> String {
        let c = &self.content;
        match page {
            Page::Home => "/".to_string(),
            Page::Index(section) => routes::index_route(section),
            Page::SpecIndex => format!("/{}", routes::SPEC_DIR),
            Page::Note(i) => routes::route("research", doc_id(&c.notes[i].id, &c.notes[i].doc)),
            Page::Client(i) => {
                routes::route("clients", doc_id(&c.clients[i].id, &c.clients[i].doc))
            }
            Page::Capability(i) => {
                let cap = &c.capabilities[i];
                routes::route("capabilities", doc_id(&cap.id, &cap.doc))
            }
            Page::Guide(i) => routes::route("guides", &c.guides[i].doc.stem),
            Page::Spec(i) => routes::route(routes::SPEC_DIR, &self.config.spec_versions[i].id),
            Page::Observation(i) => {
                let o = &c.observations[i];
                routes::route(Section::Observations.dir(), doc_id(&o.id, &o.doc))
            }
        }
    }

    /// The canonical URL of a page.
    pub fn canonical_url(&self, page: Page) -> String {
        self.config.url_for(&self.route(page))
    }

    /// The anchors a page has: its body's headings plus the sections its template adds.
    pub fn anchors(&self, page: Page) -> Vec<&str> {
        let mut anchors: Vec<&str> = self
            .document(page)
            .map(|d| d.body.headings.iter().map(|h| h.anchor.as_str()).collect())
            .unwrap_or_default();
        anchors.extend_from_slice(template_anchors(page));
        anchors
    }
}

/// Section anchors the default templates put on each kind of page.
pub fn template_anchors(page: Page) -> &'static [&'static str] {
    match page {
        Page::Note(_) => &["top", "sources", "related", "backlinks"],
        Page::Client(_) => &["top", "support", "notes", "backlinks"],
        Page::Capability(_) => &["top", "support", "notes", "backlinks"],
        Page::Spec(_) => &["top", "support", "notes", "capabilities"],
        Page::Home => &["top", "matrix"],
        Page::Guide(_) => &["top", "backlinks"],
        Page::Observation(_) => &["top", "results", "cited-by"],
        _ => &["top"],
    }
}
