//! Index: resolve every id, link, `related` list and support cell, once, into lookups that
//! lint and render both read: ids, resolved links, backlinks, notes per client, capability
//! and spec revision, and the support matrix.

pub mod links;
mod matrix;
pub mod routes;

use crate::config::SiteConfig;
use crate::load::Unreadable;
use crate::model::{text, Content, Document};
use crate::parse::ParsedSite;
use crate::source::{Section, SourceFile};
use links::LinkTarget;
pub use matrix::{Matrix, MatrixGroup};
use rayon::prelude::*;
use routes::Page;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// Every id of the site, resolved to its position in [`Content`].
#[derive(Debug, Default)]
pub struct Ids {
    pub notes: HashMap<String, usize>,
    pub clients: HashMap<String, usize>,
    pub capabilities: HashMap<String, usize>,
    /// Capability aliases (other spellings) to the capability they name.
    pub aliases: HashMap<String, usize>,
    pub guides: HashMap<String, usize>,
    pub specs: HashMap<String, usize>,
    /// Ids used by more than one file, per section: id → every index holding it.
    pub duplicates: BTreeMap<(Section, String), Vec<usize>>,
}

impl Ids {
    pub fn note(&self, id: &str) -> Option<usize> {
        self.notes.get(id).copied()
    }
    pub fn client(&self, id: &str) -> Option<usize> {
        self.clients.get(id).copied()
    }
    /// A capability by id, or by alias; the flag says whether an alias was used.
    pub fn capability(&self, id: &str) -> Option<(usize, bool)> {
        self.capabilities
            .get(id)
            .map(|&i| (i, false))
            .or_else(|| self.aliases.get(id).map(|&i| (i, true)))
    }
    pub fn spec(&self, id: &str) -> Option<usize> {
        self.specs.get(id).copied()
    }
    /// The page of `id` in `section`.
    pub fn page(&self, section: Section, id: &str) -> Option<Page> {
        match section {
            Section::Research => self.note(id).map(Page::Note),
            Section::Clients => self.client(id).map(Page::Client),
            Section::Capabilities => self.capability(id).map(|(i, _)| Page::Capability(i)),
            Section::Guides => self.guides.get(id).map(|&i| Page::Guide(i)),
        }
    }
}

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
    pub files: Vec<SourceFile>,
    pub content: Content,
    pub unreadable: Vec<Unreadable>,
    pub ids: Ids,
    /// Every body link of every document, resolved.
    pub links: Vec<ResolvedLink>,
    /// Pages that link to each page, sorted, without repeats.
    pub backlinks: BTreeMap<Page, Vec<Page>>,
    /// For each note, its resolved `related` notes (unknown ids left out).
    pub related: Vec<Vec<usize>>,
    pub notes_by_client: Vec<Vec<usize>>,
    pub notes_by_capability: Vec<Vec<usize>>,
    pub notes_by_spec: Vec<Vec<usize>>,
    pub matrix: Matrix,
}

/// Builds the index of a parsed site.
pub fn index(site: ParsedSite) -> SiteIndex {
    let ids = collect_ids(&site.content, &site.config);
    let links = resolve_links(&site.content, &ids);
    let backlinks = backlinks(&links);
    let content = &site.content;
    let related = content
        .notes
        .iter()
        .map(|n| dedup(n.related.iter().filter_map(|r| ids.note(&r.value))))
        .collect();
    let mut notes_by_client = vec![Vec::new(); content.clients.len()];
    let mut notes_by_capability = vec![Vec::new(); content.capabilities.len()];
    let mut notes_by_spec = vec![Vec::new(); site.config.spec_versions.len()];
    for (n, note) in content.notes.iter().enumerate() {
        for i in dedup(note.clients.iter().filter_map(|c| ids.client(&c.value))) {
            notes_by_client[i].push(n);
        }
        for i in dedup(
            note.capabilities
                .iter()
                .filter_map(|c| ids.capability(&c.value).map(|x| x.0)),
        ) {
            notes_by_capability[i].push(n);
        }
        for i in dedup(note.spec_versions.iter().filter_map(|s| ids.spec(&s.value))) {
            notes_by_spec[i].push(n);
        }
    }
    let matrix = Matrix::build(content, &site.config, &ids);
    SiteIndex {
        root: site.root,
        config: site.config,
        files: site.files,
        content: site.content,
        unreadable: site.unreadable,
        ids,
        links,
        backlinks,
        related,
        notes_by_client,
        notes_by_capability,
        notes_by_spec,
        matrix,
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

/// The id a document goes by: its `id` field, else its file name.
pub fn doc_id<'a>(id: &'a Option<crate::model::Spanned<String>>, doc: &'a Document) -> &'a str {
    match text(id) {
        "" => &doc.stem,
        id => id,
    }
}

fn collect_ids(content: &Content, config: &SiteConfig) -> Ids {
    let mut ids = Ids::default();
    let mut put = |section: Section, map: &mut HashMap<String, usize>, id: &str, index: usize| {
        if let Some(&first) = map.get(id) {
            ids.duplicates
                .entry((section, id.to_string()))
                .or_insert_with(|| vec![first])
                .push(index);
        } else {
            map.insert(id.to_string(), index);
        }
    };
    let mut notes = HashMap::new();
    for (i, n) in content.notes.iter().enumerate() {
        put(Section::Research, &mut notes, doc_id(&n.id, &n.doc), i);
    }
    let mut clients = HashMap::new();
    for (i, c) in content.clients.iter().enumerate() {
        put(Section::Clients, &mut clients, doc_id(&c.id, &c.doc), i);
    }
    let mut capabilities = HashMap::new();
    for (i, c) in content.capabilities.iter().enumerate() {
        put(
            Section::Capabilities,
            &mut capabilities,
            doc_id(&c.id, &c.doc),
            i,
        );
    }
    let mut guides = HashMap::new();
    for (i, g) in content.guides.iter().enumerate() {
        put(Section::Guides, &mut guides, &g.doc.stem, i);
    }
    ids.notes = notes;
    ids.clients = clients;
    ids.capabilities = capabilities;
    ids.guides = guides;
    for (i, c) in content.capabilities.iter().enumerate() {
        for alias in &c.aliases {
            if !ids.capabilities.contains_key(&alias.value) {
                ids.aliases.entry(alias.value.clone()).or_insert(i);
            }
        }
    }
    ids.specs = config
        .spec_versions
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id.clone(), i))
        .collect();
    ids
}

/// The page a document is rendered as.
pub fn page_of(section: Section, index: usize) -> Page {
    match section {
        Section::Research => Page::Note(index),
        Section::Clients => Page::Client(index),
        Section::Capabilities => Page::Capability(index),
        Section::Guides => Page::Guide(index),
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
    /// The document a page renders, for pages that have one.
    pub fn document(&self, page: Page) -> Option<&Document> {
        let c = &self.content;
        match page {
            Page::Note(i) => c.notes.get(i).map(|n| &n.doc),
            Page::Client(i) => c.clients.get(i).map(|n| &n.doc),
            Page::Capability(i) => c.capabilities.get(i).map(|n| &n.doc),
            Page::Guide(i) => c.guides.get(i).map(|n| &n.doc),
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
        _ => &["top"],
    }
}
