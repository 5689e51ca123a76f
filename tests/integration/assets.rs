//! Tests: the theme's stylesheets and scripts are published under content-hashed names, every
//! page names the hashed file (which exists), a changed stylesheet changes its name, and two
//! builds are byte for byte the same.

use crate::support::{files_under, TestSite};
use std::collections::BTreeMap;
use std::path::Path;

/// Whether `name` (a file name) carries a content hash: `<stem>.<8 hex>.<css|js>`.
fn is_hashed(name: &str) -> bool {
    let mut parts = name.rsplit('.');
    let (ext, hash) = (parts.next(), parts.next());
    matches!(ext, Some("css" | "js"))
        && hash.is_some_and(|h| h.len() == 8 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        && parts.next().is_some()
}

/// Every value of `attr="…"` in `html`.
fn attributes<'h>(html: &'h str, attr: &str) -> Vec<&'h str> {
    let pattern = format!(" {attr}=\"");
    html.match_indices(&pattern)
        .filter_map(|(at, _)| {
            let rest = &html[at + pattern.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// `reference`, made on the page at `page` (both `/`-separated, inside the output), as a
/// path inside the output; `None` for another site's address.
fn resolve(page: &str, reference: &str) -> Option<String> {
    if reference.contains("://") || reference.starts_with("//") {
        return None;
    }
    let reference = reference.split(['?', '#']).next().unwrap_or(reference);
    let mut parts: Vec<&str> = match reference.strip_prefix('/') {
        Some(_) => Vec::new(),
        None => page.split('/').collect(),
    };
    if reference.starts_with('/') {
        parts.clear();
    } else {
        parts.pop();
    }
    for part in reference.trim_start_matches('/').split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Asserts every stylesheet and script each page of `files` names is a hashed file the
/// build wrote, and that no unhashed stylesheet or script of the theme is published; returns
/// how many references it checked.
pub fn assert_asset_references_resolve(files: &BTreeMap<String, Vec<u8>>) -> usize {
    let mut checked = 0;
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        for reference in attributes(&html, "href")
            .into_iter()
            .chain(attributes(&html, "src"))
        {
            let plain = reference.split(['?', '#']).next().unwrap_or(reference);
            if !(plain.ends_with(".css") || plain.ends_with(".js")) {
                continue;
            }
            let Some(target) = resolve(path, reference) else {
                continue;
            };
            let name = target.rsplit('/').next().unwrap_or(&target);
            assert!(
                is_hashed(name),
                "{path} names {reference}, which has no hash"
            );
            assert!(
                files.contains_key(&target),
                "{path} names {reference}, but the build wrote no {target}"
            );
            checked += 1;
        }
    }
    for theme_file in ["style.css", "site.js", "matrix.js", "ask.js", "print.css"] {
        assert!(
            !files.contains_key(theme_file),
            "{theme_file} published unhashed"
        );
    }
    checked
}

/// The hashed name the build of `site` published the theme's `stem.ext` under.
pub fn hashed(site: &TestSite, stem: &str, ext: &str) -> String {
    published(&files_under(&site.out()), stem, ext).to_string()
}

/// The hashed name `files` publishes `stem.ext` under.
fn published<'f>(files: &'f BTreeMap<String, Vec<u8>>, stem: &str, ext: &str) -> &'f str {
    let found = files.keys().find(|p| {
        p.strip_prefix(&format!("{stem}."))
            .and_then(|rest| rest.strip_suffix(&format!(".{ext}")))
            .is_some_and(|hash| hash.len() == 8)
    });
    found
        .map(String::as_str)
        .unwrap_or_else(|| panic!("no hashed {stem}.{ext}"))
}

#[test]
fn pages_name_hashed_assets_that_exist_and_a_changed_stylesheet_changes_its_name() {
    let site = TestSite::fixture("basic");
    site.build();
    let first = files_under(&site.out());
    assert!(assert_asset_references_resolve(&first) > 0);
    let css = published(&first, "style", "css").to_string();
    let home = String::from_utf8_lossy(&first["index.html"]).into_owned();
    assert!(
        home.contains(&format!(r#"<link rel="stylesheet" href="{css}">"#)),
        "{home}"
    );
    // The same inputs, the same bytes.
    site.build();
    assert_eq!(
        files_under(&site.out()),
        first,
        "a second build is byte for byte the same"
    );
    // A site's own style.css replaces the theme's and takes a hashed name of its own.
    site.write("static/style.css", "body { color: rebeccapurple; }\n");
    site.build();
    let second = files_under(&site.out());
    assert_asset_references_resolve(&second);
    let changed = published(&second, "style", "css");
    assert_ne!(changed, css, "a changed stylesheet gets a new name");
    assert!(second[changed].starts_with(b"body { color: rebeccapurple; }\n"));
    let note = String::from_utf8_lossy(&second["research/alpha-defaults-to-sse.html"]).into_owned();
    assert!(note.contains(&format!(r#"href="../{changed}""#)), "{note}");
    // A site's own script that replaces none of the theme's keeps its name.
    site.write("static/mine.js", "1;\n");
    site.build();
    assert!(files_under(&site.out()).contains_key("mine.js"));
}

#[test]
fn a_static_file_at_a_hashed_name_stops_the_build_naming_both() {
    let site = TestSite::fixture("basic");
    site.build();
    let files = files_under(&site.out());
    let css = published(&files, "style", "css").to_string();
    site.write(&format!("static/{css}"), "mine");
    // Lint says so first (FN012), for this hash and any other.
    site.write("static/site.0123abcd.js", "mine");
    let findings: Vec<(&str, String)> = (site.lint().into_iter())
        .map(|d| (d.code, d.file.clone()))
        .collect();
    for file in [
        format!("static/{css}"),
        "static/site.0123abcd.js".to_string(),
    ] {
        assert!(
            findings.contains(&("FN012", file.clone())),
            "{file}: {findings:?}"
        );
    }
    let index = fieldnotes::open(site.root()).expect("opens");
    let mut out = fieldnotes::render::output::MemoryOutput::default();
    let error = fieldnotes::render::render(&index, None, &mut out)
        .expect_err("refused")
        .to_string();
    assert!(error.contains(&css) && error.contains("rename"), "{error}");
}

/// Used by the bundled site's build test.
pub fn assert_bundled_assets(out: &Path) {
    let files = files_under(out);
    let checked = assert_asset_references_resolve(&files);
    assert!(checked > 100, "only {checked} asset references");
}
