//! Request paths: decoded, checked for traversal, and matched to a file of the built site.

use std::collections::BTreeMap;

/// Why a request path is refused (answered with 400).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPath {
    pub reason: &'static str,
}

/// The file a request path names, relative to the site's root (`research/x`, `` for `/`):
/// percent-decoded, without query or fragment. Refuses `..` and `.` segments (plain or
/// percent-encoded), encoded separators (`%2f`, `%5c`), backslashes, NUL and other control
/// characters, and bytes that do not decode to UTF-8.
pub fn clean(target: &str) -> Result<String, BadPath> {
    let bad = |reason| Err(BadPath { reason });
    let path = target.split(['?', '#']).next().unwrap_or("");
    let Some(path) = path.strip_prefix('/') else {
        return bad("the path does not start with /");
    };
    if path.contains('\\') {
        return bad("the path holds a backslash");
    }
    let lower = path.to_ascii_lowercase();
    if ["%2f", "%5c", "%00"].iter().any(|e| lower.contains(e)) {
        return bad("the path holds an encoded separator or NUL");
    }
    let Some(decoded) = percent_decode(path) else {
        return bad("the path is not valid percent-encoded UTF-8");
    };
    if decoded.chars().any(|c| c.is_control() || c == '\\') {
        return bad("the path holds a control character or backslash");
    }
    let decoded = decoded.strip_suffix('/').unwrap_or(&decoded);
    if decoded.is_empty() {
        return Ok(String::new());
    }
    if decoded
        .split('/')
        .any(|segment| matches!(segment, "" | "." | ".."))
    {
        return bad("the path has an empty, `.` or `..` segment");
    }
    Ok(decoded.to_string())
}

/// `%XX` escapes decoded; `None` when an escape is malformed or the result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The output file a cleaned path is served from: `index.html` for the root, the file itself
/// when it exists (`research/x.md`, `style.css`), else the extensionless page
/// (`research/x` → `research/x.html`, or `research/x/index.html` with `urls: directory`).
pub fn resolve<'a, V>(files: &'a BTreeMap<String, V>, path: &str) -> Option<(&'a str, &'a V)> {
    let candidates = match path {
        "" => vec!["index.html".to_string()],
        _ => vec![
            path.to_string(),
            format!("{path}.html"),
            format!("{path}/index.html"),
        ],
    };
    candidates
        .iter()
        .find_map(|c| files.get_key_value(c.as_str()))
        .map(|(k, v)| (k.as_str(), v))
}

/// The Content-Type of an output file, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    match extension.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "xml" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_is_refused() {
        for bad in [
            "/../site.yaml",
            "/%2e%2e/site.yaml",
            "/%2E%2E/site.yaml",
            "/..%2fsite.yaml",
            "/research\\..\\x",
            "/research/%5c..",
            "/%00",
            "/a//b",
            "/./a",
            "/a/%2e",
            "/%ff",
            "/%zz",
            "relative",
        ] {
            assert!(clean(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn plain_paths_are_decoded() {
        assert_eq!(clean("/").as_deref(), Ok(""));
        assert_eq!(clean("/research/x?y=1").as_deref(), Ok("research/x"));
        assert_eq!(clean("/research/").as_deref(), Ok("research"));
        assert_eq!(clean("/a%20b.md").as_deref(), Ok("a b.md"));
    }

    #[test]
    fn routes_find_their_files() {
        let files: BTreeMap<String, u8> = ["index.html", "research/x.html", "research/x.md"]
            .into_iter()
            .map(|f| (f.to_string(), 0))
            .collect();
        assert_eq!(resolve(&files, "").map(|r| r.0), Some("index.html"));
        assert_eq!(
            resolve(&files, "research/x").map(|r| r.0),
            Some("research/x.html")
        );
        assert_eq!(
            resolve(&files, "research/x.md").map(|r| r.0),
            Some("research/x.md")
        );
        assert!(resolve(&files, "research/y").is_none());
    }

    #[test]
    fn folder_pages_find_their_index() {
        let files: BTreeMap<String, u8> = ["index.html", "research/x/index.html", "research/x.md"]
            .into_iter()
            .map(|f| (f.to_string(), 0))
            .collect();
        for path in ["research/x", "research/x/"] {
            let cleaned = clean(&format!("/{path}")).expect("clean");
            assert_eq!(
                resolve(&files, &cleaned).map(|r| r.0),
                Some("research/x/index.html")
            );
        }
    }
}
