//! What a source pins: the repository its `url` names, and its `path` written back from the
//! file and line ranges the parse step read it into ([`crate::model::SourcePath`]).

pub use crate::model::LineRange;

/// `file:3-5,9` from a file and its ranges (just `file` when there are none).
pub fn format_path(file: &str, ranges: &[LineRange]) -> String {
    let ranges: Vec<String> = ranges.iter().map(ToString::to_string).collect();
    match ranges.is_empty() {
        true => file.to_string(),
        false => format!("{file}:{}", ranges.join(",")),
    }
}

/// The repository a source URL names, as the key its clone is cached under: for GitHub
/// (`https://github.com/o/r/blob/…` → `https://github.com/o/r`) and GitLab (everything before
/// `/-/`) the repository itself, lower-cased (both match owner and repository without case:
/// `Owner/Repo` and `owner/repo` are one repository, one clone); for any other URL the URL
/// without query, fragment, trailing `/` or `.git`. Hosts are lower-cased. A user name and
/// password (`https://user:token@host/…`) are dropped: they are never part of the key, the
/// cache folder's name, a message, or git's command line. `None` for a URL that is not
/// http(s).
pub fn repository_url(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_credentials, host)| host);
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host.is_empty() {
        return None;
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let forge = host == "github.com" || host == "gitlab.com" || host.starts_with("gitlab.");
    let keep = if host == "github.com" {
        segments.len().min(2)
    } else if forge {
        segments
            .iter()
            .position(|s| *s == "-")
            .unwrap_or(segments.len())
    } else {
        segments.len()
    };
    let joined = segments[..keep].join("/");
    let joined = match forge {
        true => joined.to_ascii_lowercase(),
        false => joined,
    };
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
        LineRange::new(start, end).expect("a range")
    }

    #[test]
    fn paths_are_written_back() {
        assert_eq!(format_path("a.py", &[r(3, 5), r(9, 9)]), "a.py:3-5,9");
        assert_eq!(format_path("a.py", &[]), "a.py");
    }

    #[test]
    fn ranges_move_and_measure() {
        assert_eq!(r(5, 8).starting_at(8), r(8, 11));
        assert_eq!(r(5, 8).count(), 4);
        assert_eq!(LineRange::new(8, 5), None);
        assert_eq!(LineRange::new(0, 5), None);
    }

    #[test]
    fn repository_urls_name_the_repository() {
        let cases = [
            (
                "https://github.com/NousResearch/hermes-agent",
                "https://github.com/nousresearch/hermes-agent",
            ),
            (
                "https://github.com/nousresearch/Hermes-Agent/tree/main",
                "https://github.com/nousresearch/hermes-agent",
            ),
            (
                "https://www.GitHub.com/o/r.git/blob/main/a.py#L3",
                "https://github.com/o/r",
            ),
            (
                "https://gitlab.com/G/sub/R/-/blob/abc/x.go",
                "https://gitlab.com/g/sub/r",
            ),
            (
                "https://git.test/Acme/Widget",
                "https://git.test/Acme/Widget",
            ),
            (
                "https://git.test/acme/widget/",
                "https://git.test/acme/widget",
            ),
            (
                "https://codeberg.org/a/b.git?x=1",
                "https://codeberg.org/a/b",
            ),
            (
                "https://user:s3cret@git.test/acme/widget",
                "https://git.test/acme/widget",
            ),
            (
                "https://ghp_token@GitHub.com/o/r/blob/main/a.py",
                "https://github.com/o/r",
            ),
            ("http://git.test/a/b", "http://git.test/a/b"),
        ];
        for (url, repo) in cases {
            assert_eq!(repository_url(url).as_deref(), Some(repo), "{url}");
        }
        assert_eq!(repository_url("file:///tmp/r"), None);
        assert_eq!(repository_url("not a url"), None);
    }
}
