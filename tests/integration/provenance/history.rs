//! Tests: drift follows history. A repository built here (fixed names and dates) renames
//! files, renames and edits them, splits one, copies one, moves lines into a file that was
//! already there, deletes files, merges a branch and leaves a pull request unmerged; one note
//! pins a block in each before that happened, and drift must say where each block is now.
//! A second test counts the git processes drift starts: one history walk per repository,
//! however many pins.

use super::widget::Repo;
use super::{run_with, TestSite};
use fieldnotes::provenance::cache::{Cache, CacheConfig};
use fieldnotes::provenance::drift::{drift, Drift};
use std::fmt::Write as _;
use std::path::Path;

/// The repository every source of these tests names.
pub(super) const GADGET: &str = "https://git.test/acme/gadget";

fn lines(prefix: &str, n: usize) -> String {
    (1..=n).map(|i| format!("{prefix} line {i}\n")).collect()
}

/// A block of `n` distinctive lines (`def <name>_<i>(): return <i> * <i>`).
fn block(name: &str, n: usize) -> String {
    (1..=n)
        .map(|i| format!("def {name}_{i}(argument): return argument * {i}\n"))
        .collect()
}

/// The gadget repository and the commits the notes pin.
pub(super) struct Gadget {
    pub repo: Repo,
    /// The first commit on `main`, where most pins are.
    pub v1: String,
    /// A commit of the `feature` branch, merged into `main` later.
    feature: String,
    /// A commit only `refs/pull/7/head` holds, whose file `main` gained later as it was.
    squashed: String,
    /// A commit only `refs/pull/8/head` holds, whose file `main` never had.
    abandoned: String,
    /// The commit that deleted `src/doomed.py`: the head of `main`.
    pub deletion: String,
}

pub(super) fn gadget() -> Gadget {
    let repo = Repo::init();
    let keep = block("keep", 4);
    let split_off = block("split_off", 5);
    repo.write("src/rename.py", &block("rename", 6));
    repo.write("src/rename_edit.py", &block("rename_edit", 12));
    repo.write("src/big.py", &format!("{keep}\n{split_off}"));
    repo.write("src/doomed.py", &block("doomed", 4));
    repo.write("src/original.py", &block("original", 5));
    repo.write(
        "src/source.py",
        &format!("{}{}", block("stays", 3), block("leaves", 3)),
    );
    repo.write("src/helpers.py", &block("helper", 3));
    repo.write("src/edited.py", &block("edited", 6));
    repo.write("src/steady.py", &block("steady", 4));
    repo.write("src/shifted.py", &block("shifted", 6));
    repo.write("src/short.py", "a = 1\nb = 2\nc = 3\n");
    repo.write("README.md", &lines("readme", 3));
    let v1 = repo.commit("2026-01-05T10:00:00Z", "v1");

    // A pull request that adds a file; `main` gains the same file later (a squash merge).
    repo.git(&["checkout", "--quiet", "--detach", &v1]);
    repo.write("src/pr.py", &block("pr", 3));
    let squashed = repo.commit("2026-01-06T10:00:00Z", "pull request 7");
    repo.git(&["update-ref", "refs/pull/7/head", &squashed]);
    repo.git(&["checkout", "--quiet", "--detach", &v1]);
    repo.write("src/never.py", &block("never", 3));
    let abandoned = repo.commit("2026-01-06T11:00:00Z", "pull request 8");
    repo.git(&["update-ref", "refs/pull/8/head", &abandoned]);

    // A branch merged with a merge commit.
    repo.git(&["checkout", "--quiet", "-b", "feature", &v1]);
    repo.write("src/feature.py", &block("feature", 4));
    let feature = repo.commit("2026-01-07T10:00:00Z", "feature");
    repo.git(&["checkout", "--quiet", "main"]);
    repo.git_at(
        "2026-01-08T10:00:00Z",
        &[
            "merge",
            "--quiet",
            "--no-ff",
            "-m",
            "merge feature",
            "feature",
        ],
    );

    // Renames, a rename with edits, a split, an edit, a copy, lines shifted down.
    repo.git(&["mv", "src/rename.py", "src/renamed.py"]);
    repo.git(&["mv", "src/rename_edit.py", "src/renamed_edit.py"]);
    repo.git(&["mv", "src/short.py", "src/brief.py"]);
    repo.write("src/brief.py", "a = 1\nb = 2\nc = 3\nd = 4\n");
    let edited_rename = block("rename_edit", 12).replace(
        "def rename_edit_12(argument): return argument * 12\n",
        "def rename_edit_12(argument): return argument * 144\n",
    );
    repo.write(
        "src/renamed_edit.py",
        &format!("{}{edited_rename}", lines("header", 3)),
    );
    repo.write("src/big.py", &keep);
    repo.write("src/split.py", &split_off);
    repo.write(
        "src/edited.py",
        &block("edited", 6).replace("return argument * 3", "return argument * 33"),
    );
    repo.write("src/copy.py", &block("original", 5));
    repo.write(
        "src/original.py",
        &format!("{}# touched\n", block("original", 5)),
    );
    repo.write(
        "src/shifted.py",
        &format!("{}{}", lines("inserted", 2), block("shifted", 6)),
    );
    repo.commit("2026-02-01T10:00:00Z", "restructure");

    // Deletions; lines moved into a file that was there; the split part and the merged
    // file renamed; the pull request's file added as it was.
    repo.git(&["rm", "--quiet", "src/doomed.py", "src/original.py"]);
    repo.write("src/source.py", &block("stays", 3));
    repo.write(
        "src/helpers.py",
        &format!("{}{}", block("helper", 3), block("leaves", 3)),
    );
    for folder in ["src/parts", "src/features"] {
        std::fs::create_dir_all(repo.path().join(folder)).expect("mkdir");
    }
    repo.git(&["mv", "src/split.py", "src/parts/split.py"]);
    repo.git(&["mv", "src/feature.py", "src/features/feature.py"]);
    repo.write("src/pr.py", &block("pr", 3));
    let deletion = repo.commit("2026-03-01T10:00:00Z", "cleanup");
    Gadget {
        repo,
        v1,
        feature,
        squashed,
        abandoned,
        deletion,
    }
}

/// A note holding one source per `(commit, path)`.
fn note(id: &str, pins: &[(&str, &str)]) -> String {
    let sources: String = pins
        .iter()
        .map(|(commit, path)| {
            format!(
                "  - url: {GADGET}\n    title: a pin\n    commit: {commit}\n    path: '{path}'\n    \
                 date: 2026-04-01\n"
            )
        })
        .collect();
    format!(
        "---\nid: {id}\ntitle: History cases\nkind: default-behaviour\nsummary: Pins.\n\
         capabilities:\n  - transports.sse\nclients:\n  - widget\nspecVersions:\n  - 2025-03-26\n\
         sources:\n{sources}status: current\nlastVerified: 2026-06-01\n---\n\nBody.\n"
    )
}

fn cache(repo: &Path, dir: &Path) -> Cache {
    let mut config = CacheConfig::new(dir.to_path_buf());
    config
        .map(&format!("{GADGET}={}", repo.display()))
        .expect("maps");
    config.offline = true;
    Cache::new(config)
}

/// One line per source: pinned path, state, where its lines are now.
fn describe(drift: &Drift<'_>, gadget: &Gadget) -> String {
    let mut line = format!("{} {}", drift.pinned.pinned_path(), drift.state.as_str());
    for range in &drift.ranges {
        if let (Some(file), Some(now)) = (&range.file, range.now) {
            let _ = write!(line, " -> {file}:{now}");
        }
        if let Some(closest) = &range.closest {
            let lines = closest.lines.map(|l| l.to_string()).unwrap_or_default();
            let _ = write!(
                line,
                " ~ {}:{lines} ({} of {} differ)",
                closest.file, closest.differing, closest.of
            );
        }
    }
    if let Some(commit) = &drift.gone_in {
        let name = match *commit == gadget.deletion {
            true => "the cleanup commit",
            false => commit.as_str(),
        };
        let _ = write!(line, " in {name}");
    }
    if let Some(reason) = &drift.reason {
        let _ = write!(line, " ({reason})");
    }
    line
}

#[test]
fn drift_follows_each_block_through_the_history() {
    let gadget = gadget();
    let v1 = gadget.v1.as_str();
    let site = TestSite::fixture("provenance");
    let pins = [
        (v1, "src/steady.py:2-3"),
        (v1, "src/shifted.py:2-4"),
        (v1, "src/rename.py:2-4"),
        (v1, "src/rename_edit.py:5-7"),
        (v1, "src/short.py:1-2"),
        (v1, "src/big.py:6-9"),
        (v1, "src/edited.py:2-4"),
        (v1, "src/doomed.py:2-3"),
        (v1, "src/original.py:1-4"),
        (v1, "src/source.py:4-6"),
        (v1, "src/steady.py:1,3-4"),
        (v1, "src/edited.py"),
        (v1, "src/rename.py"),
        (v1, "src/doomed.py"),
        (gadget.feature.as_str(), "src/feature.py:2-3"),
        (gadget.squashed.as_str(), "src/pr.py:1-2"),
        (gadget.abandoned.as_str(), "src/never.py:1-2"),
    ];
    site.write(
        "content/research/history-cases.md",
        &note("history-cases", &pins),
    );
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let report = drift(&index, &mut cache(gadget.repo.path(), cache_dir.path()));
    let described: Vec<String> = (report.sources.iter())
        .filter(|d| {
            d.pinned
                .source
                .url
                .as_ref()
                .is_some_and(|u| u.value == GADGET)
        })
        .map(|d| describe(d, &gadget))
        .collect();
    assert_eq!(
        described,
        [
            "src/steady.py:2-3 unchanged -> src/steady.py:2-3",
            "src/shifted.py:2-4 moved -> src/shifted.py:4-6",
            "src/rename.py:2-4 moved -> src/renamed.py:2-4",
            "src/rename_edit.py:5-7 moved -> src/renamed_edit.py:8-10",
            "src/short.py:1-2 moved -> src/brief.py:1-2",
            "src/big.py:6-9 moved -> src/parts/split.py:1-4",
            "src/edited.py:2-4 changed ~ src/edited.py:2-4 (1 of 3 differ)",
            "src/doomed.py:2-3 gone in the cleanup commit",
            "src/original.py:1-4 moved -> src/copy.py:1-4",
            "src/source.py:4-6 moved -> src/helpers.py:4-6",
            "src/steady.py:1,3-4 unchanged -> src/steady.py:1 -> src/steady.py:3-4",
            "src/edited.py changed",
            "src/rename.py moved",
            "src/doomed.py gone in the cleanup commit",
            "src/feature.py:2-3 moved -> src/features/feature.py:2-3",
            "src/pr.py:1-2 unchanged -> src/pr.py:1-2",
            "src/never.py:1-2 gone",
        ]
    );
    let whole = |path: &str| {
        (report.sources.iter())
            .find(|d| d.pinned.pinned_path() == path)
            .expect("the source")
    };
    let edited = whole("src/edited.py")
        .closest
        .as_ref()
        .expect("a closest match");
    assert_eq!((edited.differing, edited.of), (1, 6));
    assert_eq!(
        whole("src/rename.py").file_now.as_deref(),
        Some("src/renamed.py")
    );
}

#[test]
fn drift_walks_each_history_once_however_many_pins() {
    let gadget = gadget();
    let site = TestSite::fixture("provenance");
    let paths = ["src/rename.py:2-4", "src/doomed.py:2-3", "src/big.py:6-9"];
    for n in 0..20 {
        let pins: Vec<(&str, &str)> = (paths.iter())
            .map(|path| (gadget.v1.as_str(), *path))
            .chain([(gadget.feature.as_str(), "src/feature.py:2-3")])
            .collect();
        let id = format!("many-pins-{n:02}");
        site.write(&format!("content/research/{id}.md"), &note(&id, &pins));
    }
    // A `git` first on PATH that writes each command line down, then runs git.
    let wrapper = tempfile::tempdir().expect("temp dir");
    let log = wrapper.path().join("calls.log");
    let real = std::process::Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .expect("sh runs");
    let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
    let script = wrapper.path().join("git");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        wrapper.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let repo_arg = format!("{GADGET}={}", gadget.repo.path().display());
    let cache_arg = cache_dir.path().to_string_lossy().into_owned();
    let out = run_with(
        site.root(),
        &[
            "sources",
            "drift",
            "--repo",
            &repo_arg,
            "--cache",
            &cache_arg,
            "--offline",
        ],
        &[("PATH", &path)],
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert_eq!(
        table.matches("content/research/many-pins-").count(),
        80,
        "{table}"
    );
    let calls = std::fs::read_to_string(&log).expect("git was run");
    let gadget_calls: Vec<&str> = (calls.lines())
        .filter(|l| !l.contains("acme/widget") && !l.contains("widget"))
        .collect();
    let walks = gadget_calls.iter().filter(|l| l.contains(" log ")).count();
    assert_eq!(walks, 1, "{calls}");
    // Each object reader is two processes: `cat-file --batch-check` (sizes, first) and
    // `cat-file --batch` (contents within the limit).
    assert!(
        gadget_calls.len() <= 10,
        "{} git processes: {calls}",
        gadget_calls.len()
    );
}
