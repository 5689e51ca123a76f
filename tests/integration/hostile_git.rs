//! Tests: what a pull request or a cited repository holds cannot make git run a command, be
//! read as git configuration, write outside the site, or exhaust memory. Each test builds its
//! own hostile repository or site in a temporary folder (no network).

// `fieldnotes(dir, args, env)`: the binary in `dir`, without the machine's git configuration.
use crate::provenance::run_with as fieldnotes;
use crate::provenance::widget::Repo;
use crate::support::{copy_dir, fixtures};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

mod bump;
mod cache;
mod objects;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A repository whose folder `site_at` holds the provenance fixture, committed, with
/// `origin/main` at that commit.
fn repository_with_site(site_at: &str) -> Repo {
    let repo = Repo::init();
    copy_dir(&fixtures().join("provenance"), &repo.path().join(site_at));
    let base = repo.commit("2026-01-05T10:00:00Z", "the site");
    repo.git(&["update-ref", "refs/remotes/origin/main", &base]);
    repo
}

/// A note the pull request breaks: `related` names no note (FN501, an error).
const BROKEN_NOTE: &str = "content/research/widget-picks-streamable-http.md";

fn break_note(site: &Path) {
    let path = site.join(BROKEN_NOTE);
    let text = fs::read_to_string(&path).expect("note");
    let text = text.replacen(
        "status: current\n",
        "status: current\nrelated:\n  - no-such-note\n",
        1,
    );
    fs::write(path, text).expect("write");
}

/// Files that make `folder` look like a git folder to git's own search: a `config` whose
/// `core.fsmonitor` creates `marker`, the work tree at the folder itself, the real
/// repository's objects borrowed (`objects/info/alternates`), and `main` and `origin/main`
/// at `commit`.
fn pose_as_git_dir(folder: &Path, repo: &Repo, commit: &str, marker: &Path) {
    fs::create_dir_all(folder.join("objects/info")).expect("mkdir");
    fs::create_dir_all(folder.join("refs/heads")).expect("mkdir");
    fs::create_dir_all(folder.join("refs/remotes/origin")).expect("mkdir");
    fs::write(folder.join("HEAD"), "ref: refs/heads/main\n").expect("write");
    let objects = repo.path().join(".git/objects");
    fs::write(
        folder.join("objects/info/alternates"),
        format!("{}\n", objects.display()),
    )
    .expect("write");
    for reference in ["refs/heads/main", "refs/remotes/origin/main"] {
        fs::write(folder.join(reference), format!("{commit}\n")).expect("write");
    }
    fs::write(
        folder.join("config"),
        format!(
            "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\t\
             fsmonitor = \"touch '{}'; false\"\n",
            marker.display()
        ),
    )
    .expect("write");
}

/// A folder for markers, outside every repository.
fn markers() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = dir.path().join("ran");
    (dir, marker)
}

#[test]
fn a_site_folder_posing_as_a_git_folder_is_refused_and_runs_nothing() {
    let repo = repository_with_site("site");
    let site = repo.path().join("site");
    let (_markers, marker) = markers();
    break_note(&site);
    let base = repo.git(&["rev-parse", "HEAD"]);
    pose_as_git_dir(&site, &repo, &base, &marker);
    repo.git(&["add", "--all", "--force"]);
    repo.git(&["commit", "--quiet", "-m", "pull request"]);
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    for args in [
        &["--root", "site", "lint", "--changed-since", "origin/main"][..],
        &["--root", "site", "lint"],
        &[
            "--root",
            "site",
            "sources",
            "verify",
            "--changed-since",
            "origin/main",
            "--offline",
            "--allow-unchecked",
            "--cache",
            &cache_arg,
        ],
        &[
            "--root",
            "site",
            "sources",
            "drift",
            "--changed-since",
            "origin/main",
            "--offline",
            "--cache",
            &cache_arg,
        ],
    ] {
        let out = fieldnotes(repo.path(), args, &[]);
        assert!(!marker.exists(), "{args:?} ran the site's core.fsmonitor");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        let error = stderr(&out);
        assert!(
            error.contains("site") && error.contains("HEAD") && error.lines().count() == 1,
            "{args:?}: {error}"
        );
    }
}

#[test]
fn a_folder_posing_as_a_git_folder_above_the_site_is_never_taken_for_the_repository() {
    // The site is `docs/site`; the pull request makes `docs/` look like a git folder, which
    // git's own search (from `docs/site` up) would reach before the real `.git`.
    let repo = repository_with_site("docs/site");
    let site = repo.path().join("docs/site");
    let (_markers, marker) = markers();
    break_note(&site);
    let base = repo.git(&["rev-parse", "HEAD"]);
    pose_as_git_dir(&repo.path().join("docs"), &repo, &base, &marker);
    repo.git(&["add", "--all", "--force"]);
    repo.git(&["commit", "--quiet", "-m", "pull request"]);
    let out = fieldnotes(
        repo.path(),
        &[
            "--root",
            "docs/site",
            "lint",
            "--changed-since",
            "origin/main",
            "--format",
            "json",
        ],
        &[],
    );
    assert!(
        !marker.exists(),
        "lint ran the pull request's core.fsmonitor"
    );
    // The real repository: the broken note is in the change, and reported.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("FN501"), "{}", stdout(&out));
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    for command in [&["verify", "--allow-unchecked"][..], &["drift"]] {
        let mut args = vec!["--root", "docs/site", "sources"];
        args.extend(command);
        args.extend([
            "--changed-since",
            "origin/main",
            "--offline",
            "--cache",
            &cache_arg,
        ]);
        let out = fieldnotes(repo.path(), &args, &[]);
        assert!(!marker.exists(), "sources {command:?} ran core.fsmonitor");
        assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    }
}

#[test]
fn git_settings_that_run_commands_are_off_and_the_environment_cannot_redirect_git() {
    // The checkout's own configuration asks for an fsmonitor command; git variables in the
    // environment point at another repository. fieldnotes runs neither and reads the site's.
    let repo = repository_with_site("site");
    let (_markers, marker) = markers();
    repo.git(&[
        "config",
        "core.fsmonitor",
        &format!("touch '{}'; false", marker.display()),
    ]);
    break_note(&repo.path().join("site"));
    let other = Repo::init();
    other.write("x", "x\n");
    other.commit("2026-01-05T10:00:00Z", "other");
    let other_git = other.path().join(".git").to_string_lossy().into_owned();
    let other_top = other.path().to_string_lossy().into_owned();
    let out = fieldnotes(
        &repo.path().join("site"),
        &["lint", "--changed-since", "origin/main", "--format", "json"],
        &[
            ("GIT_DIR", &other_git),
            ("GIT_WORK_TREE", &other_top),
            ("GIT_INDEX_FILE", "/nonexistent/index"),
        ],
    );
    assert!(!marker.exists(), "lint ran core.fsmonitor");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("FN501"), "{}", stdout(&out));
}
