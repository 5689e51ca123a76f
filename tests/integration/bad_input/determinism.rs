//! Deterministic builds: the same inputs give byte-identical output, whatever folder the site
//! is in or the order its files were created in, and no wall-clock time reaches the output
//! unless `SOURCE_DATE_EPOCH` gives one.

use super::site_with_notes;
use crate::support::files_under;
use crate::support::{copy_dir, TestSite};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

/// Builds the site in `root` with the binary (so `SOURCE_DATE_EPOCH` is set for it alone)
/// into `out`, and returns every output file.
fn build(root: &Path, out: &Path, epoch: Option<&str>) -> BTreeMap<String, Vec<u8>> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command
        .arg("--root")
        .arg(root)
        .args(["build", "--today", "2026-11-30", "--out"])
        .arg(out)
        .env_remove("SOURCE_DATE_EPOCH");
    if let Some(epoch) = epoch {
        command.env("SOURCE_DATE_EPOCH", epoch);
    }
    let output = command.output().expect("run fieldnotes");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    files_under(out)
}

/// Copies `from` into `to`, creating files in reverse path order (so the folders list them in
/// another order than the original's).
fn copy_reversed(from: &Path, to: &Path) {
    let mut entries: Vec<_> = walkdir::WalkDir::new(from)
        .into_iter()
        .map(|e| e.expect("walk").into_path())
        .collect();
    entries.sort();
    for path in entries.iter().rev() {
        let target = to.join(path.strip_prefix(from).expect("under"));
        if path.is_dir() {
            fs::create_dir_all(&target).expect("mkdir");
        } else {
            fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
            fs::copy(path, &target).expect("copy");
        }
    }
}

/// The first difference between two builds, for a readable failure.
fn first_difference(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> String {
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    if names(a) != names(b) {
        return format!("file lists differ: {:?} vs {:?}", names(a), names(b));
    }
    a.iter()
        .find(|(k, v)| b[*k] != **v)
        .map_or(String::new(), |(k, _)| format!("{k} differs"))
}

#[test]
fn two_builds_of_the_same_site_are_byte_identical_wherever_it_lies() {
    let site = site_with_notes(40);
    let other = TestSite::empty();
    copy_reversed(site.root(), other.root());
    let outputs = tempfile::tempdir().expect("temp");
    for epoch in [None, Some("1764460800")] {
        let first = build(site.root(), &outputs.path().join("a"), epoch);
        let second = build(site.root(), &outputs.path().join("b"), epoch);
        let moved = build(other.root(), &outputs.path().join("c"), epoch);
        assert!(first.len() > 40, "{} files", first.len());
        assert!(first == second, "{}", first_difference(&first, &second));
        assert!(first == moved, "{}", first_difference(&first, &moved));
    }
}

#[test]
fn no_wall_clock_time_reaches_the_output() {
    // Every date in the site is in 2020, so today's date can only come from the clock.
    let site = TestSite::empty();
    copy_dir(&crate::support::fixtures().join("bad/_base"), site.root());
    for entry in walkdir::WalkDir::new(site.root().join("content")) {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let text = fs::read_to_string(entry.path()).expect("read");
            fs::write(entry.path(), text.replace("2026-11-0", "2020-01-0")).expect("write");
        }
    }
    let out = tempfile::tempdir().expect("temp");
    let files = build(site.root(), &out.path().join("site"), None);
    let now = chrono::Utc::now();
    let stamps = [
        now.format("%Y-%m-%d").to_string(),
        now.format("%d %b %Y").to_string(),
        now.format("%Y%m%d").to_string(),
    ];
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        for stamp in &stamps {
            assert!(
                !text.contains(stamp.as_str()),
                "{path} has today's date {stamp}"
            );
        }
    }
    // With SOURCE_DATE_EPOCH the build may use it, and the same epoch gives the same bytes.
    let a = build(site.root(), &out.path().join("a"), Some("1600000000"));
    let b = build(site.root(), &out.path().join("b"), Some("1600000000"));
    assert!(a == b, "{}", first_difference(&a, &b));
}
