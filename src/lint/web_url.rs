//! Whether a URL that becomes a link on the site (a source's `url`, a client's `homepage`) is an
//! absolute http or https one.

/// What is wrong with a URL that must be an absolute http or https one (a source's, a
/// client's homepage): "uses the `javascript:` scheme", "is not an absolute URL", or `None`.
pub fn problem(url: &str) -> Option<String> {
    match crate::index::links::scheme(url.trim()) {
        Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => None,
        Some(s) => Some(format!("uses the `{s}:` scheme")),
        None => Some("is not an absolute URL".to_string()),
    }
}
