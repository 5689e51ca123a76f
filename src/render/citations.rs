//! Cited sources (a note's or a support cell's `sources`) as links pinned to a commit and line
//! ranges (`…/blob/<commit>/<file>#L3-L5`).

use super::outside::{cut_line, Shown};
use super::views::safe_href;
use super::{escape, highlight};
use crate::model::{text, LineRange, SourceRef};
use crate::provenance::excerpt::{Excerpt, Excerpts};
use crate::provenance::status::StatusState;
use serde::Serialize;

/// A source as templates see it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceView<'a> {
    /// The source's title, or its URL when it has none.
    pub title: &'a str,
    /// The file at the pinned commit when it can be pinned, else the URL as written; `None`
    /// when that is not a URL a page may link to (see [`safe_href`]).
    pub href: Option<String>,
    /// The URL as the author wrote it, when a page may link to it.
    pub url: Option<&'a str>,
    /// The file part of `path` (`tools/x.py` of `tools/x.py:3-5`).
    pub file: Option<&'a str>,
    /// One link per line range of `path`, pinned to the commit.
    pub ranges: Vec<RangeLink>,
    pub commit: Option<&'a str>,
    /// The commit's first seven characters.
    pub short_commit: Option<&'a str>,
    pub date: Option<&'a str>,
    /// A page without a commit: the sentence relied on, verbatim, shown beside the link.
    pub quote: Option<&'a str>,
    /// A page without a commit: the day it was read.
    pub retrieved: Option<&'a str>,
    /// Whether `href` points at the pinned commit (a forge we know how to link into).
    pub pinned: bool,
    /// The pinned lines, read from the repository (`build --excerpts`).
    pub excerpt: Option<ExcerptView>,
    /// Whether the pin holds, when the build knows (`build --sources REPORT.json` or
    /// `--excerpts`).
    pub status: Option<StatusView>,
}

/// A source's status as templates see it.
#[derive(Debug, Clone, Serialize)]
pub struct StatusView {
    /// `verified`, `unchanged`, `moved`, `changed`, `gone`, `broken` or `unchecked`.
    pub state: StatusState,
    /// What the reader is told (`moved: now src/b.py:8-11 on main (1b2c3d4)`).
    pub label: String,
    /// False when the source could not be checked: it must not look like a checked one.
    pub checked: bool,
}

/// The pinned lines of a source, highlighted, one block per line range.
#[derive(Debug, Clone, Serialize)]
pub struct ExcerptView {
    /// The highlighter's token for the language (the file's extension), cut to the letters,
    /// digits and `+-_.#` such tokens are made of: it follows a code fence in the `.md`.
    pub language: String,
    /// Cut at the excerpt limit (lines, a line's bytes, the page's share of outside text:
    /// [`super::outside`]); the rest is behind the source link.
    pub truncated: bool,
    pub blocks: Vec<ExcerptBlockView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExcerptBlockView {
    pub start: usize,
    /// The line numbers, one a line, for the gutter.
    pub numbers: String,
    /// The lines as highlighted HTML (`<pre><code>`).
    pub html: String,
    /// The lines as text (for the Markdown rendition).
    pub text: String,
    /// A code fence longer than any run of backticks in `text`.
    pub fence: String,
}

impl ExcerptView {
    /// The view of `excerpt`, its blocks highlighted when at most `max_highlight` bytes long.
    /// Its lines come from a repository nobody vetted: each is cut at
    /// [`super::outside::LINE_BYTES`], the excerpt is shown only while the page has room for
    /// it (`shown`), and every character that could hide or break text is made visible once
    /// here, for the page and the `.md` alike ([`escape::visible_controls`]).
    pub fn new(excerpt: &Excerpt, max_highlight: usize, shown: &Shown) -> ExcerptView {
        let mut cut = false;
        let blocks: Vec<Vec<&str>> = (excerpt.blocks.iter())
            .map(|block| {
                (block.lines.iter())
                    .map(|l| {
                        let (kept, left_out) = cut_line(&l.text);
                        cut |= left_out > 0;
                        kept
                    })
                    .collect()
            })
            .collect();
        let bytes: usize = blocks.iter().flatten().map(|l| l.len() + 1).sum();
        let room = shown.take(bytes);
        let blocks = (excerpt.blocks.iter().zip(&blocks))
            .filter(|_| room)
            .map(|(block, lines)| {
                let numbers: Vec<String> =
                    block.lines.iter().map(|l| l.number.to_string()).collect();
                let text = escape::visible_controls(&lines.join("\n")).into_owned();
                let longest = longest_backtick_run(&text);
                let html = highlight::code_block(&excerpt.language, &text, max_highlight);
                shown.spend(html.len());
                ExcerptBlockView {
                    start: block.start,
                    numbers: numbers.join("\n"),
                    html,
                    fence: "`".repeat((longest + 1).max(3)),
                    text,
                }
            })
            .collect();
        ExcerptView {
            language: excerpt
                .language
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || "+-_.#".contains(*c))
                .collect(),
            truncated: excerpt.truncated || cut || !room,
            blocks,
        }
    }
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// The view of one source, with its excerpt and status when the build has them; once its
/// commit resolved, its links name the commit's full hash.
/// `max_highlight`: `limits.maxHighlightBytes`.
/// `shown`: what the page may still show of outside text.
pub fn source_view_with<'a>(
    source: &'a SourceRef,
    excerpts: Option<&Excerpts>,
    max_highlight: usize,
    shown: &Shown,
) -> SourceView<'a> {
    let mut view = source_view(source);
    view.excerpt =
        (excerpts.and_then(|e| e.get(source))).map(|e| ExcerptView::new(e, max_highlight, shown));
    if let Some(status) = excerpts.and_then(|e| e.status(source)) {
        if let Some(full) = &status.commit {
            let (href, ranges, _) = links(source, Some(full));
            view.href = safe_href(&href).is_some().then_some(href);
            view.ranges = ranges;
        }
        view.status = Some(StatusView {
            state: status.state,
            label: status.label.clone(),
            checked: status.checked(),
        });
    }
    view
}

/// A link to one line range of a pinned file.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RangeLink {
    /// `L3-L5` or `L12`.
    pub label: String,
    pub href: String,
}

/// The code forges whose file URLs fieldnotes knows how to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forge {
    GitHub,
    GitLab,
}

/// The view of one source.
pub fn source_view(source: &SourceRef) -> SourceView<'_> {
    let url = text(&source.url);
    let commit = Some(text(&source.commit)).filter(|c| !c.is_empty());
    // A path that cannot be read (FN403) pins nothing but the commit.
    let file = match &source.location {
        Some(Ok(path)) => Some(path.file.as_str()),
        _ => None,
    };
    let title = match text(&source.title) {
        "" => url,
        title => title,
    };
    let (href, ranges, pinned) = links(source, None);
    SourceView {
        title,
        href: safe_href(&href).is_some().then_some(href),
        url: safe_href(url),
        file,
        ranges,
        commit,
        short_commit: commit.map(|c| c.get(..7).unwrap_or(c)),
        date: Some(text(&source.date)).filter(|d| !d.is_empty()),
        quote: Some(text(&source.quote).trim()).filter(|q| !q.is_empty()),
        retrieved: Some(text(&source.retrieved)).filter(|d| !d.is_empty()),
        pinned,
        excerpt: None,
        status: None,
    }
}

/// The link of a source and one per line range, at `commit` (else the commit as written),
/// and whether they are pinned (into a forge fieldnotes knows how to link into). A source
/// its `/blob/` URL alone pins is linked as written until its commit resolves.
fn links(source: &SourceRef, commit: Option<&str>) -> (String, Vec<RangeLink>, bool) {
    let url = text(&source.url);
    let written = Some(text(&source.commit)).filter(|c| !c.is_empty());
    let (file, lines) = match (&source.location, written, &source.url_pin) {
        (Some(Ok(path)), _, _) => (Some(path.file.as_str()), &path.lines[..]),
        (_, None, Some(pin)) if commit.is_some() => {
            (Some(pin.path.file.as_str()), &pin.path.lines[..])
        }
        _ => (None, &[][..]),
    };
    let pinned = written.is_some() || (commit.is_some() && file.is_some());
    match (repository(url), commit.or(written)) {
        (Some((forge, base)), Some(commit)) if pinned => {
            let ranges = match file {
                Some(file) => lines
                    .iter()
                    .map(|&l| RangeLink {
                        label: label(l),
                        href: format!("{}#{}", blob(forge, &base, commit, file), anchor(l, forge)),
                    })
                    .collect(),
                None => Vec::new(),
            };
            let href = match file {
                Some(file) => blob(forge, &base, commit, file),
                None => tree(forge, &base, commit),
            };
            (href, ranges, true)
        }
        _ => (url.to_string(), Vec::new(), false),
    }
}

/// `L3-L5` or `L12`.
fn label(lines: LineRange) -> String {
    if lines.start() == lines.end() {
        format!("L{}", lines.start())
    } else {
        format!("L{}-L{}", lines.start(), lines.end())
    }
}

/// The fragment a forge highlights the lines with.
fn anchor(lines: LineRange, forge: Forge) -> String {
    let (start, end) = (lines.start(), lines.end());
    match (forge, start == end) {
        (_, true) => format!("L{start}"),
        (Forge::GitHub, false) => format!("L{start}-L{end}"),
        (Forge::GitLab, false) => format!("L{start}-{end}"),
    }
}

/// The forge and repository base URL (`https://github.com/o/r`) of a repository URL.
fn repository(url: &str) -> Option<(Forge, String)> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let rest = rest.split(['?', '#']).next()?;
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let repo = |segments: &[&str]| {
        let joined = segments.join("/");
        format!(
            "https://{host}/{}",
            joined.strip_suffix(".git").unwrap_or(&joined)
        )
    };
    if host == "github.com" || host == "www.github.com" {
        (segments.len() >= 2).then(|| (Forge::GitHub, repo(&segments[..2])))
    } else if host == "gitlab.com" || host.starts_with("gitlab.") {
        // GitLab nests groups: the repository is everything before `/-/`.
        let end = segments
            .iter()
            .position(|s| *s == "-")
            .unwrap_or(segments.len());
        (end >= 2).then(|| (Forge::GitLab, repo(&segments[..end])))
    } else {
        None
    }
}

fn blob(forge: Forge, base: &str, commit: &str, file: &str) -> String {
    let file = encode_path(file.trim_start_matches('/'));
    match forge {
        Forge::GitHub => format!("{base}/blob/{commit}/{file}"),
        Forge::GitLab => format!("{base}/-/blob/{commit}/{file}"),
    }
}

fn tree(forge: Forge, base: &str, commit: &str) -> String {
    match forge {
        Forge::GitHub => format!("{base}/tree/{commit}"),
        Forge::GitLab => format!("{base}/-/tree/{commit}"),
    }
}

/// Percent-encodes what may not stand in a URL path as is.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            '%' => out.push_str("%25"),
            '"' => out.push_str("%22"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Spanned;
    use crate::text_file::Span;

    fn source(url: &str, commit: &str, path: &str) -> SourceRef {
        let s =
            |v: &str| Some(Spanned::new(v.to_string(), Span::default())).filter(|_| !v.is_empty());
        SourceRef {
            span: Span::default(),
            url: s(url),
            title: s("t"),
            commit: s(commit),
            location: s(path).map(|p| crate::parse::source_path::source_path(&p, path)),
            path: s(path),
            date: s("2026-01-02"),
            quote: None,
            retrieved: None,
            pin: None,
            url_pin: None,
        }
    }

    fn hrefs<'a>(view: &'a SourceView<'a>) -> Vec<&'a str> {
        view.ranges.iter().map(|r| r.href.as_str()).collect()
    }

    #[test]
    fn github_ranges_get_one_link_each() {
        let s = source(
            "https://github.com/o/r",
            "9dcf7714",
            "a/b.py:532-560,600-668",
        );
        let v = source_view(&s);
        assert_eq!(
            v.href.as_deref(),
            Some("https://github.com/o/r/blob/9dcf7714/a/b.py")
        );
        assert_eq!(
            hrefs(&v),
            [
                "https://github.com/o/r/blob/9dcf7714/a/b.py#L532-L560",
                "https://github.com/o/r/blob/9dcf7714/a/b.py#L600-L668"
            ]
        );
        assert_eq!(v.short_commit, Some("9dcf771"));
    }

    #[test]
    fn single_line_and_whole_file() {
        let s = source("https://github.com/o/r.git/", "0123abc", "x.rs:12");
        let v = source_view(&s);
        assert_eq!(hrefs(&v), ["https://github.com/o/r/blob/0123abc/x.rs#L12"]);
        let s = source("https://github.com/o/r", "0123abc", "x.rs");
        let v = source_view(&s);
        assert!(v.ranges.is_empty());
        assert_eq!(
            v.href.as_deref(),
            Some("https://github.com/o/r/blob/0123abc/x.rs")
        );
    }

    #[test]
    fn a_path_that_cannot_be_read_pins_the_commit_alone() {
        for path in ["x.rs:20-10", "x.rs:L12", "x.rs:0-3", "x.rs:"] {
            let s = source("https://github.com/o/r", "0123abc", path);
            let v = source_view(&s);
            assert!(v.ranges.is_empty() && v.file.is_none(), "{path}");
            assert_eq!(
                v.href.as_deref(),
                Some("https://github.com/o/r/tree/0123abc"),
                "{path}"
            );
        }
    }

    #[test]
    fn gitlab_uses_its_own_shapes() {
        let s = source("https://gitlab.com/g/sub/r", "0123abc", "src/a.go:3-5");
        let v = source_view(&s);
        assert_eq!(
            hrefs(&v),
            ["https://gitlab.com/g/sub/r/-/blob/0123abc/src/a.go#L3-5"]
        );
    }

    #[test]
    fn other_urls_and_unpinned_sources_link_as_written() {
        let s = source("https://docs.example/x", "0123abc", "a.py:1-2");
        let v = source_view(&s);
        assert_eq!(v.href.as_deref(), Some("https://docs.example/x"));
        assert!(v.ranges.is_empty() && !v.pinned);
        let s = source("https://github.com/o/r", "", "a.py:1-2");
        let v = source_view(&s);
        assert_eq!(v.href.as_deref(), Some("https://github.com/o/r"));
        let s = source("https://github.com/o/r", "0123abc", "");
        let v = source_view(&s);
        assert_eq!(
            v.href.as_deref(),
            Some("https://github.com/o/r/tree/0123abc")
        );
    }

    #[test]
    fn a_resolved_commit_links_by_its_full_hash_and_the_status_shows() {
        use crate::provenance::status::{Status, Statuses};
        let full = "9dcf7714b2b5b9e2e8f3a1c6d4e5f60718293a4b";
        let s = source("https://github.com/o/r", "9dcf771", "a/b.py:3-5");
        let mut statuses = Statuses::default();
        statuses.insert(
            s.span,
            Status {
                state: StatusState::Moved,
                label: "moved: now a/c.py:4-6 on main (1b2c3d4)".to_string(),
                commit: Some(full.to_string()),
            },
        );
        let mut excerpts = Excerpts::default();
        excerpts.statuses = Some(statuses);
        let v = source_view_with(&s, Some(&excerpts), usize::MAX, &Shown::default());
        assert_eq!(
            hrefs(&v),
            [format!("https://github.com/o/r/blob/{full}/a/b.py#L3-L5")]
        );
        assert_eq!(v.short_commit, Some("9dcf771"));
        let status = v.status.expect("a status");
        assert!(status.checked && status.label.starts_with("moved: "));
        // A source its URL alone pins links at the full hash too, file and lines its URL's.
        let mut by_url = source("https://github.com/o/r/blob/9dcf771/x.rs#L2-L4", "", "");
        by_url.url_pin = by_url.url.as_ref().and_then(crate::parse::url_pin::url_pin);
        let (href, ranges, pinned) = links(&by_url, Some(full));
        assert_eq!(href, format!("https://github.com/o/r/blob/{full}/x.rs"));
        assert_eq!(ranges[0].label, "L2-L4");
        assert!(pinned);
        let (href, _, _) = links(&by_url, None);
        assert_eq!(href, "https://github.com/o/r/blob/9dcf771/x.rs#L2-L4");
    }

    #[test]
    fn script_urls_link_nowhere() {
        for url in [
            "javascript:alert(1)",
            " data:text/html,x",
            "java\tscript:alert(1)",
        ] {
            let s = source(url, "0123abc", "a.py:1");
            let v = source_view(&s);
            assert_eq!((v.href, v.url), (None, None), "{url:?}");
            assert!(v.ranges.is_empty());
        }
    }
}
