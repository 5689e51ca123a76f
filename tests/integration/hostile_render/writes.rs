//! One write layer: no command writes through a symlink a pull request commits, at any
//! component of the path (`build --out dist/site` with `dist` a symlink, `new` into a
//! symlinked `content/research`, `probe` into a symlinked `content/observations`, the
//! highlight cache through a symlinked folder of its own).

use super::{fieldnotes, run_within, text};
use crate::support::TestSite;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A folder outside the site, and a symlink to it at `link` in the site.
fn outside_behind(site: &TestSite, link: &str) -> tempfile::TempDir {
    let outside = tempfile::tempdir().expect("temp dir");
    let link = site.root().join(link);
    if link.exists() {
        std::fs::remove_dir_all(&link).expect("remove");
    }
    std::fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path(), &link).expect("symlink");
    outside
}

fn files_in(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .flatten()
        .map(|e| e.path().display().to_string())
        .collect()
}

#[test]
fn build_never_writes_through_a_symlink_in_out() {
    let site = TestSite::fixture("basic");
    let outside = outside_behind(&site, "dist");
    let mut command = fieldnotes();
    command.args([
        "build",
        "--today",
        "2026-11-30",
        "--root",
        ".",
        "--out",
        "dist/site",
    ]);
    let out = run_within(command, site.root());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("symlink"), "{stderr}");
    assert_eq!(files_in(outside.path()), Vec::<String>::new());
    // An --out outside the site is the maintainer's to name, symlinks and all.
    let mut command = fieldnotes();
    let target = outside.path().join("site");
    command.args(["build", "--today", "2026-11-30", "--root", ".", "--out"]);
    command.arg(&target);
    let out = run_within(command, site.root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(target.join("index.html").is_file());
}

#[test]
fn new_never_writes_through_a_symlinked_folder() {
    let site = TestSite::fixture("basic");
    let outside = outside_behind(&site, "content/research");
    let mut command = fieldnotes();
    command.args([
        "new",
        "note",
        "planted",
        "--root",
        ".",
        "--today",
        "2026-11-30",
    ]);
    command.args(["--client", "client-a", "--capability", "transports.sse"]);
    let out = run_within(command, site.root());
    let stderr = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("symlink"), "{stderr}");
    assert_eq!(files_in(outside.path()), Vec::<String>::new());
}

#[test]
fn probe_never_writes_through_a_symlinked_folder() {
    let site = TestSite::fixture("basic");
    let outside = outside_behind(&site, "content/observations");
    let mut child = fieldnotes()
        .args(["probe", "stdio", "--quiet-timeout", "1"])
        .current_dir(site.root())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fieldnotes probe");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
        .expect("write");
    drop(stdin);
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the probe did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("read");
    assert!(stderr.contains("symlink"), "{stderr}");
    assert_eq!(files_in(outside.path()), Vec::<String>::new());
}

/// Every folder of the highlight cache a symlink out: nothing is written through them.
#[test]
fn the_highlight_cache_never_writes_through_a_symlink() {
    let site = TestSite::fixture("basic");
    let blocks: String = (0..20)
        .map(|i| format!("```python\ndef f{i}(x):\n    return x * {i}\n```\n\n"))
        .collect();
    super::guide(&site, &blocks);
    let cache = tempfile::tempdir().expect("temp dir");
    let outside = tempfile::tempdir().expect("temp dir");
    for i in 0..256 {
        let folder = cache.path().join(format!("highlight/{i:02x}"));
        std::fs::create_dir_all(folder.parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path(), folder).expect("symlink");
    }
    let mut command = fieldnotes();
    command
        .args(["build", "--today", "2026-11-30", "--root", "."])
        .env("FIELDNOTES_CACHE_DIR", cache.path());
    let out = run_within(command, site.root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(files_in(outside.path()), Vec::<String>::new());
}
