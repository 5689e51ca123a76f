//! Tests: the command line's conventions. Paths relative to the repository or the current
//! folder whatever `--root` is; `site.yaml` found from below; `--color` and the colour
//! variables; `-q` and `-v`; `--explain` alone; `--report` for several formats in one run;
//! lint never imports the CLI.

use super::git;
use crate::lint_rules::lint_site;
use std::path::Path;
use std::process::{Command, Output};

const TODAY: &str = "2026-11-30";

/// Runs the binary in `dir` with `args` (`--today` added after `lint`) and `env` set, with no
/// colour variable inherited.
fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command.current_dir(dir).env_remove("SOURCE_DATE_EPOCH");
    for name in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let lint = args.iter().position(|a| *a == "lint");
    match lint {
        Some(at) => command
            .args(&args[..=at])
            .args(["--today", TODAY])
            .args(&args[at + 1..]),
        None => command.args(args),
    };
    command.output().expect("runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

/// The file of each finding the JSON or concise output names.
fn first_path(out: &Output) -> String {
    let text = stdout(out);
    text.lines()
        .next()
        .expect("a finding")
        .split(':')
        .next()
        .expect("path")
        .to_string()
}

const NOTE: &str = "content/research/cline-keeps-sse-first.md";

#[test]
fn paths_lead_to_their_files_whatever_root_is() {
    let outer = tempfile::tempdir().expect("temp");
    let site = lint_site("_formats");
    let repo = outer.path().join("repo");
    std::fs::create_dir_all(repo.join("tools")).expect("mkdir");
    crate::support::copy_dir(site.root(), &repo.join("site"));
    let concise = ["lint", "--format", "concise"];
    let github = ["lint", "--format", "github"];
    // Not a repository: relative to the current folder, through `..` or from an absolute root.
    let tools = repo.join("tools");
    let absolute = repo.join("site");
    let absolute = absolute.to_str().expect("utf-8 path");
    for args in [["--root", "../site"], ["--root", absolute]] {
        let out = run_env(&tools, &[&args[..], &concise[..]].concat(), &[]);
        assert_eq!(first_path(&out), format!("../site/{NOTE}"), "{args:?}");
    }
    let out = run_env(
        &repo,
        &["--root", "site", "lint", "--format", "concise"],
        &[],
    );
    assert_eq!(first_path(&out), format!("site/{NOTE}"));
    // A repository: CI formats from its top level, people's formats from the current folder.
    git(&repo, &["init", "-q"]);
    let content = repo.join("site/content");
    for root in ["..", absolute] {
        let out = run_env(
            &content,
            &[&["--root", root][..], &github[..]].concat(),
            &[],
        );
        assert!(
            stdout(&out).starts_with(&format!("::error file=site/{NOTE},line=29")),
            "{root}: {}",
            stdout(&out)
        );
        let out = run_env(
            &content,
            &[&["--root", root][..], &concise[..]].concat(),
            &[],
        );
        assert_eq!(first_path(&out), NOTE.trim_start_matches("content/"));
    }
    let sarif = run_env(
        &tools,
        &["--root", "../site", "lint", "--format", "sarif"],
        &[],
    );
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("sarif");
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"],
        format!("site/{NOTE}")
    );
}

#[test]
fn the_site_is_found_from_a_folder_below_it() {
    let site = lint_site("_formats");
    let research = site.root().join("content/research");
    let out = run_env(&research, &["lint", "--format", "concise"], &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(first_path(&out), "cline-keeps-sse-first.md");
    let verbose = run_env(&research, &["-v", "lint", "--format", "json"], &[]);
    let said = String::from_utf8_lossy(&verbose.stderr);
    assert!(
        said.contains("site: ../.. (site.yaml found above the current folder)"),
        "{said}"
    );
    let nowhere = tempfile::tempdir().expect("temp");
    let out = run_env(nowhere.path(), &["lint"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no site.yaml in") && said.contains("--root DIR"),
        "{said}"
    );
}

fn coloured(env: &[(&str, &str)], flag: Option<&str>) -> bool {
    let site = lint_site("_formats");
    let mut args = vec!["lint"];
    args.extend(flag.map(|f| ["--color", f]).iter().flatten());
    let out = run_env(site.root(), &args, env);
    stdout(&out).contains('\u{1b}')
}

#[test]
fn colour_follows_the_flag_then_the_environments_conventions() {
    assert!(!coloured(&[], None), "a pipe is plain");
    assert!(coloured(&[], Some("always")));
    assert!(!coloured(&[("FORCE_COLOR", "1")], Some("never")));
    assert!(coloured(&[("FORCE_COLOR", "1")], None));
    assert!(coloured(&[("CLICOLOR_FORCE", "1")], None));
    assert!(!coloured(&[("CLICOLOR_FORCE", "0")], None));
    assert!(!coloured(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")], None));
    assert!(
        coloured(&[("FORCE_COLOR", "1"), ("NO_COLOR", "")], None),
        "an empty NO_COLOR is unset"
    );
    assert!(coloured(&[("NO_COLOR", "1")], Some("always")));
}

#[test]
fn quiet_prints_errors_only_and_verbose_says_more() {
    let site = lint_site("_formats");
    let quiet = run_env(site.root(), &["lint", "-q", "--format", "concise"], &[]);
    assert_eq!(quiet.status.code(), Some(1));
    assert_eq!(
        stdout(&quiet)
            .lines()
            .map(|l| l.split(' ').nth(2).unwrap_or(""))
            .collect::<Vec<_>>(),
        ["FN601"],
        "the error alone, no summary: {}",
        stdout(&quiet)
    );
    let json = run_env(site.root(), &["-q", "lint", "--format", "json"], &[]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(
        json["diagnostics"].as_array().expect("list").len(),
        3,
        "reports stay whole"
    );
    let verbose = run_env(site.root(), &["lint", "--verbose"], &[]);
    assert!(String::from_utf8_lossy(&verbose.stderr).contains("checked 7 files in"));
    let clean = lint_site("_base");
    for args in [
        &["-q", "schema", "--out", "out-schemas"][..],
        &["build", "--quiet", "--out", "out-site", "--today", TODAY],
        &["new", "-q", "client", "new-client"],
    ] {
        let out = run_env(clean.root(), args, &[]);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    let both = run_env(site.root(), &["lint", "-q", "-v"], &[]);
    assert_eq!(both.status.code(), Some(2), "-q and -v conflict");
}

#[test]
fn explain_without_a_code_lists_the_rules() {
    let site = lint_site("_base");
    let out = run_env(site.root(), &["lint", "--explain"], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert_eq!(text.lines().count(), fieldnotes::lint::rules::ALL.len());
    assert!(text.starts_with("FN001  unreadable-file"));
}

#[test]
fn one_run_writes_several_reports() {
    let site = lint_site("_formats");
    let out = run_env(
        site.root(),
        &[
            "lint",
            "--format",
            "github",
            "--report",
            "sarif=reports/out.sarif",
            "--report",
            "markdown=summary.md",
        ],
        &[],
    );
    assert!(out.status.code() == Some(2), "a missing folder is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("reports/out.sarif"));
    std::fs::create_dir(site.root().join("reports")).expect("mkdir");
    let out = run_env(
        site.root(),
        &[
            "lint",
            "--format",
            "github",
            "--report",
            "sarif=reports/out.sarif",
            "--report",
            "markdown=summary.md",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("::error "));
    let sarif = std::fs::read_to_string(site.root().join("reports/out.sarif")).expect("sarif");
    assert!(serde_json::from_str::<serde_json::Value>(&sarif).is_ok());
    let summary = std::fs::read_to_string(site.root().join("summary.md")).expect("markdown");
    assert!(summary.starts_with("### fieldnotes lint: 1 error"));
    let leftovers: Vec<_> = std::fs::read_dir(site.root().join("reports"))
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(leftovers, ["out.sarif"], "no temporary file left");
    let bad = run_env(site.root(), &["lint", "--report", "xml=x"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no format `xml`"));
}

#[test]
fn lint_does_not_import_the_command_line() {
    let lint = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lint");
    for entry in walkdir::WalkDir::new(&lint) {
        let entry = entry.expect("walk");
        if entry.path().extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(entry.path()).expect("read");
            assert!(
                !text.contains("crate::cli"),
                "{} imports the CLI: lint's types are its own",
                entry.path().display()
            );
        }
    }
}
