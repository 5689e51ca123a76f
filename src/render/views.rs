//! View structs every page family shares (the site, the page, links, dates, statuses, note
//! cards), built from what the [`Ctx`] hands out.

pub use super::ctx::Ctx;
use super::markdown;
pub use super::urls::{is_allowed_external, safe_href};
use crate::config::{CapabilityGroup, Kind, UrlStyle};
use crate::index::links::LinkTarget;
use crate::index::routes::{html_file, output_stem, Page};
use crate::model::{doc_id, text, Tally};
use crate::text_file::Section;
use chrono::NaiveDate;
use serde::Serialize;
use std::borrow::Cow;

/// A link to another page.
#[derive(Debug, Clone, Serialize)]
pub struct LinkView<'a> {
    pub title: Cow<'a, str>,
    pub url: String,
    pub md_url: String,
}

/// A date, shown as written in a `<time datetime>`. How long ago it was, and whether a "last
/// verified" date is fresh, aging or stale, is worked out by the theme's script in the
/// reader's browser on the day the page is read (see [`SiteView::staleness`]): a page is
/// read for months after it is built, so nothing relative to a day is baked into it.
#[derive(Debug, Serialize)]
pub struct DateView<'a> {
    pub date: &'a str,
    /// The date is a real `YYYY-MM-DD` date (the script only ages those).
    pub valid: bool,
}

/// When a "last verified" date counts as aging or stale (`site.yaml`'s `staleness`), for the
/// script that shows ages and badges.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct StalenessView {
    pub aging_after_days: u32,
    pub stale_after_days: u32,
}

/// A support status, with its text label: the CSS class adds colour, never alone.
#[derive(Debug, Serialize, Clone, Copy)]
pub struct StatusView {
    /// `yes`, `partial`, `no` or `unknown` (also the CSS class suffix).
    pub value: &'static str,
    /// A symbol shown beside the label, hidden from screen readers.
    pub mark: &'static str,
}

/// Support status counts of one client.
#[derive(Debug, Serialize, Clone, Copy, Default)]
pub struct TallyView {
    pub yes: usize,
    pub partial: usize,
    pub no: usize,
    pub unknown: usize,
}

impl TallyView {
    /// Counts one cell of `status` (anything not yes, partial or no counts as unknown).
    pub fn add(&mut self, status: &str) {
        match status {
            "yes" => self.yes += 1,
            "partial" => self.partial += 1,
            "no" => self.no += 1,
            _ => self.unknown += 1,
        }
    }
}

/// A research note in a list.
#[derive(Debug, Serialize)]
pub struct NoteCard<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub url: String,
    pub md_url: String,
    pub summary: &'a str,
    pub summary_html: String,
    pub kind: &'a str,
    pub status: &'a str,
    pub verified: Option<DateView<'a>>,
}

impl<'a> Ctx<'a> {
    /// The resolved body links of `page`, in body order, each once.
    pub(super) fn links_of(&self, page: Page) -> Vec<&'a LinkTarget> {
        let mut list = Vec::new();
        for link in self.links_on(page) {
            if list.len() == link.link {
                list.push(&link.target);
            }
        }
        list
    }

    /// The capability groups that have capabilities, in `site.yaml` order, each with its
    /// capabilities in matrix order.
    pub fn groups(&self) -> impl Iterator<Item = (&'a CapabilityGroup, &'a [usize])> + 'a {
        let config = self.config();
        self.matrix()
            .groups
            .iter()
            .filter(|g| !g.capabilities.is_empty())
            .map(move |g| {
                (
                    &config.capability_groups[g.group],
                    g.capabilities.as_slice(),
                )
            })
    }

    /// The absolute URL of a page's Markdown rendition (`https://site/research/x.md`).
    pub fn md_canonical_url(&self, page: Page) -> String {
        let stem = output_stem(&self.route(page));
        self.config().url_for(&format!("/{stem}.md"))
    }

    /// The canonical URL of a page (`baseUrl` and its route).
    pub fn canonical_url(&self, page: Page) -> String {
        self.config().url_for(&self.route(page))
    }

    /// The title a page goes by in links and lists (a section's or a revision's in the site's
    /// words: `Editors`, `Version 3.17`).
    pub fn title(&self, page: Page) -> Cow<'a, str> {
        let words = |title: &str| Cow::Owned(self.config().vocabulary.reword(title));
        match page {
            Page::Home => Cow::Borrowed(self.config().title.as_str()),
            Page::Index(Section::Research) => Cow::Borrowed("Research notes"),
            Page::Index(Section::Clients) => words("Clients"),
            Page::Index(Section::Capabilities) => words("Capabilities"),
            Page::Index(Section::Guides) => Cow::Borrowed("Guides"),
            Page::Index(Section::Observations) => Cow::Borrowed("Observations"),
            Page::SpecIndex => words("Spec revisions"),
            Page::Note(i) => Cow::Borrowed(self.note(i).display_title()),
            Page::Client(i) => Cow::Borrowed(self.client(i).display_title()),
            Page::Capability(i) => Cow::Borrowed(self.capability(i).display_title()),
            Page::Guide(i) => Cow::Borrowed(self.guide(i).display_title()),
            // Named after what the client sent: outside text.
            Page::Observation(i) => Cow::Owned(
                super::escape::visible_controls(&self.observation(i).display_title()).into_owned(),
            ),
            Page::Spec(i) => {
                let revision = self.config().vocabulary.reword("Revision");
                Cow::Owned(format!("{revision} {}", self.config().spec_versions[i].id))
            }
        }
    }

    pub fn link(&self, page: Page) -> LinkView<'a> {
        LinkView {
            title: self.title(page),
            url: self.href(page),
            md_url: self.md_href(page),
        }
    }

    /// A link titled by an id rather than the page's title (revision ids, client ids).
    pub fn link_as(&self, page: Page, title: &'a str) -> LinkView<'a> {
        LinkView {
            title: Cow::Borrowed(title),
            ..self.link(page)
        }
    }

    pub fn date(&self, date: &'a str) -> DateView<'a> {
        DateView {
            date,
            valid: parse_day(date).is_some(),
        }
    }

    /// A date field that may be absent or empty.
    pub fn maybe_date(
        &self,
        date: &'a Option<crate::model::Spanned<String>>,
    ) -> Option<DateView<'a>> {
        Some(text(date))
            .filter(|d| !d.is_empty())
            .map(|d| self.date(d))
    }

    pub fn note_card(&self, n: usize) -> NoteCard<'a> {
        let note = self.note(n);
        let summary = text(&note.summary);
        // Made once per render: a card shows in many listings.
        let summary_html = match self.shared().note_summaries.get(n) {
            Some(cell) => self
                .cached(cell, |ctx| {
                    ctx.inline(summary, Section::Research, Page::Note(n))
                })
                .clone(),
            None => self.inline(summary, Section::Research, Page::Note(n)),
        };
        NoteCard {
            id: doc_id(&note.id, &note.doc),
            title: note.display_title(),
            url: self.href(Page::Note(n)),
            md_url: self.md_href(Page::Note(n)),
            summary,
            summary_html,
            kind: self.kind_title(text(&note.kind)),
            status: text(&note.status),
            verified: self.maybe_date(&note.last_verified),
        }
    }

    /// A kind's title from `site.yaml`, or its id.
    pub fn kind_title(&self, kind: &'a str) -> &'a str {
        self.config().kind(kind).map_or(kind, Kind::display_title)
    }

    pub fn backlinks(&self, page: Page) -> Vec<LinkView<'a>> {
        let pages = self.backlinks_of(page);
        pages.iter().map(|&p| self.link(p)).collect()
    }

    /// The HTML destination of a resolved link written as `dest`.
    pub fn rewrite(&self, target: Option<&LinkTarget>, dest: &str) -> String {
        match target {
            _ if dest.trim_start().starts_with('#') => dest.to_string(),
            Some(LinkTarget::Page { page, anchor }) => match anchor {
                Some(a) => format!("{}#{a}", self.href(*page)),
                None => self.href(*page),
            },
            Some(LinkTarget::Unsafe { .. }) => "#".to_string(),
            Some(LinkTarget::External) if !is_allowed_external(dest) => "#".to_string(),
            _ => dest.to_string(),
        }
    }

    /// Inline Markdown (summaries, support notes) of a file in `section`, links resolved.
    pub fn inline(&self, markdown: &str, section: Section, page: Page) -> String {
        markdown::inline_html(markdown, |dest| {
            let target = self.resolve(dest, section, page);
            self.rewrite(Some(&target), dest)
        })
    }
}

/// The relative way from the page at `route` to the site's root: `../` for each folder its
/// file lies in (`research/x.html`, `research/x/index.html`), nothing for the home page.
pub fn relative_root(route: &str, urls: UrlStyle) -> String {
    "../".repeat(html_file(route, urls).matches('/').count())
}

/// A `YYYY-MM-DD` date, if it is one.
pub fn parse_day(date: &str) -> Option<NaiveDate> {
    let date = date.trim();
    // The exact `YYYY-MM-DD` shape without chrono's format parser (10,000 notes' dates are
    // read on every build and rebuild); anything else as chrono reads it.
    crate::dates::parse_date(date).or_else(|| NaiveDate::parse_from_str(date, "%Y-%m-%d").ok())
}

/// The status a cell shows.
pub fn status(value: &'static str) -> StatusView {
    let mark = match value {
        "yes" => "✓",
        "partial" => "◐",
        "no" => "✗",
        _ => "?",
    };
    StatusView { value, mark }
}

pub fn tally(tally: Option<&Tally>) -> TallyView {
    let get = |s: &str| tally.and_then(|t| t.get(s)).copied().unwrap_or(0);
    TallyView {
        yes: get("yes"),
        partial: get("partial"),
        no: get("no"),
        unknown: get("unknown"),
    }
}
