//! What a source pins: the repository its `url` names, and the file and line ranges of its
//! `path` (`file`, `file:L`, `file:L-L`, `file:L-L,L-L`).
//!
//! [`split_path`] reads a path the way `render/sources.rs` links it (a path whose last `:` is
//! not followed by a range list is all file), so that the lines checked, compared and shown
//! are the lines the page links to.

use serde::Serialize;
use std::fmt;

/// A 1-based line range, `start..=end` (equal for a single line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LineRange {
    pub start: usize,
    pub end: usize,
}

impl LineRange {
    /// How many lines the range spans (0 when it runs backwards).
    pub fn len(self) -> usize {
        (self.end + 1).saturating_sub(self.start)
    }

    /// Whether the range spans no line (it runs backwards).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The range moved so that it starts at `start`.
    pub fn starting_at(self, start: usize) -> LineRange {
        LineRange {
            start,
            end: start + self.len().saturating_sub(1),
        }
    }
}

/// `3` or `3-5`, as in a source path.
impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == self.end {
            write!(f, "{}", self.start)
        } else {
            write!(f, "{}-{}", self.start, self.end)
        }
    }
}

/// `file:3-5,9` from a file and its ranges (just `file` when there are none).
pub fn format_path(file: &str, ranges: &[LineRange]) -> String {
    let ranges: Vec<String> = ranges.iter().map(ToString::to_string).collect();
    match ranges.is_empty() {
        true => file.to_string(),
        false => format!("{file}:{}", ranges.join(",")),
    }
}

/// Splits `file:3-5,9-12` into the file and its line ranges. A path whose last `:` is not
/// followed by a valid range list is all file. An `L` before a number is allowed (`file:L3`).
pub fn split_path(path: &str) -> (&str, Vec<LineRange>) {
    let path = path.trim();
    if let Some((file, spec)) = path.rsplit_once(':') {
        let ranges: Option<Vec<LineRange>> =
            spec.split(',').map(|r| parse_range(r.trim())).collect();
        if let Some(ranges) = ranges {
            return (file, ranges);
        }
    }
    (path, Vec::new())
}

fn parse_range(range: &str) -> Option<LineRange> {
    let number = |s: &str| -> Option<usize> {
        let s = s.trim().trim_start_matches(['L', 'l']);
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    match range.split_once('-') {
        Some((a, b)) => Some(LineRange {
            start: number(a)?,
            end: number(b)?,
        }),
        None => number(range).map(|n| LineRange { start: n, end: n }),
    }
}

/// The repository a source URL names, as the key its clone is cached under: for GitHub
/// (`https://github.com/o/r/blob/…` → `https://github.com/o/r`) and GitLab (everything before
/// `/-/`) the repository itself; for any other URL the URL without query, fragment, trailing
/// `/` or `.git`. Hosts are lower-cased. `None` for a URL that is not http(s).
pub fn repository_url(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host.is_empty() {
        return None;
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let keep = if host == "github.com" {
        segments.len().min(2)
    } else if host == "gitlab.com" || host.starts_with("gitlab.") {
        segments
            .iter()
            .position(|s| *s == "-")
            .unwrap_or(segments.len())
    } else {
        segments.len()
    };
    let joined = segments[..keep].join("/");
    let joined = joined.strip_suffix(".git").unwrap_or(&joined);
    Some(match joined.is_empty() {
        true => format!("{scheme}://{host}"),
        false => format!("{scheme}://{host}/{joined}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: usize, end: usize) -> LineRange {
        LineRange { start, end }
    }

    #[test]
    fn paths_split_like_the_links_render_builds() {
        assert_eq!(
            split_path("a/b.py:532-560,600-668"),
            ("a/b.py", vec![r(532, 560), r(600, 668)])
        );
        assert_eq!(split_path("x.rs:L12"), ("x.rs", vec![r(12, 12)]));
        assert_eq!(split_path("x.rs"), ("x.rs", vec![]));
        assert_eq!(split_path("c:/x.rs"), ("c:/x.rs", vec![]));
        assert_eq!(format_path("a.py", &[r(3, 5), r(9, 9)]), "a.py:3-5,9");
    }

    #[test]
    fn ranges_move_and_measure() {
        assert_eq!(r(5, 8).starting_at(8), r(8, 11));
        assert_eq!(r(5, 8).len(), 4);
        assert!(r(8, 5).is_empty());
    }

    #[test]
    fn repository_urls_name_the_repository() {
        let cases = [
            (
                "https://github.com/NousResearch/hermes-agent",
                "https://github.com/NousResearch/hermes-agent",
            ),
            (
                "https://www.GitHub.com/o/r.git/blob/main/a.py#L3",
                "https://github.com/o/r",
            ),
            (
                "https://gitlab.com/g/sub/r/-/blob/abc/x.go",
                "https://gitlab.com/g/sub/r",
            ),
            (
                "https://git.test/acme/widget/",
                "https://git.test/acme/widget",
            ),
            (
                "https://codeberg.org/a/b.git?x=1",
                "https://codeberg.org/a/b",
            ),
        ];
        for (url, repo) in cases {
            assert_eq!(repository_url(url).as_deref(), Some(repo), "{url}");
        }
        assert_eq!(repository_url("file:///tmp/r"), None);
        assert_eq!(repository_url("not a url"), None);
    }
}
