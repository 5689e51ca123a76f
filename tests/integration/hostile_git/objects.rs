//! What a cited repository holds cannot exhaust memory: a file past the size limit is never
//! read, one with too many lines is counted and never kept; `sources verify`, `sources drift`
//! and `build --excerpts` say so of the source that pins it.

use super::{fieldnotes, stderr, stdout};
use crate::provenance::widget::{Repo, WIDGET};
use crate::support::TestSite;
use std::fs;

/// A repository whose one commit holds `big.txt` (17 MiB of newlines, past the 16 MiB
/// limit) and `long.txt` (1,200,000 empty lines in 1.2 MB, past the line limit).
fn hostile_repository() -> (Repo, String) {
    let repo = Repo::init();
    fs::write(repo.path().join("big.txt"), vec![b'\n'; 17 << 20]).expect("write");
    fs::write(repo.path().join("long.txt"), vec![b'\n'; 1_200_000]).expect("write");
    let commit = repo.commit("2026-01-05T10:00:00Z", "hostile files");
    (repo, commit)
}

/// The provenance fixture, its first note's source pinned to `file:1-2` at `commit`.
fn site_pinning(file: &str, commit: &str) -> TestSite {
    let site = TestSite::fixture("provenance");
    let note = "content/research/widget-picks-streamable-http.md";
    let text = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &text
            .replacen("commit: 457c9c41", &format!("commit: {commit}"), 1)
            .replacen("src/transport.py:5-8", &format!("{file}:1-2"), 1),
    );
    site
}

#[test]
fn a_file_past_the_limits_is_not_read_and_its_source_says_why() {
    let (repo, commit) = hostile_repository();
    let mapping = format!("{WIDGET}={}", repo.path().display());
    for (file, why) in [
        ("big.txt", "past the 16 MiB"),
        ("long.txt", "lines, past the"),
    ] {
        let site = site_pinning(file, &commit);
        let cache = tempfile::tempdir().expect("temp dir");
        let cache_arg = cache.path().to_string_lossy().into_owned();
        let repos = ["--repo", &mapping, "--cache", &cache_arg, "--offline"];
        let mut verify = vec!["sources", "verify", "--format", "json"];
        verify.extend(repos);
        let out = fieldnotes(site.root(), &verify, &[]);
        let text = stdout(&out);
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        let pinned: Vec<&serde_json::Value> = (value["diagnostics"].as_array().expect("list"))
            .iter()
            .filter(|d| d["file"] == "content/research/widget-picks-streamable-http.md")
            .collect();
        assert_eq!(pinned.len(), 1, "{file}: {text}");
        assert_eq!(pinned[0]["code"], "FN955", "{file}: {text}");
        let message = pinned[0]["message"].as_str().expect("message");
        assert!(message.contains(file) && message.contains(why), "{message}");

        let mut drift = vec!["sources", "drift", "--format", "json"];
        drift.extend(repos);
        let out = fieldnotes(site.root(), &drift, &[]);
        assert!(stdout(&out).contains(why), "{file}: {}", stdout(&out));

        let out_dir = tempfile::tempdir().expect("temp dir");
        let out_arg = out_dir.path().join("public").to_string_lossy().into_owned();
        let mut build = vec!["build", "--excerpts", "--out", &out_arg];
        build.extend(repos);
        let out = fieldnotes(site.root(), &build, &[]);
        assert!(stderr(&out).contains(why), "{file}: {}", stderr(&out));
    }
}
