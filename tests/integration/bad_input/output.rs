//! Atomic, safe output: a build that fails or is killed leaves the previous output as it was,
//! and the next build removes what it left; fieldnotes never clears a folder it did not write,
//! one that holds the site, one inside an input folder or `.git`, or a symlink; no id can make
//! it write outside the output folder.

use super::{leftovers, site_with_notes};
use crate::support::files_under;
use crate::support::{today, TestSite};
use fieldnotes::{BuildOptions, Error};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Builds `site` into `out` as of the test day.
fn build_into(site: &TestSite, out: &Path) -> fieldnotes::Result<fieldnotes::BuildReport> {
    let mut options = BuildOptions::new(site.root().to_path_buf(), out.to_path_buf());
    options.today = today();
    fieldnotes::build(&options)
}

/// The staging folder of the build with process id `pid`, beside `out`.
fn staging_of(out: &Path, pid: u32) -> PathBuf {
    let name = out.file_name().expect("name").to_string_lossy();
    out.with_file_name(format!(".{name}.tmp-{pid}"))
}

#[test]
fn a_build_killed_mid_write_leaves_the_previous_output_and_the_next_one_cleans_up() {
    let site = site_with_notes(1500);
    assert!(site.build().written);
    let before = files_under(&site.out());
    // Change every page, so a half-written output could not pass for the old one.
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    site.write(
        "site.yaml",
        &config.replace("title: Bad input", "title: Changed"),
    );

    let mut child = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("--root")
        .arg(site.root())
        .args(["build", "--today", "2026-11-30"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fieldnotes");
    let staging = staging_of(&site.out(), child.id());
    let started = Instant::now();
    // Wait until the build is writing pages, then kill it (SIGKILL: no destructor runs).
    loop {
        let written = fs::read_dir(staging.join("research")).map_or(0, |d| d.count());
        if written > 20 {
            break;
        }
        if let Some(status) = child.try_wait().expect("poll") {
            panic!("the build ended ({status}) before it could be killed mid-write");
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the build never wrote"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill -9");
    child.wait().expect("reap");

    assert_eq!(
        files_under(&site.out()),
        before,
        "the previous output changed"
    );
    assert!(
        staging.is_dir(),
        "the killed build's staging folder should be there"
    );
    let report = site.build();
    assert!(report.written, "{:?}", report.diagnostics);
    assert!(site.output("index.html").contains("Changed"));
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}

/// Breaks a template, builds, and asserts that the build failed and the output is `before`.
fn assert_a_failed_render_keeps(site: &TestSite, before: &BTreeMap<String, Vec<u8>>) {
    site.write("templates/note.html", "{% if %}");
    assert!(build_into(site, &site.out()).is_err(), "a broken template");
    assert!(
        files_under(&site.out()) == *before,
        "the previous output changed"
    );
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}

#[test]
fn a_build_that_fails_while_rendering_leaves_the_previous_output() {
    let site = TestSite::fixture("bad/_base");
    assert!(site.build().written);
    let before = files_under(&site.out());
    assert_a_failed_render_keeps(&site, &before);
}

#[test]
fn a_build_killed_between_the_renames_gets_its_previous_output_back() {
    let site = TestSite::fixture("bad/_base");
    assert!(site.build().written);
    let before = files_under(&site.out());
    // What a build killed after moving the output aside leaves: no output, and the old one
    // under the name of a process that no longer runs (above the largest pid Linux hands out).
    fs::rename(site.out(), site.root().join(".public.old-4194305")).expect("move aside");
    assert_a_failed_render_keeps(&site, &before);
}

/// Asserts that building into `out` is refused before anything is touched.
fn assert_refused(site: &TestSite, out: &Path) {
    let before = files_under(site.root());
    match build_into(site, out) {
        Err(Error::Usage { message }) => assert!(message.contains("refusing"), "{message}"),
        other => panic!("{}: expected a refusal, got {other:?}", out.display()),
    }
    assert_eq!(files_under(site.root()), before, "{}", out.display());
}

#[test]
fn output_that_holds_the_site_or_lies_inside_its_content_is_refused() {
    let site = TestSite::fixture("bad/_base");
    let root = site.root();
    // A marker planted by a pull request does not make an input folder fair game.
    site.write("content/.fieldnotes-output", "");
    site.write("static/.fieldnotes-output", "");
    site.write("static/logo.svg", "<svg/>");
    site.write(".git/config", "[core]\n");
    site.write(".git/.fieldnotes-output", "");
    std::os::unix::fs::symlink("static", root.join("assets")).expect("symlink");
    for out in [
        root.to_path_buf(),
        root.join(".."),
        root.join("content"),
        root.join("content/research"),
        root.join("content/research/new-folder"),
        root.join("templates/out"),
        root.join("themes/default"),
        root.join("public/../content/x"),
        root.join("static"),
        root.join("static/out"),
        root.join(".git"),
        root.join(".git/out"),
        // A folder that is static/ under another name.
        root.join("assets"),
        root.join("assets/out"),
    ] {
        assert_refused(&site, &out);
    }
}

#[test]
fn an_output_that_is_a_symlink_is_refused() {
    let site = TestSite::fixture("bad/_base");
    let elsewhere = tempfile::tempdir().expect("temp");
    let link = site.root().join("public");
    // Even to an empty folder outside the site: a build replaces its output folder, so it
    // would replace the link, not the folder it names.
    std::os::unix::fs::symlink(elsewhere.path(), &link).expect("symlink");
    assert_refused(&site, &link);
    fs::remove_file(&link).expect("unlink");
    std::os::unix::fs::symlink("nowhere", &link).expect("symlink");
    assert_refused(&site, &link);
    assert!(fs::read_dir(elsewhere.path())
        .expect("dir")
        .next()
        .is_none());
}

#[test]
fn the_command_refuses_an_output_in_static_before_linting_or_writing() {
    let site = TestSite::fixture("bad/_base");
    site.write("static/logo.svg", "<svg/>");
    // A site with errors: the refusal comes first all the same (exit 2, not 1).
    site.write("content/research/broken.md", "no front matter\n");
    let before = files_under(site.root());
    let run = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("--root")
        .arg(site.root())
        .args(["build", "--out", "static"])
        .output()
        .expect("run fieldnotes");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("refusing") && stderr.contains("static/"),
        "{stderr}"
    );
    assert_eq!(files_under(site.root()), before);
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}

#[test]
fn the_next_build_removes_what_a_build_killed_while_removing_the_old_output_left() {
    let site = TestSite::fixture("bad/_base");
    assert!(site.build().written);
    // What a build killed while removing the previous output leaves (its marker may be gone
    // first), and what one killed before it wrote the marker into its staging folder leaves;
    // both under the names of processes that no longer run.
    let old = site.root().join(".public.old-4194305");
    fs::create_dir_all(old.join("research")).expect("mkdir");
    fs::write(old.join("research/a-note.html"), "half removed").expect("write");
    fs::create_dir_all(site.root().join(".public.tmp-4194306")).expect("mkdir");
    assert!(site.build().written);
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}

#[test]
fn a_folder_fieldnotes_did_not_write_is_never_cleared() {
    let site = TestSite::fixture("bad/_base");
    let out = site.root().join("docs");
    site.write("docs/index.md", "someone's documentation\n");
    assert_refused(&site, &out);
    site.write("not-a-folder", "a file\n");
    assert_refused(&site, &site.root().join("not-a-folder"));
    // An empty folder, or one with the marker, is replaced.
    fs::remove_file(out.join("index.md")).expect("empty it");
    assert!(build_into(&site, &out).expect("builds").written);
    assert!(out.join(".fieldnotes-output").is_file());
    assert!(build_into(&site, &out).expect("builds again").written);
}

#[test]
fn no_id_writes_outside_the_output_even_with_its_rules_off() {
    let site = TestSite::fixture("bad/_base");
    let note = fs::read_to_string(site.root().join("content/research/a-note.md")).expect("note");
    site.write(
        "content/research/escape.md",
        &note.replace("id: a-note", "id: ../../../escaped"),
    );
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    site.write(
        "site.yaml",
        &format!("{config}lint:\n  rules:\n    FN101: off\n    FN102: off\n"),
    );
    let result = build_into(&site, &site.out());
    assert!(
        matches!(&result, Err(Error::Io { .. })),
        "the write must be refused: {result:?}"
    );
    let parent = site.root().parent().expect("parent");
    assert!(!parent.join("escaped.html").exists());
    assert!(!site.root().join("escaped.html").exists());
    assert!(!site.out().exists());
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}

#[test]
fn every_file_a_render_writes_is_one_lint_knows_it_generates_or_a_static_one() {
    use fieldnotes::index::outputs::{Clash, Outputs};
    let site = TestSite::fixture("bad/_base");
    site.write("static/img/logo.svg", "<svg/>");
    let index = fieldnotes::open(site.root()).expect("opens");
    let mut out = fieldnotes::render::output::MemoryOutput::default();
    fieldnotes::render::render(&index, None, &mut out).expect("renders");
    let outputs = Outputs::of(&index);
    let published = fieldnotes::render::published_static_files(&index).expect("theme loads");
    let static_files: Vec<&str> = published.values().map(String::as_str).collect();
    assert!(published["style.css"].starts_with("style.") && published["style.css"] != "style.css");
    assert_eq!(published["img/logo.svg"], "img/logo.svg");
    for path in out.files.keys() {
        let known = matches!(
            outputs.clash(path),
            Some(Clash::Replaces(_) | Clash::InFolder(_))
        );
        assert!(
            known || static_files.contains(&path.as_str()),
            "{path} is written, but FN012 does not know the build generates it"
        );
        assert!(
            !static_files.contains(&path.as_str()) || outputs.clash(path).is_none(),
            "{path}"
        );
    }
}

#[test]
fn a_static_file_never_replaces_a_generated_one_even_with_fn012_off() {
    let site = TestSite::fixture("bad/_base");
    site.write("static/index.html", "<h1>not the home page</h1>");
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    site.write(
        "site.yaml",
        &format!("{config}lint:\n  rules:\n    FN012: off\n"),
    );
    let result = build_into(&site, &site.out());
    assert!(
        matches!(&result, Err(Error::Io { path, .. }) if path == Path::new("index.html")),
        "the static file must be refused: {result:?}"
    );
    assert!(!site.out().exists());
    assert_eq!(leftovers(site.root()), Vec::<String>::new());
}
