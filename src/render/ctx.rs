//! The context views read the index through: one [`Ctx`] per page or file, whose accessors
//! hand out the site's documents, settings and lookups and record each as an [`Input`] of that
//! output, over a [`Site`] every output of a render shares. No other part of render reads the
//! index for a view, so what an output was made from is known once it is made.

use super::inputs::{Input, Reads};
use crate::config::SiteConfig;
use crate::index::links::{self, LinkTarget};
use crate::index::routes::{output_stem, page_href, Page};
use crate::index::{Matrix, ResolvedLink, SiteIndex};
use crate::model::{Capability, Client, Document, Guide, Note, SupportCell};
use crate::provenance::excerpt::Excerpts;
use crate::text_file::Section;
use chrono::NaiveDate;
use std::cell::RefCell;
use std::sync::OnceLock;

/// A value made once per render and shared by the outputs that use it, with the inputs it was
/// made from: each output using it records those as its own (see [`Ctx::cached`]).
pub type Cached<T> = OnceLock<(T, Reads)>;

/// What every output of one render shares: the index, the day ages count to, and values
/// made on first use.
pub struct Site<'a> {
    index: &'a SiteIndex,
    /// The day ages count to, and whether `SOURCE_DATE_EPOCH` gave it.
    reference: (Option<NaiveDate>, bool),
    /// Each source's pinned lines, when the build read them (`build --excerpts`, which keeps
    /// no memo: so not an input).
    excerpts: Option<&'a Excerpts>,
    /// The path part of `baseUrl` (`/docs` of `https://x.io/docs`), prefixed to every link.
    base_path: String,
    /// Whether contexts record what they read (only a render that keeps a memo needs it).
    record: bool,
    /// Each note's link and Markdown link, made once (on first use: a rebuild that renders
    /// one note needs few): notes are linked from every listing, card, feed and related list.
    note_hrefs: Vec<OnceLock<(String, String)>>,
    /// Each note's summary as HTML, made on first use: a note's card shows on its clients',
    /// capabilities' and related notes' pages, in listings and feeds.
    pub(super) note_summaries: Vec<Cached<String>>,
}

impl<'a> Site<'a> {
    /// The shared context of a render of `index`, with the day ages count to (see
    /// [`super::reference_day`]); `record`: whether its contexts record what they read.
    pub fn new(
        index: &'a SiteIndex,
        reference: (Option<NaiveDate>, bool),
        excerpts: Option<&'a Excerpts>,
        record: bool,
    ) -> Site<'a> {
        let notes = index.content.notes.len();
        Site {
            index,
            reference,
            excerpts,
            base_path: index.config.base_path().to_string(),
            record,
            note_hrefs: (0..notes).map(|_| OnceLock::new()).collect(),
            note_summaries: (0..notes).map(|_| OnceLock::new()).collect(),
        }
    }

    /// A context for one output, recording what it reads when this render records.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            site: self,
            log: self.record.then(RefCell::default),
            shown: super::outside::Shown::default(),
        }
    }
}

/// Every page of the site, in the order a render writes them: home, each section's index,
/// the index of spec revisions, notes, clients, capabilities, spec revisions, guides.
pub fn site_pages(index: &SiteIndex) -> Vec<Page> {
    let content = &index.content;
    let mut pages = vec![Page::Home];
    pages.extend(crate::index::outputs::section_indexes(content));
    pages.push(Page::SpecIndex);
    pages.extend((0..content.notes.len()).map(Page::Note));
    pages.extend((0..content.clients.len()).map(Page::Client));
    pages.extend((0..content.capabilities.len()).map(Page::Capability));
    pages.extend((0..index.config.spec_versions.len()).map(Page::Spec));
    pages.extend((0..content.guides.len()).map(Page::Guide));
    pages.extend((0..content.observations.len()).map(Page::Observation));
    pages
}

/// One output's view of the site: everything a view reads, through accessors that record it.
pub struct Ctx<'a> {
    site: &'a Site<'a>,
    /// What this output read so far; `None` when the render does not record.
    log: Option<RefCell<Vec<Input>>>,
    /// How much outside text this output may still show.
    shown: super::outside::Shown,
}

impl<'a> Ctx<'a> {
    /// How much outside text (excerpts, transcript lines) this output may still show.
    pub fn shown(&self) -> &super::outside::Shown {
        &self.shown
    }

    /// Records that this output read `input`.
    fn read(&self, input: Input) {
        if let Some(log) = &self.log {
            let mut log = log.borrow_mut();
            if log.last() != Some(&input) {
                log.push(input);
            }
        }
    }

    /// Everything this output read, sorted, each once (empty when the render does not record).
    pub fn reads(self) -> Reads {
        let mut reads = self.log.map(RefCell::into_inner).unwrap_or_default();
        reads.sort_unstable();
        reads.dedup();
        reads.into()
    }

    /// Records `reads` as this output's: what another context of this render read for it.
    pub fn extend(&self, reads: &[Input]) {
        if let Some(log) = &self.log {
            log.borrow_mut().extend_from_slice(reads);
        }
    }

    /// The value in `cell`, made by `make` on first use (with a context of its own); the
    /// inputs it was made from are recorded as this output's.
    pub fn cached<'c, T>(&self, cell: &'c Cached<T>, make: impl FnOnce(&Ctx<'a>) -> T) -> &'c T {
        let (value, reads) = cell.get_or_init(|| {
            let ctx = self.site.ctx();
            let value = make(&ctx);
            (value, ctx.reads())
        });
        self.extend(reads);
        value
    }

    /// The part of this render's contexts they share.
    pub fn shared(&self) -> &'a Site<'a> {
        self.site
    }

    /// `site.yaml` as read.
    pub fn config(&self) -> &'a SiteConfig {
        self.read(Input::Settings);
        &self.site.index.config
    }

    /// Records that this output is made from the theme's templates.
    pub fn uses_theme(&self) {
        self.read(Input::Theme);
    }

    /// The day ages are counted to (see [`super::reference_day`]); `None`: no ages.
    pub fn today(&self) -> Option<NaiveDate> {
        self.reference().0
    }

    /// The day ages are counted to, and whether `SOURCE_DATE_EPOCH` gave it.
    pub fn reference(&self) -> (Option<NaiveDate>, bool) {
        self.read(Input::Reference);
        self.site.reference
    }

    /// Each source's pinned lines, when the build read them (`build --excerpts`, which keeps
    /// no memo: so not an input).
    pub fn excerpts(&self) -> Option<&'a Excerpts> {
        self.site.excerpts
    }

    /// How many documents `section` has.
    pub fn count(&self, section: Section) -> usize {
        self.read(Input::Count(section));
        self.site.index.content.len(section)
    }

    /// Every page of the site, in the order a render writes them (see [`site_pages`]).
    pub fn pages(&self) -> Vec<Page> {
        for section in Section::ALL {
            self.read(Input::Count(section));
        }
        self.read(Input::Settings);
        site_pages(self.site.index)
    }

    /// Research note `n`'s front matter. What its `doc.body` holds (headings, links) is read
    /// through [`Ctx::document`], like the rest of its body: this records the front matter
    /// alone. The same holds for clients, capabilities and guides below.
    pub fn note(&self, n: usize) -> &'a Note {
        self.read(Input::Front(Page::Note(n)));
        &self.site.index.content.notes[n]
    }

    /// Observation `i`'s front matter.
    pub fn observation(&self, i: usize) -> &'a crate::model::Observation {
        self.read(Input::Front(Page::Observation(i)));
        &self.site.index.content.observations[i]
    }

    /// The transcript an observation's `transcript` names, beside it, if there is one (the
    /// transcripts are read with the observation's file: its front matter stands for them).
    pub fn transcript(&self, i: usize) -> Option<&'a crate::model::Transcript> {
        self.read(Input::File(Page::Observation(i)));
        let index = self.site.index;
        let t = (index.observations.transcript.get(i).copied()).flatten()?;
        index.content.transcripts.get(t)
    }

    /// Client `i`'s front matter, its support cells included.
    pub fn client(&self, i: usize) -> &'a Client {
        self.read(Input::Front(Page::Client(i)));
        &self.site.index.content.clients[i]
    }

    /// Capability `i`'s front matter.
    pub fn capability(&self, i: usize) -> &'a Capability {
        self.read(Input::Front(Page::Capability(i)));
        &self.site.index.content.capabilities[i]
    }

    /// Guide `i`'s front matter.
    pub fn guide(&self, i: usize) -> &'a Guide {
        self.read(Input::Front(Page::Guide(i)));
        &self.site.index.content.guides[i]
    }

    /// The document a page renders, body and all, for pages that have one.
    pub fn document(&self, page: Page) -> Option<&'a Document> {
        self.read(Input::File(page));
        self.site.index.document(page)
    }

    /// The Markdown body of a page's document as written; empty for pages without one.
    pub fn markdown(&self, page: Page) -> &'a str {
        let index = self.site.index;
        self.document(page)
            .and_then(|doc| index.files.get(doc.file)?.text.get(doc.body.range.clone()))
            .unwrap_or("")
    }

    /// The path of a page's file, `/`-separated, for pages made from one.
    pub fn file_path(&self, page: Page) -> Option<String> {
        self.read(Input::Front(page));
        let doc = self.site.index.document(page)?;
        Some(self.site.index.files.get(doc.file)?.display_path())
    }

    /// A page's route (`/research/<id>`; `/` for the home page).
    pub fn route(&self, page: Page) -> String {
        self.read(Input::Route(page));
        self.site.index.route(page)
    }

    /// The link to a route, under the site's base path.
    pub fn href_route(&self, route: &str) -> String {
        self.read(Input::Settings);
        format!("{}{route}", self.site.base_path)
    }

    /// The link to a page: its route under the base path, with a closing `/` when pages are
    /// folders (`urls: directory`).
    pub fn href(&self, page: Page) -> String {
        match self.note_hrefs(page) {
            Some((href, _)) => href.clone(),
            None => self.href_page_route(&self.route(page)),
        }
    }

    /// The link to the page at `route` (see [`Ctx::href`]).
    pub fn href_page_route(&self, route: &str) -> String {
        self.href_route(&page_href(route, self.config().urls))
    }

    /// The link to a page's Markdown rendition (`/research/x.md`, `/index.md`).
    pub fn md_href(&self, page: Page) -> String {
        match self.note_hrefs(page) {
            Some((_, md)) => md.clone(),
            None => self.href_route(&format!("/{}.md", output_stem(&self.route(page)))),
        }
    }

    /// A note's link and Markdown link, made once per render; `None` for other pages.
    fn note_hrefs(&self, page: Page) -> Option<&'a (String, String)> {
        let Page::Note(i) = page else {
            return None;
        };
        let cached = self.site.note_hrefs.get(i)?;
        self.read(Input::Route(page));
        self.read(Input::Settings);
        Some(cached.get_or_init(|| {
            let route = self.site.index.route(page);
            let md = format!("{}/{}.md", self.site.base_path, output_stem(&route));
            let href = page_href(&route, self.site.index.config.urls);
            (format!("{}{href}", self.site.base_path), md)
        }))
    }

    /// Note `n`'s summary as HTML, made once per render (a summary shows on every card and
    /// listing of the note).
    pub fn note_summary_html(&self, n: usize) -> String {
        let summary = crate::model::text(&self.note(n).summary);
        let make = |ctx: &Ctx<'a>| ctx.inline(summary, Section::Research, Page::Note(n));
        match self.site.note_summaries.get(n) {
            Some(cell) => self.cached(cell, make).clone(),
            None => make(self),
        }
    }

    /// A note's `related` notes, resolved.
    pub fn related(&self, n: usize) -> &'a [usize] {
        self.read(Input::Related(n));
        self.site.index.related.get(n).map_or(&[], Vec::as_slice)
    }

    /// The notes about a client, capability or spec revision; none for other pages.
    pub fn notes_of(&self, page: Page) -> &'a [usize] {
        self.read(Input::NotesOf(page));
        let index = self.site.index;
        let lists = match page {
            Page::Client(i) => index.notes_by_client.get(i),
            Page::Capability(i) => index.notes_by_capability.get(i),
            Page::Spec(i) => index.notes_by_spec.get(i),
            _ => None,
        };
        lists.map_or(&[], Vec::as_slice)
    }

    /// The pages linking to `page`, sorted.
    pub fn backlinks_of(&self, page: Page) -> &'a [Page] {
        self.read(Input::Backlinks(page));
        self.site
            .index
            .backlinks
            .get(&page)
            .map_or(&[], Vec::as_slice)
    }

    /// The resolved links in `page`'s body, in body order.
    pub fn links_on(&self, page: Page) -> &'a [ResolvedLink] {
        self.read(Input::Links(page));
        self.site.index.links_on(page)
    }

    /// The note with id `id`.
    pub fn find_note(&self, id: &str) -> Option<usize> {
        self.read(Input::Ids(Section::Research));
        self.site.index.ids.note(id)
    }

    /// The observation with id `id`.
    pub fn find_observation(&self, id: &str) -> Option<usize> {
        self.read(Input::Ids(Section::Observations));
        self.site.index.ids.observation(id)
    }

    /// What the index knows of the observations: their clients, transcripts, the cells
    /// citing them (all read from clients' and observations' front matter, as the matrix).
    pub fn observations(&self) -> &'a crate::index::Observations {
        self.read(Input::Matrix);
        &self.site.index.observations
    }

    /// How the cell of `client` for `capability` was checked.
    pub fn evidence(&self, client: usize, capability: usize) -> crate::index::evidence::Evidence {
        let index = self.site.index;
        if let Some(cell) = self.cell(client, capability) {
            // What the cited notes' sources pin decides it too.
            self.read(Input::Ids(Section::Research));
            self.read(Input::Ids(Section::Observations));
            for n in cell
                .research
                .iter()
                .filter_map(|r| index.ids.note(&r.value))
            {
                self.read(Input::Front(Page::Note(n)));
            }
        }
        index.evidence(client, capability)
    }

    /// The client with id `id`.
    pub fn find_client(&self, id: &str) -> Option<usize> {
        self.read(Input::Ids(Section::Clients));
        self.site.index.ids.client(id)
    }

    /// The capability with id or alias `id`; the flag says whether an alias was used.
    pub fn find_capability(&self, id: &str) -> Option<(usize, bool)> {
        self.read(Input::Ids(Section::Capabilities));
        self.site.index.ids.capability(id)
    }

    /// The spec revision with id `id`.
    pub fn find_spec(&self, id: &str) -> Option<usize> {
        self.read(Input::Settings);
        self.site.index.ids.spec(id)
    }

    /// What a link written as `dest` in a file of `section` on `page` points to.
    pub fn resolve(&self, dest: &str, section: Section, page: Page) -> LinkTarget {
        for section in Section::ALL {
            self.read(Input::Ids(section));
        }
        links::resolve(dest, section, page, &self.site.index.ids)
    }

    /// The support matrix.
    pub fn matrix(&self) -> &'a Matrix {
        self.read(Input::Matrix);
        &self.site.index.matrix
    }

    /// The support cell of `client` for `capability`, if its map names one.
    pub fn cell(&self, client: usize, capability: usize) -> Option<&'a SupportCell> {
        let index = self.site.index;
        self.matrix().cell(&index.content, client, capability)
    }

    /// Why a cell is unknown (see [`Matrix::reason`]); `None` when it is not.
    pub fn reason(&self, client: usize, capability: usize) -> Option<&'a str> {
        let index = self.site.index;
        (self.matrix()).reason(&index.content, self.config(), client, capability)
    }

    /// The self-reports of `client` for `capability`, in list order.
    pub fn reports(&self, client: usize, capability: usize) -> Vec<&'a crate::model::Report> {
        let index = self.site.index;
        (self.matrix().reports(client, capability).iter())
            .map(|&r| &index.content.reports[r])
            .collect()
    }

    /// The shared list at position `list` of `content.lists`.
    pub fn list(&self, list: usize) -> &'a crate::model::ReportList {
        self.read(Input::Matrix);
        &self.site.index.content.lists[list]
    }

    /// The status a cell shows (`unknown` when the client's map does not name it).
    pub fn status(&self, client: usize, capability: usize) -> &'static str {
        let index = self.site.index;
        self.matrix().status(&index.content, client, capability)
    }
}

#[cfg(test)]
mod tests {
    use super::super::inputs::{Input, Inputs};
    use super::super::memo::Kept;
    use super::*;

    fn basic() -> SiteIndex {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
        crate::open(&root).expect("the fixture opens")
    }

    /// Every input hashed alike, but those that `changed`.
    struct Changed(Vec<Input>);

    impl Inputs for Changed {
        fn hash(&self, input: Input) -> u64 {
            u64::from(self.0.contains(&input))
        }
    }

    /// A view no map of dependencies knows about: note 0 showing note 2's title. What it read
    /// is recorded as it reads it, so an edit to note 2 makes it again and one to note 1 not.
    #[test]
    fn an_output_is_made_again_when_what_it_read_changes() {
        let index = basic();
        let site = Site::new(&index, (None, false), None, true);
        let ctx = site.ctx();
        let view = format!(
            "{} / {}",
            ctx.title(Page::Note(0)),
            ctx.title(Page::Note(2))
        );
        let kept = Kept::new(view, ctx.reads(), Some(&Changed(vec![])));
        let edited = |page| Changed(vec![Input::Front(page)]);
        assert!(kept.fresh(&edited(Page::Note(1))), "note 1 is not shown");
        assert!(!kept.fresh(&edited(Page::Note(2))), "note 2's title is");
        assert!(!kept.fresh(&edited(Page::Note(0))), "and note 0's");
    }

    /// A value made once per render (the `site` every template sees, a note's summary on its
    /// cards) counts as read by every output using it, not only by the first.
    #[test]
    fn a_shared_value_is_read_by_each_output_using_it() {
        let index = basic();
        let site = Site::new(&index, (None, false), None, true);
        let cell: Cached<String> = OnceLock::new();
        let (first, second) = (site.ctx(), site.ctx());
        let made = first.cached(&cell, |ctx| ctx.title(Page::Note(2)).into_owned());
        let again = second.cached(&cell, |_| unreachable!("made once"));
        assert_eq!(made, again);
        let reads = second.reads();
        assert!(reads.contains(&Input::Front(Page::Note(2))), "{reads:?}");
        assert_eq!(reads, first.reads());
    }

    /// A render without a memo (`build`) records nothing.
    #[test]
    fn without_a_memo_nothing_is_recorded() {
        let index = basic();
        let site = Site::new(&index, (None, false), None, false);
        let ctx = site.ctx();
        ctx.note_card(0);
        assert!(ctx.reads().is_empty());
    }
}
