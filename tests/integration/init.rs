//! Tests: `fieldnotes init` writes a site that lints clean and builds, from the binary alone
//! and from any folder, for each example; it refuses a folder that holds anything.

use std::path::Path;
use std::process::{Command, Output};

/// The day the examples' notes were last verified (lint measures staleness from it).
const DAY: &str = "2026-12-06";

/// `fieldnotes ARGS` run in `cwd`.
fn fieldnotes(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("fieldnotes runs")
}

fn text(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// `fieldnotes init demo --example EXAMPLE` in a temporary folder; the folder and the site.
fn init(example: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let parent = tempfile::tempdir().expect("temp dir");
    let made = fieldnotes(parent.path(), &["init", "demo", "--example", example]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    let site = parent.path().join("demo");
    (parent, site)
}

#[test]
fn each_example_lints_clean_and_builds() {
    for example in ["minimal", "mcp"] {
        let (_parent, site) = init(example);
        let lint = fieldnotes(&site, &["lint", "--deny-warnings", "--today", DAY]);
        assert_eq!(lint.status.code(), Some(0), "{example}: {}", text(&lint));
        let findings = fieldnotes(&site, &["lint", "--format", "json", "--today", DAY]);
        let json: serde_json::Value =
            serde_json::from_slice(&findings.stdout).expect("lint's JSON");
        let count = json["diagnostics"].as_array().map_or(usize::MAX, Vec::len);
        assert_eq!(count, 0, "{example}: no finding at all: {json}");
        let build = fieldnotes(&site, &["build", "--today", DAY]);
        assert_eq!(build.status.code(), Some(0), "{example}: {}", text(&build));
        assert!(site.join("public/index.html").is_file(), "{example}");
        assert!(site.join(".gitignore").is_file(), "{example}");
    }
}

#[test]
fn the_minimal_example_is_not_about_mcp() {
    let (_parent, site) = init("minimal");
    for entry in walkdir::WalkDir::new(&site) {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path()).expect("read");
            assert!(!text.contains("MCP"), "{}", entry.path().display());
        }
    }
}

#[test]
fn init_refuses_a_folder_that_holds_anything_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
    let refused = fieldnotes(dir.path(), &["init"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("not empty") && stderr.contains("notes.txt"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("read").collect();
    assert_eq!(left.len(), 1, "nothing written beside the file");
}

#[test]
fn init_writes_into_the_current_empty_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let made = fieldnotes(dir.path(), &["init"]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    assert!(dir.path().join("site.yaml").is_file());
    assert!(dir.path().join("content/guides/adding-a-note.md").is_file());
    let again = fieldnotes(dir.path(), &["init"]);
    assert_eq!(again.status.code(), Some(2), "a second init is refused");
}
