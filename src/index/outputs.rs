//! The files a build generates (everything but the static files): every page as
//! `<route>.html` and `<route>.md`, the files beside the pages, and the folders a build fills
//! whole. Lint reads it to find a static file that would replace generated output (FN012); a
//! test checks it against every file a render writes. Paths are compared as the most forgiving
//! host sees them ([`fold_case`]): on macOS and Windows `static/INDEX.html` is the same file as
//! `index.html`, on Windows `feed.xml.` is `feed.xml`.

use super::routes::{html_file, output_stem, Page};
use super::SiteIndex;
use crate::model::Content;
use crate::text_file::Section;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The files beside the pages, at the top of the output.
pub const FILES: [&str; 7] = [
    "404.html",
    "search.html",
    "disagreements.html",
    "llms.txt",
    "feed.xml",
    "sitemap.xml",
    "robots.txt",
];

/// Folders a build fills whole: the data API, the status badges, the feeds of clients and
/// capabilities, the search index (whose file names depend on the words of the site).
/// Nothing else goes there.
pub const FOLDERS: [&str; 4] = ["api", "badges", "feeds", "search"];

/// What a build generates, by output path.
#[derive(Debug)]
pub struct Outputs {
    /// Every generated file outside [`FOLDERS`], by its [`fold_case`]d path, sorted.
    files: BTreeMap<String, String>,
}

/// `path` as the most forgiving host sees it: two paths that fold to the same string may be
/// one file there, so a static file must not fold onto a generated one. Folded by class, per
/// `/`-separated component:
/// - compatibility forms (NFKC): full-width `ｉｎｄｅｘ.html`, ligatures, `ℌ`;
/// - Unicode case (APFS and NTFS by default): `INDEX.html`, `İndex.html` (a dot above an `i`
///   or `j` is dropped, as the Turkic fold does);
/// - trailing dots and spaces, which Windows drops from a name: `feed.xml.`, `feed.xml `.
pub fn fold_case(path: &str) -> Cow<'_, str> {
    let plain = |b: u8| b.is_ascii() && !b.is_ascii_uppercase();
    let trailing = |c: &str| c.ends_with(['.', ' ']) && !matches!(c, "." | "..");
    if path.bytes().all(plain) && !path.split('/').any(trailing) {
        return Cow::Borrowed(path);
    }
    let folded: Vec<String> = path.split('/').map(fold_component).collect();
    Cow::Owned(folded.join("/"))
}

/// One path component folded as [`fold_case`] says.
fn fold_component(component: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut folded = String::with_capacity(component.len());
    for c in component.nfkc().flat_map(char::to_lowercase) {
        if c == '\u{307}' && folded.ends_with(['i', 'j']) {
            continue;
        }
        folded.push(c);
    }
    // NFKC may have made new capitals or dots (`Ⅸ`, `․`): fold once more, then trim.
    let folded: String = folded.nfkc().flat_map(char::to_lowercase).collect();
    match folded.trim_end_matches(['.', ' ']) {
        "" => folded,
        trimmed => trimmed.to_string(),
    }
}

/// Generated output a static file would clash with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clash {
    /// A generated file at the same path: the static file would replace it.
    Replaces(String),
    /// A folder the build fills whole.
    InFolder(&'static str),
    /// A generated file where the static file needs a folder (`index.html/x`).
    UnderFile(String),
    /// Generated files inside the folder where the static file would be a file (a static
    /// file called `research`).
    OverFolder(String),
}

impl Outputs {
    /// What a build of `index` generates.
    pub fn of(index: &SiteIndex) -> Outputs {
        let mut files = Outputs {
            files: BTreeMap::new(),
        };
        for file in FILES {
            files.insert(file.to_string());
        }
        for page in pages(index) {
            let route = index.route(page);
            files.insert(html_file(&route, index.config.urls));
            files.insert(format!("{}.md", output_stem(&route)));
        }
        files
    }

    fn insert(&mut self, file: String) {
        self.files.insert(fold_case(&file).into_owned(), file);
    }

    /// What a static file published at `path` (`/`-separated, relative to the output) would
    /// clash with, if anything.
    /// clash with, if anything. Case is ignored: the clash names the generated file as the
    /// build writes it.
    pub fn clash(&self, path: &str) -> Option<Clash> {
        let path = fold_case(path);
        let path = path.as_ref();
        if let Some(generated) = self.files.get(path) {
            return Some(Clash::Replaces(generated.clone()));
        }
        let top = path.split('/').next().unwrap_or(path);
        if let Some(folder) = FOLDERS.iter().find(|f| **f == top) {
            return Some(Clash::InFolder(folder));
        }
        let mut ancestors = path.match_indices('/').map(|(i, _)| &path[..i]);
        if let Some(file) = ancestors.find_map(|a| self.files.get(a)) {
            return Some(Clash::UnderFile(file.clone()));
        }
        let inside = format!("{path}/");
        let first = self.files.range(inside.clone()..).next();
        first
            .filter(|(folded, _)| folded.starts_with(&inside))
            .map(|(_, f)| Clash::OverFolder(f.clone()))
    }
}

/// Every page of the site: home, section indexes, the index of spec revisions, notes,
/// clients, capabilities, spec revisions, guides.
pub fn pages(index: &SiteIndex) -> impl Iterator<Item = Page> + '_ {
    let content = &index.content;
    let indexes = section_indexes(content);
    std::iter::once(Page::Home)
        .chain(indexes)
        .chain(std::iter::once(Page::SpecIndex))
        .chain((0..content.notes.len()).map(Page::Note))
        .chain((0..content.clients.len()).map(Page::Client))
        .chain((0..content.capabilities.len()).map(Page::Capability))
        .chain((0..index.config.spec_versions.len()).map(Page::Spec))
        .chain((0..content.guides.len()).map(Page::Guide))
        .chain((0..content.observations.len()).map(Page::Observation))
}

/// The section indexes a site has: every section's, but `/observations` only when there are
/// observations (a site without them is built as it was before they existed).
pub fn section_indexes(content: &Content) -> impl Iterator<Item = Page> + '_ {
    Section::ALL
        .into_iter()
        .filter(|&s| s != Section::Observations || !content.observations.is_empty())
        .map(Page::Index)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(files: &[&str]) -> Outputs {
        let mut out = Outputs {
            files: BTreeMap::new(),
        };
        for file in files {
            out.insert(file.to_string());
        }
        out
    }

    #[test]
    fn clashes_ignore_case() {
        let out = outputs(&["index.html", "research/a.html"]);
        assert_eq!(
            out.clash("INDEX.html"),
            Some(Clash::Replaces("index.html".into()))
        );
        assert_eq!(out.clash("API/notes.json"), Some(Clash::InFolder("api")));
        assert_eq!(
            out.clash("Research/A.HTML"),
            Some(Clash::Replaces("research/a.html".into()))
        );
        assert_eq!(
            out.clash("RESEARCH"),
            Some(Clash::OverFolder("research/a.html".into()))
        );
        assert_eq!(
            out.clash("Index.Html/x.png"),
            Some(Clash::UnderFile("index.html".into()))
        );
    }

    /// Twins some host folds onto a generated path, by class: trailing dots and spaces,
    /// Unicode case, compatibility forms; in any component.
    #[test]
    fn clashes_fold_what_hosts_fold() {
        let out = outputs(&["index.html", "feed.xml", "research/a.html"]);
        let replaces = |p: &str| Some(Clash::Replaces(p.to_string()));
        for twin in ["feed.xml.", "feed.xml ", "feed.xml. .", "FEED.XML .."] {
            assert_eq!(out.clash(twin), replaces("feed.xml"), "{twin:?}");
        }
        for twin in [
            "\u{130}ndex.html",
            "\u{ff49}\u{ff4e}\u{ff44}\u{ff45}\u{ff58}.html",
            "\u{ff29}NDEX.HTML",
            "index\u{ff0e}html",
            "research./a.html",
            "RESEARCH/\u{ff41}.html ",
        ] {
            let expected = if twin.contains('/') {
                "research/a.html"
            } else {
                "index.html"
            };
            assert_eq!(out.clash(twin), replaces(expected), "{twin:?}");
        }
        assert_eq!(
            out.clash("res\u{ff45}arch"),
            Some(Clash::OverFolder("research/a.html".into()))
        );
        assert_eq!(out.clash("\u{ff41}pi/x.json"), Some(Clash::InFolder("api")));
    }

    #[test]
    fn clashes_with_files_folders_and_the_folders_a_build_fills() {
        let out = outputs(&["index.html", "research/a.html", "research.html"]);
        assert_eq!(
            out.clash("index.html"),
            Some(Clash::Replaces("index.html".into()))
        );
        assert_eq!(out.clash("api/notes.json"), Some(Clash::InFolder("api")));
        assert_eq!(out.clash("search"), Some(Clash::InFolder("search")));
        assert_eq!(
            out.clash("index.html/x.png"),
            Some(Clash::UnderFile("index.html".into()))
        );
        assert_eq!(
            out.clash("research"),
            Some(Clash::OverFolder("research/a.html".into()))
        );
        for fine in [
            "research/a.png",
            "img/logo.svg",
            "index.htm",
            "apis/x.json",
            "../index.html",
            "research/./a.png",
        ] {
            assert_eq!(out.clash(fine), None, "{fine}");
        }
    }
}
