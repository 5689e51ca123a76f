//! Tests: `sources bump` re-pins the sources whose lines hold (unchanged or moved) to the
//! head of the default branch, rewriting `commit` and `path` where they stand and nothing
//! else; changed and gone sources are left and listed; `--dry-run` prints the diff.

use super::history::{gadget, GADGET};
use super::{run, TestSite};
use std::fs;

/// A note written the way people write: comments, keys in their own order, every quoting
/// style, a flow mapping, and `lastVerified`, which must not move; its six sources pinned to
/// `commits` and `paths`; `\r\n` line ends when `crlf`.
fn note(commits: [&str; 6], paths: [&str; 6], crlf: bool) -> String {
    let [c0, c1, c2, c3, c4, c5] = commits;
    let [p0, p1, p2, p3, p4, p5] = paths;
    let text = format!(
        "---\n\
         id: bump-cases\n\
         title: Bump cases # a comment after a value\n\
         kind: default-behaviour\n\
         summary: Pins to bump.\n\
         capabilities: [transports.sse]\n\
         clients:\n  - widget\n\
         specVersions:\n  - 2025-03-26\n\
         sources:\n\
         \x20 # renamed since, lines as they were\n\
         \x20 - path: \"{p0}\"   # double-quoted, path first\n\
         \x20   commit: {c0}\n\
         \x20   url: {GADGET}\n\
         \x20   title: renamed\n\
         \x20 - url: {GADGET}\n\
         \x20   commit: '{c1}'\n\
         \x20   path: '{p1}'\n\
         \x20   title: unchanged, single-quoted\n\
         \x20 - {{url: {GADGET}, commit: {c2}, path: {p2}, title: flow}}\n\
         \x20 - url: {GADGET}\n\
         \x20   commit: {c3}\n\
         \x20   path: {p3}\n\
         \x20   title: changed, left\n\
         \x20 - url: {GADGET}\n\
         \x20   commit: {c4}\n\
         \x20   path: {p4}\n\
         \x20   title: gone, left\n\
         \x20 - url: {GADGET}\n\
         \x20   commit: {c5}\n\
         \x20   path: {p5} # the whole file\n\
         \x20   title: whole file, renamed\n\
         status: current\n\
         lastVerified: 2026-06-01\n\
         ---\n\nBody.\n"
    );
    match crlf {
        true => format!("\u{feff}{}", text.replace('\n', "\r\n")),
        false => text,
    }
}

/// The line of `text` that holds `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("in the note")
        + 1
}

fn bump(site: &TestSite, repo: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let cache = tempfile::tempdir().expect("temp dir");
    let repo_arg = format!("{GADGET}={}", repo.display());
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let mut args = vec![
        "sources",
        "bump",
        "--repo",
        &repo_arg,
        "--cache",
        &cache_arg,
        "--offline",
    ];
    args.extend(extra);
    run(site.root(), &args)
}

#[test]
fn bump_rewrites_commit_and_path_and_nothing_else() {
    let gadget = gadget();
    let (v1, head) = (gadget.v1.as_str(), gadget.deletion.as_str());
    let paths = [
        "src/rename.py:2-4",
        "src/steady.py:2-3",
        "src/shifted.py:2-4",
        "src/edited.py:2-4",
        "src/doomed.py:2-3",
        "src/rename.py",
    ];
    let now = [
        "src/renamed.py:2-4",
        "src/steady.py:2-3",
        "src/shifted.py:4-6",
        "src/edited.py:2-4",
        "src/doomed.py:2-3",
        "src/renamed.py",
    ];
    for crlf in [false, true] {
        let site = TestSite::fixture("provenance");
        let file = "content/research/bump-cases.md";
        let text = note([v1, &v1[..8], v1, v1, v1, v1], paths, crlf);
        site.write(file, &text);

        let dry = bump(&site, gadget.repo.path(), &["--dry-run"]);
        let diff = String::from_utf8_lossy(&dry.stdout);
        let summary = String::from_utf8_lossy(&dry.stderr);
        assert_eq!(dry.status.code(), Some(0), "{summary}");
        assert_eq!(
            fs::read_to_string(site.root().join(file)).expect("note"),
            text
        );
        assert!(
            diff.starts_with(&format!("--- a/{file}\n+++ b/{file}\n@@ -")),
            "{diff}"
        );
        assert!(
            diff.contains(
                "-  - path: \"src/rename.py:2-4\"   # double-quoted, path first\n\
                 +  - path: \"src/renamed.py:2-4\"   # double-quoted, path first\n"
            ),
            "{diff}"
        );
        assert!(
            summary.contains("would re-pin 4 sources in 1 file"),
            "{summary}"
        );
        let changed = line_of(&text, "src/edited.py:2-4") - 2;
        let gone = line_of(&text, "src/doomed.py:2-3") - 2;
        for (line, state) in [(changed, "changed: its lines changed"), (gone, "gone: ")] {
            let listed = format!("{file}:{line}: {state}");
            assert!(summary.contains(&listed), "{listed} in {summary}");
        }

        let out = bump(&site, gadget.repo.path(), &[]);
        let summary = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{summary}");
        assert!(
            summary.contains("re-pinned 4 sources in 1 file"),
            "{summary}"
        );
        let expected = note([head, &head[..8], head, v1, v1, head], now, crlf);
        let written = fs::read_to_string(site.root().join(file)).expect("note");
        assert_eq!(written, expected);
        // A second bump finds nothing to do for the four.
        let again = bump(&site, gadget.repo.path(), &[]);
        let summary = String::from_utf8_lossy(&again.stderr);
        assert!(
            summary.contains("re-pinned 0 sources in 0 files; 4 already current"),
            "{summary}"
        );
    }
}
