//! Tests: the scripts the write jobs run on artifacts that read-only jobs (running third-party
//! code) left behind, run here with bash against hostile artifacts.

use super::repo;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn bash(script: &str, args: &[&Path], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(repo().join(".github/scripts").join(script))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("bash runs")
}

/// A checkout (with content/observations/old.md) and an artifact holding `files` (relative
/// paths and contents) plus a report.
fn artifact(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkout = dir.path().join("checkout");
    fs::create_dir_all(checkout.join("content/observations")).expect("mkdir");
    fs::write(checkout.join("content/observations/old.md"), "old\n").expect("write");
    for (path, text) in files {
        let at = dir.path().join("observations").join(path);
        fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
        fs::write(at, text).expect("write");
    }
    fs::create_dir_all(dir.path().join("observations")).expect("mkdir");
    fs::create_dir_all(dir.path().join("report")).expect("mkdir");
    fs::write(dir.path().join("report/lint.txt"), "clean\n").expect("write");
    dir
}

fn take(dir: &Path, env: &[(&str, &str)]) -> Output {
    bash(
        "take-artifact.sh",
        &[&dir.join("observations"), &dir.join("report")],
        &dir.join("checkout"),
        env,
    )
}

/// Every file of the checkout's content/observations/, by name.
fn taken(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walk(&dir.join("checkout/content/observations"));
    names.sort();
    names
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        match path.is_dir() {
            true => out.extend(walk(&path)),
            false => out.push(
                path.file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned(),
            ),
        }
    }
    out
}

/// What a hostile read-only job adds to its artifact.
#[cfg(unix)]
type Hostile = Box<dyn Fn(&Path)>;

#[cfg(unix)]
#[test]
fn the_write_job_takes_only_plain_observation_files_within_its_caps() {
    let good = artifact(&[
        ("content/observations/codex-0.1.0-stdio.md", "obs\n"),
        ("content/observations/codex-0.1.0-stdio.jsonl", "{}\n"),
    ]);
    let out = take(good.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        taken(good.path()),
        ["codex-0.1.0-stdio.jsonl", "codex-0.1.0-stdio.md", "old.md"]
    );

    let hostile: Vec<(&str, Hostile, &str)> = vec![
        (
            "a file outside content/observations",
            Box::new(|d: &Path| write(d, "observations/tools/observe/observe.py", "x")),
            "outside content/observations",
        ),
        (
            "a workflow in the artifact",
            Box::new(|d: &Path| write(d, "observations/.github/workflows/x.yml", "x")),
            "outside content/observations",
        ),
        (
            "a hidden name",
            Box::new(|d: &Path| write(d, "observations/content/observations/.git/config", "x")),
            "not plain",
        ),
        (
            "a name with a line break",
            Box::new(|d: &Path| write(d, "observations/content/observations/a\nb.md", "x")),
            "not plain",
        ),
        (
            "a symlink to a secret",
            Box::new(|d: &Path| {
                std::os::unix::fs::symlink(
                    "/etc/passwd",
                    d.join("observations/content/observations/link.md"),
                )
                .expect("symlink")
            }),
            "neither files nor folders",
        ),
        (
            "a FIFO",
            Box::new(|d: &Path| {
                let status = Command::new("mkfifo")
                    .arg(d.join("observations/content/observations/fifo.md"))
                    .status()
                    .expect("mkfifo");
                assert!(status.success());
            }),
            "neither files nor folders",
        ),
        (
            "a file past the cap",
            Box::new(|d: &Path| {
                write(
                    d,
                    "observations/content/observations/big.md",
                    &"x".repeat(2000),
                )
            }),
            "more than 1000",
        ),
        (
            "a report with an extra file",
            Box::new(|d: &Path| write(d, "report/run.sh", "x")),
            "not only observed.jsonl",
        ),
    ];
    for (what, make, expected) in hostile {
        let dir = artifact(&[("content/observations/fine.md", "obs\n")]);
        make(dir.path());
        let out = take(dir.path(), &[("MAX_FILE_BYTES", "1000")]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what}: taken\n{stderr}");
        assert!(stderr.contains(expected), "{what}: {stderr}");
        assert_eq!(taken(dir.path()), ["old.md"], "{what}: nothing is copied");
    }
    // Too many files, and too many bytes in all.
    let many = artifact(&[
        ("content/observations/a.md", "1234"),
        ("content/observations/b.md", "1234"),
        ("content/observations/c.md", "1234"),
    ]);
    let out = take(many.path(), &[("MAX_FILES", "2")]);
    assert!(!out.status.success());
    let out = take(many.path(), &[("MAX_TOTAL_BYTES", "10")]);
    assert!(!out.status.success());
    assert_eq!(taken(many.path()), ["old.md"]);
}

fn write(dir: &Path, path: &str, text: &str) {
    let at = dir.join(path);
    fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
    fs::write(at, text).expect("write");
}

/// The largest body a GitHub issue, pull request or comment takes, in characters.
const GITHUB_MAX_CHARS: usize = 65_536;

#[cfg(unix)]
#[test]
fn the_submit_comment_fits_github_whatever_fieldnotes_printed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let result = dir.path();
    // What a 64 KB hostile form could make fieldnotes print, and worse: long lines, many
    // lines, characters of several bytes, a fence and a tag that would open if unquoted.
    let long_line = format!("error: form.md:3: {}\n", "é<details>".repeat(30_000));
    let many_lines =
        "```\n<details><summary>x</summary>\n![t](https://t.example/p.png) @team www.x.io\n"
            .repeat(40_000);
    fs::write(
        result.join("submit.txt"),
        format!("{long_line}{many_lines}"),
    )
    .expect("write");
    fs::write(result.join("lint.txt"), many_lines.repeat(2)).expect("write");
    fs::write(result.join("submitted"), "1\n").expect("write");
    fs::write(result.join("linted"), "1\n").expect("write");
    for mode in ["comment", "pr"] {
        let out = bash(
            "review-text.sh",
            &[Path::new(mode), result],
            result,
            &[("NUMBER", "12"), ("PR", "")],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("UTF-8, no character cut in two");
        assert!(
            text.chars().count() < GITHUB_MAX_CHARS,
            "{mode}: {} characters",
            text.chars().count()
        );
        assert!(
            text.contains("more lines left out"),
            "{mode}: says what was left out"
        );
        // Every quoted line is an indented code block line: nothing in it renders.
        for line in text
            .lines()
            .filter(|l| l.contains("details") || l.contains("@team"))
        {
            assert!(line.starts_with("    "), "{mode}: unquoted: {line}");
        }
    }
}
