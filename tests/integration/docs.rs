//! The manual (`docs/`) is a fieldnotes site: it builds and lints clean, its rule table is the
//! rule registry's, and each command line its editor and agent snippets run is one that
//! fieldnotes takes (`docs/snippets.rs`).

mod snippets;

use fieldnotes::lint::rules;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The manual's site folder.
fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

/// A guide of the manual, by slug.
fn guide(slug: &str) -> String {
    let path = docs().join(format!("content/guides/{slug}.md"));
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_manual_builds_and_lints_clean() {
    let out = tempfile::tempdir().expect("temp");
    let public = out.path().join("public");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
            .arg("--root")
            .arg(docs())
            .args(args)
            .args(["--today", "2026-12-06"])
            .output()
            .expect("runs")
    };
    let lint = run(&["lint", "--deny-warnings"]);
    assert!(
        lint.status.success(),
        "fieldnotes lint --root docs:\n{}",
        String::from_utf8_lossy(&lint.stdout)
    );
    let build = run(&["build", "--out", public.to_str().expect("utf-8 path")]);
    assert!(
        build.status.success(),
        "fieldnotes build --root docs:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    // Every guide is a page (new pages need no list kept by hand).
    for entry in fs::read_dir(docs().join("content/guides")).expect("guides") {
        let path = entry.expect("entry").path();
        let slug = path.file_stem().and_then(|s| s.to_str()).expect("a slug");
        assert!(
            public.join(format!("guides/{slug}.html")).is_file(),
            "guides/{slug}"
        );
    }
    let home = fs::read_to_string(public.join("index.html")).expect("home");
    assert!(home.contains("/guides/commands"), "the manual's home page");
}

/// The rule table of `docs/content/guides/rules.md` is [`rules::markdown_table`], between the
/// `rules:start` and `rules:end` lines. With `UPDATE_DOCS=1` the test writes it there.
#[test]
fn the_manuals_rule_table_is_current() {
    let path = docs().join("content/guides/rules.md");
    let page = guide("rules");
    let start = page.find("rules:start").expect("a rules:start line");
    let start = start + page[start..].find('\n').expect("a line") + 1;
    let end = start
        + page[start..]
            .find("[//]: # (rules:end)")
            .expect("a rules:end line");
    let fresh = format!("\n{}\n", rules::markdown_table());
    if page[start..end] == fresh {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        let updated = format!("{}{fresh}{}", &page[..start], &page[end..]);
        fs::write(&path, updated).expect("write");
        return;
    }
    panic!(
        "{}'s rule table is stale: run `UPDATE_DOCS=1 cargo test --test integration \
         rule_table` and commit it",
        path.display()
    );
}

#[test]
fn the_readme_is_a_front_door_to_the_manual() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the manual is docs/"
    );
    assert!(
        !readme.contains("| FN101 |"),
        "the rule table lives in the manual"
    );
    for link in readme.split("](docs/content/guides/").skip(1) {
        let slug = link.split(['.', ')', '#']).next().expect("a slug");
        // (`docs/content/guides/` itself: the folder.)
        assert!(
            slug.is_empty() || docs().join(format!("content/guides/{slug}.md")).is_file(),
            "README links to a guide that is not there: {slug}"
        );
    }
}
