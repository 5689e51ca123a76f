//! Resolving body links: site paths (`/research/<id>.md`, …), relative links, anchors and
//! schemes, to the page they name or to why they name none.

use super::routes::{Page, SPEC_DIR};
use super::Ids;
use crate::text_file::Section;

/// What a body link points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// Another site (http, https, mailto, …).
    External,
    /// A `javascript:`, `data:` or `vbscript:` URL.
    Unsafe { scheme: String },
    /// A page of this site, and an anchor on it.
    Page { page: Page, anchor: Option<String> },
    /// A page of a known section whose id names nothing.
    Missing {
        kind: MissingKind,
        id: String,
        anchor: Option<String>,
    },
    /// A path outside the known sections (an image, a file in `static/`).
    Static { path: String },
    /// A relative path that climbs above the site root.
    Escapes,
}

/// Which kind of page a broken link names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingKind {
    Section(Section),
    Spec,
}

impl MissingKind {
    pub fn noun(self) -> &'static str {
        match self {
            MissingKind::Section(Section::Research) => "research note",
            MissingKind::Section(Section::Clients) => "client",
            MissingKind::Section(Section::Capabilities) => "capability",
            MissingKind::Section(Section::Guides) => "guide",
            MissingKind::Section(Section::Observations) => "observation",
            MissingKind::Spec => "spec revision",
        }
    }
}

const UNSAFE_SCHEMES: [&str; 3] = ["javascript", "data", "vbscript"];

/// The scheme of a URL (`https` of `https://…`), if it has one.
pub fn scheme(dest: &str) -> Option<&str> {
    let colon = dest.find(':')?;
    let candidate = &dest[..colon];
    let valid = candidate
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && candidate
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(candidate)
}

/// Resolves `dest`, written in a file of `from` section, against the site's ids.
/// `from_page` is the page the link sits on (for `#anchor` alone).
pub fn resolve(dest: &str, from: Section, from_page: Page, ids: &Ids) -> LinkTarget {
    let trimmed = dest.trim();
    if let Some(scheme) = scheme(trimmed) {
        // Browsers ignore case, whitespace and control characters in schemes.
        let lower: String = scheme
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if UNSAFE_SCHEMES.contains(&lower.as_str()) {
            return LinkTarget::Unsafe { scheme: lower };
        }
        return LinkTarget::External;
    }
    if trimmed.starts_with("//") {
        return LinkTarget::External;
    }
    let (path, anchor) = match trimmed.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (trimmed, None),
    };
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    if path.is_empty() {
        return LinkTarget::Page {
            page: from_page,
            anchor,
        };
    }
    let Some(absolute) = absolute_path(path, from) else {
        return LinkTarget::Escapes;
    };
    site_path(&absolute, anchor, ids)
}

/// Makes a relative path absolute against the folder of a file in `from`.
fn absolute_path(path: &str, from: Section) -> Option<String> {
    if path.starts_with('/') {
        return Some(path.to_string());
    }
    let mut segments: Vec<&str> = vec![from.dir()];
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    Some(format!("/{}", segments.join("/")))
}

/// Resolves an absolute site path such as `/clients/cline.md`.
fn site_path(path: &str, anchor: Option<String>, ids: &Ids) -> LinkTarget {
    let clean = path.trim_end_matches('/');
    let clean = clean
        .strip_suffix(".md")
        .or_else(|| clean.strip_suffix(".html"))
        .unwrap_or(clean);
    let segments: Vec<&str> = clean.trim_start_matches('/').split('/').collect();
    let page = |page| LinkTarget::Page {
        page,
        anchor: anchor.clone(),
    };
    match segments.as_slice() {
        [""] | ["index"] => page(Page::Home),
        [SPEC_DIR] => page(Page::SpecIndex),
        [SPEC_DIR, rev] => match ids.spec(rev) {
            Some(i) => page(Page::Spec(i)),
            None => LinkTarget::Missing {
                kind: MissingKind::Spec,
                id: rev.to_string(),
                anchor,
            },
        },
        [dir] if Section::from_dir(dir).is_some() => {
            page(Page::Index(Section::from_dir(dir).expect("checked")))
        }
        [dir, id] if Section::from_dir(dir).is_some() => {
            let section = Section::from_dir(dir).expect("checked");
            match ids.page(section, id) {
                Some(p) => page(p),
                None => LinkTarget::Missing {
                    kind: MissingKind::Section(section),
                    id: id.to_string(),
                    anchor,
                },
            }
        }
        _ => LinkTarget::Static {
            path: path.to_string(),
        },
    }
}
