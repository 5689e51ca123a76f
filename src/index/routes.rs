//! Pages and their routes: `/research/<id>`, `/clients/<id>`, …, written as `<route>.html`
//! and `<route>.md`.

use crate::source::Section;

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

/// The output file of a route: `/` is `index`, everything else its route.
pub fn output_stem(route: &str) -> String {
    let trimmed = route.trim_start_matches('/');
    if trimmed.is_empty() {
        "index".to_string()
    } else {
        trimmed.to_string()
    }
}
