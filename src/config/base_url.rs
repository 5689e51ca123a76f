//! `baseUrl`: every link on the site is `baseUrl` + a route, so it must be a plain http(s)
//! address (scheme, host, path) and nothing a route could not follow.

use crate::error::{Error, Result};
use std::path::Path;

/// Refuses a `baseUrl` that cannot prefix links, at its position in `site.yaml` (`text`,
/// read from `path`), saying what to write instead.
pub(super) fn check(url: &str, path: &Path, text: &str) -> Result<()> {
    let Some(message) = problem(url) else {
        return Ok(());
    };
    let (line, column) = position(text);
    Err(Error::Config {
        path: path.to_path_buf(),
        line,
        column,
        message,
    })
}

/// What is wrong with `url` as a `baseUrl` and what to write instead; `None` when nothing is.
fn problem(url: &str) -> Option<String> {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        let host = url.split_once("://").map_or(url, |(_, rest)| rest);
        return Some(format!(
            "baseUrl `{url}` is not an http:// or https:// address; write the address the site \
             is served at, such as `https://{host}`"
        ));
    };
    let scheme = &url[..url.len() - rest.len()];
    if url.contains(|c: char| c.is_whitespace() || c.is_control()) {
        let fixed: String = url.split_whitespace().collect::<Vec<_>>().join("%20");
        let fixed: String = fixed.chars().filter(|c| !c.is_control()).collect();
        return Some(format!(
            "baseUrl holds whitespace or a control character, which would break every link; \
             write `{fixed}` (a space in a path as %20)"
        ));
    }
    let authority = &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())];
    if let Some((_, host)) = authority.rsplit_once('@') {
        let after = &rest[authority.len()..];
        return Some(format!(
            "baseUrl `{url}` carries a user name or password (`…@`), which every link would \
             repeat; write `{scheme}{host}{after}`"
        ));
    }
    if authority.is_empty() {
        return Some(format!(
            "baseUrl `{url}` names no host; write the address the site is served at, such as \
             `{scheme}example.org/docs`"
        ));
    }
    if let Some(at) = url.find(['?', '#']) {
        let what = match url.as_bytes()[at] {
            b'?' => "a query (`?…`)",
            _ => "a fragment (`#…`)",
        };
        let fixed = url[..at].trim_end_matches('/');
        return Some(format!(
            "baseUrl `{url}` has {what}, which would end up before every link's path; write \
             `{fixed}` (a site under a path is `https://host/path`)"
        ));
    }
    if url.contains('\\') {
        return Some(format!(
            "baseUrl `{url}` holds a backslash, which browsers read as `/`; write `{}`",
            url.replace('\\', "/")
        ));
    }
    None
}

/// The line and column of `baseUrl`'s value in `site.yaml` (1, 1 when it is not found on a
/// line of its own).
fn position(text: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(value) = line.strip_prefix("baseUrl:") {
            let blank = value.len() - value.trim_start().len();
            let column = "baseUrl:".len() + blank + 1;
            return (i + 1, column);
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_pass() {
        for url in ["https://x.io", "http://x.io/docs", "https://x.io:8080/a/b"] {
            assert_eq!(problem(url), None, "{url}");
        }
    }

    #[test]
    fn each_refusal_says_what_to_write() {
        for (url, write) in [
            ("https://x.io/docs?v=1", "write `https://x.io/docs`"),
            ("https://x.io/#top", "write `https://x.io`"),
            ("https://user:pw@x.io/docs", "write `https://x.io/docs`"),
            ("ftp://x.io", "such as `https://x.io`"),
            (
                "javascript:alert(1)",
                "such as `https://javascript:alert(1)`",
            ),
            ("https://", "names no host"),
            ("https://x.io/a b", "write `https://x.io/a%20b`"),
            (
                "https://x.io\\evil.example",
                "write `https://x.io/evil.example`",
            ),
        ] {
            let message = problem(url).unwrap_or_default();
            assert!(message.contains(write), "{url}: {message}");
        }
    }

    #[test]
    fn the_error_points_at_the_value() {
        let text = "title: T\nbaseUrl:   https://x.io/?a=1\n";
        match check("https://x.io/?a=1", Path::new("site.yaml"), text) {
            Err(Error::Config { line, column, .. }) => assert_eq!((line, column), (2, 12)),
            other => panic!("expected a config error, got {other:?}"),
        }
    }
}
