//! URL safety: which URLs a page may link to. Only http, https, mailto and relative URLs
//! survive into `href` and `src`; anything else (`javascript:`, `data:`, entity tricks) is
//! dropped where the view is built, so no template can receive it.

use crate::index::links;

/// Only http, https and mailto links to other sites survive into pages (and `//host` links,
/// which browsers read as the page's own scheme).
pub fn is_allowed_external(dest: &str) -> bool {
    let dest = dest.trim_start();
    dest.starts_with("//")
        || links::scheme(dest).is_some_and(|s| {
            ["http", "https", "mailto"]
                .iter()
                .any(|allowed| s.eq_ignore_ascii_case(allowed))
        })
}

/// `url` if a page may link to it, else `None` (the template then leaves the link out): only
/// http, https and mailto URLs (see [`is_allowed_external`]) and relative ones survive. A
/// URL is relative when no scheme can hide before its first `/`, `?` or `#`: no `:` there
/// (whatever whitespace or control characters a browser would drop around it, as in
/// `java\tscript:`) and no `&` (an entity such as `&#58;`). Every URL-valued field of a
/// view passes through here when the view is built.
pub fn safe_href(url: &str) -> Option<&str> {
    let trimmed = url.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    let head = &trimmed[..trimmed.find(['/', '?', '#']).unwrap_or(trimmed.len())];
    let relative = !head.contains([':', '&']);
    (!trimmed.is_empty() && (relative || is_allowed_external(trimmed))).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::{is_allowed_external, safe_href};

    #[test]
    fn only_web_and_mail_links_leave_the_site() {
        for ok in ["https://x.io", "HTTP://x.io", "mailto:a@b.c", "//x.io/a"] {
            assert!(is_allowed_external(ok), "{ok}");
        }
        for bad in [
            "ftp://x",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "tel:123",
        ] {
            assert!(!is_allowed_external(bad), "{bad}");
        }
    }

    #[test]
    fn only_safe_urls_become_links() {
        for ok in [
            "https://x.io/a?b#c",
            " http://x.io ",
            "mailto:a@b.c",
            "//x.io",
            "/research/a.html",
            "a/b:c",
            "page?x=1&y=2:3",
            "my notes.html",
            "#top",
        ] {
            assert_eq!(safe_href(ok), Some(ok), "{ok}");
        }
        for bad in [
            "",
            " \t",
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "\u{1}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "jav&#x09;ascript:alert(1)",
            "&#106;avascript:alert(1)",
            "javascript&#58;alert(1)",
            "javascript&colon;alert(1)",
            "vbscript:msgbox(1)",
            "data:text/html,<script>alert(1)</script>",
            "ftp://x.io",
        ] {
            assert_eq!(safe_href(bad), None, "{bad:?}");
        }
    }
}
