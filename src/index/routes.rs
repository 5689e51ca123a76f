//! Pages and their routes: `/research/<id>`, `/clients/<id>`, …, written as `<route>.html`
//! and `<route>.md`.

use crate::config::UrlStyle;
use crate::text_file::Section;

/// A page of the built site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Page {
    Home,
    /// The index page of a section (`/research`, `/clients`, …).
    Index(Section),
    Note(usize),
    Client(usize),
    Capability(usize),
    Guide(usize),
    /// A spec revision, by its position in `site.yaml`.
    Spec(usize),
    /// The index of spec revisions.
    SpecIndex,
    Observation(usize),
}

/// The route of a page in a section with a given id (`/research/<id>`).
pub fn route(section_dir: &str, id: &str) -> String {
    format!("/{section_dir}/{id}")
}

/// The route of a section index (`/research`).
pub fn index_route(section: Section) -> String {
    format!("/{}", section.dir())
}

/// The folder of spec revision pages.
pub const SPEC_DIR: &str = "spec";

/// The HTML file a page at `route` is written to: `research/x.html` (`urls: clean`) or
/// `research/x/index.html` (`urls: directory`); the home page is `index.html` either way.
pub fn html_file(route: &str, urls: UrlStyle) -> String {
    html_file_of_stem(&output_stem(route), urls)
}

/// The HTML file of a page whose output stem ([`output_stem`]) is `stem`.
pub fn html_file_of_stem(stem: &str, urls: UrlStyle) -> String {
    match urls {
        UrlStyle::Directory if stem != "index" => format!("{stem}/index.html"),
        _ => format!("{stem}.html"),
    }
}

/// The link to a page at `route`: the route itself (`urls: clean`), or with a closing `/`
/// (`urls: directory`). A page's canonical URL stays its route either way (hosts redirect
/// `x` to `x/`), so that switching layouts leaves every note's `canonical` as it is.
pub fn page_href(route: &str, urls: UrlStyle) -> String {
    match urls {
        UrlStyle::Directory if !route.ends_with('/') => format!("{route}/"),
        _ => route.to_string(),
    }
}

/// The output file stem of a route: `/` is `index`, everything else its route (the
/// Markdown rendition is `<stem>.md` whatever `urls` says).
pub fn output_stem(route: &str) -> String {
    let trimmed = route.trim_start_matches('/');
    if trimmed.is_empty() {
        "index".to_string()
    } else {
        trimmed.to_string()
    }
}
