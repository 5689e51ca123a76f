//! The frame every page shares: the site's name, navigation, search and feeds ([`SiteView`]),
//! and the page's own title, URLs, description and feed ([`PageView`]).
//! Kept apart from the views it frames so that feeds and search, which read those views, are
//! not read back by them.

use super::feeds::{feed_route, FeedLink};
use super::markdown;
use super::search::{SEARCH_DIR, SEARCH_PAGE};
use super::views::{relative_root, safe_href, Ctx, StalenessView};
use crate::index::routes::Page;
use crate::text_file::Section;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// What every page needs to know about the site: its name and the navigation.
#[derive(Debug, Serialize)]
pub struct SiteView<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub base_url: &'a str,
    pub home: String,
    /// The search index's `meta.json`, read by the script on first use.
    pub search_index: String,
    /// The search page (`/search?q=…`): every result, paged.
    pub search_page: String,
    /// The site-wide Atom feed of research notes.
    pub feed: String,
    /// `/api/matrix.json`, the whole matrix as data.
    pub api: String,
    /// `/disagreements`: self-reports that stronger evidence contradicts.
    pub disagreements: String,
    pub llms_txt: String,
    /// The site's repository, when it is a URL a page may link to (see [`safe_href`]).
    pub repository: Option<&'a str>,
    pub nav: Vec<NavItem>,
    /// The link of each section index by name (`research`, `clients`, `capabilities`,
    /// `spec`, `guides`) and of `home`.
    pub sections: BTreeMap<&'static str, String>,
    /// The thresholds of the staleness badges, in days.
    pub staleness: StalenessView,
    /// What the site calls its protocol, a client, a capability and a revision.
    pub vocabulary: &'a crate::config::Vocabulary,
}

/// One entry of the main navigation.
#[derive(Debug, Serialize)]
pub struct NavItem {
    /// In the site's words (`Editors` where a client is called an editor).
    pub title: String,
    pub url: String,
    /// Matches [`PageView::section`] on the pages it leads to.
    pub section: &'static str,
}

/// The page being rendered: its title and URLs.
#[derive(Debug, Serialize)]
pub struct PageView<'a> {
    pub title: Cow<'a, str>,
    pub description: Cow<'a, str>,
    pub route: String,
    pub url: String,
    /// `baseUrl` + route; `None` on pages that have no route (404).
    pub canonical: Option<String>,
    pub md_url: Option<String>,
    /// The navigation entry this page belongs to.
    pub section: &'static str,
    /// "Edit this page", on the site's repository when that is a safe URL.
    pub edit_url: Option<String>,
    /// The page's own feed (client and capability pages).
    pub feed: Option<FeedLink>,
    /// Its Open Graph type: `article` for notes and guides, `website` for the rest.
    pub og_type: &'static str,
    /// The way from this page to the site's root, for the theme's own files (`../` on
    /// `/research/x`, empty on the home page; their names from the `asset` filter): relative, so that a build opened from disk is
    /// styled. The 404 page, which hosts serve at any path, has the absolute `<base path>/`.
    pub assets: String,
}

impl<'a> Ctx<'a> {
    pub fn site(&self) -> SiteView<'a> {
        let config = self.config();
        let entries = [
            ("Matrix", Page::Home, "home"),
            ("Research", Page::Index(Section::Research), "research"),
            ("Clients", Page::Index(Section::Clients), "clients"),
            (
                "Capabilities",
                Page::Index(Section::Capabilities),
                "capabilities",
            ),
            ("Spec", Page::SpecIndex, "spec"),
            ("Guides", Page::Index(Section::Guides), "guides"),
        ];
        let sections = entries
            .iter()
            .map(|(_, page, section)| (*section, self.href(*page)))
            .collect();
        let no_guides = self.count(Section::Guides) == 0;
        let nav = entries
            .into_iter()
            .filter(|(_, page, _)| !(no_guides && *page == Page::Index(Section::Guides)))
            .map(|(title, page, section)| NavItem {
                title: config.vocabulary.reword(title),
                url: self.href(page),
                section,
            })
            .collect();
        SiteView {
            title: &config.title,
            description: &config.description,
            base_url: &config.base_url,
            vocabulary: &config.vocabulary,
            home: self.href(Page::Home),
            search_index: self.href_route(&format!("/{SEARCH_DIR}/meta.json")),
            search_page: self.href_page_route(SEARCH_PAGE),
            feed: self.href_route("/feed.xml"),
            api: self.href_route("/api/matrix.json"),
            disagreements: self.href_page_route(super::disagreements::ROUTE),
            llms_txt: self.href_route("/llms.txt"),
            repository: config.repository.as_deref().and_then(safe_href),
            nav,
            sections,
            staleness: {
                let (aging_after_days, stale_after_days) = config.staleness_days();
                StalenessView {
                    aging_after_days,
                    stale_after_days,
                }
            },
        }
    }

    /// The page view of `page`, titled `title`.
    pub fn page(&self, page: Page, title: Cow<'a, str>, description: Cow<'a, str>) -> PageView<'a> {
        let section = match page {
            Page::Home => "home",
            Page::Index(s) => s.dir(),
            Page::Note(_) => "research",
            Page::Client(_) => "clients",
            Page::Capability(_) => "capabilities",
            Page::Guide(_) => "guides",
            Page::Observation(_) => "observations",
            Page::Spec(_) | Page::SpecIndex => "spec",
        };
        let route = self.route(page);
        PageView {
            assets: relative_root(&route, self.config().urls),
            og_type: match page {
                Page::Note(_) | Page::Guide(_) => "article",
                _ => "website",
            },
            title,
            // `<meta name="description">` is plain text: a summary's Markdown markers go.
            description: Cow::Owned(markdown::plain_text(&description)),
            route,
            url: self.href(page),
            canonical: Some(self.canonical_url(page)),
            md_url: Some(self.md_href(page)),
            section,
            edit_url: self.edit_url(page),
            feed: match page {
                Page::Home => None,
                _ => feed_route(self, page).map(|route| FeedLink {
                    title: format!("Research notes on {}", self.title(page)),
                    url: self.href_route(&route),
                }),
            },
        }
    }

    /// "Edit this page" on the site's repository, for pages made from a file (none when
    /// the repository is no URL a page may link to: see [`safe_href`]).
    fn edit_url(&self, page: Page) -> Option<String> {
        let config = self.config();
        let repo = safe_href(config.repository.as_deref()?)?.trim_end_matches('/');
        let path = self.file_path(page)?;
        let branch = &config.branch;
        let edit = if repo.contains("gitlab") {
            "-/edit"
        } else {
            "edit"
        };
        Some(format!("{repo}/{edit}/{branch}/{path}"))
    }
}
