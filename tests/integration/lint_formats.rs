//! Tests: lint output. One fixture in every format; SARIF and JUnit checked for shape; the
//! binary's exit status; pull-request focus (PATHs and `--changed-since` in a git repository);
//! `--explain`; `fieldnotes schema` and the schemas kept in `schemas/`. Submodules: every
//! format against its published schema and in print order (`validated`); the command-line
//! conventions (`conventions`); the GitHub Action, its install script and the release
//! workflow (`action`), its pull-request comment (`comment`) and the `fieldnotes` commands
//! every workflow runs (`workflow_commands`); editor set-up (`editors`).

mod action;
mod comment;
mod conventions;
mod editors;
mod validated;
mod workflow_commands;

use crate::lint_rules::{lint_site, snapshot};
use crate::support::TestSite;
use clap::ValueEnum;
use fieldnotes::cli::Format;
use fieldnotes::lint::format::{self, Report};
use fieldnotes::lint::rules;
use fieldnotes::Summary;
use std::path::Path;
use std::process::{Command, Output};

const TODAY: &str = "2026-11-30";

/// The `_formats` fixture (an error, a warning and an info) printed in `format`.
fn printed(format: Format) -> String {
    let site = lint_site("_formats");
    let (index, findings) = fieldnotes::check(site.root(), crate::support::today()).expect("opens");
    let report = Report {
        diagnostics: &findings,
        files: &index.files,
        summary: Summary::of(&findings, index.files.len()),
    };
    format::render(&report, format, false).replace(env!("CARGO_PKG_VERSION"), "[version]")
}

#[test]
fn one_fixture_in_every_format() {
    for format in Format::value_variants() {
        let name = format.to_possible_value().expect("named");
        snapshot!(format!("format_{}", name.get_name()), printed(*format));
    }
}

#[test]
fn json_findings_have_every_field() {
    let value: serde_json::Value = serde_json::from_str(&printed(Format::Json)).expect("json");
    let first = &value["diagnostics"][0];
    for field in [
        "code",
        "name",
        "severity",
        "file",
        "line",
        "column",
        "endLine",
        "endColumn",
        "message",
        "help",
    ] {
        assert!(!first[field].is_null(), "{field}");
    }
    assert_eq!(value["summary"]["errors"], 1);
    assert_eq!(value["summary"]["warnings"], 1);
    assert_eq!(value["summary"]["infos"], 1);
}

#[test]
fn sarif_lists_every_rule_and_points_results_at_them() {
    let sarif: serde_json::Value = serde_json::from_str(&printed(Format::Sarif)).expect("json");
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "fieldnotes");
    assert!(driver["informationUri"].is_string());
    let listed = driver["rules"].as_array().expect("rules");
    assert_eq!(listed.len(), rules::ALL.len());
    for rule in listed {
        for field in ["id", "name", "shortDescription", "fullDescription", "help"] {
            assert!(!rule[field].is_null(), "{field}");
        }
        assert!(rule["defaultConfiguration"]["level"].is_string());
    }
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 3);
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("index") as usize;
        assert_eq!(listed[index]["id"], result["ruleId"]);
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().expect("level")));
        let location = &result["locations"][0]["physicalLocation"];
        assert!(location["artifactLocation"]["uri"]
            .as_str()
            .expect("uri")
            .starts_with("content/"));
        assert!(location["region"]["startLine"].as_u64().expect("line") >= 1);
    }
}

#[test]
fn junit_has_a_case_per_finding_and_one_when_clean() {
    let xml = printed(Format::Junit);
    assert_eq!(xml.matches("<testcase ").count(), 3);
    assert_eq!(
        xml.matches("<failure ").count(),
        2,
        "errors and warnings fail"
    );
    assert!(xml.contains("50%-of-a&amp;b,c"), "text is escaped");
    let site = lint_site("_base");
    let out = run(site.root(), &["lint", "--format", "junit"]);
    let clean = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(clean.matches("<testcase ").count(), 1);
    assert!(!clean.contains("<failure"));
}

/// Runs the built binary in `dir` with `--today` fixed (after the command name).
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command.current_dir(dir).env_remove("SOURCE_DATE_EPOCH");
    command.args(&args[..1]);
    if args[0] == "lint" {
        command.args(["--today", TODAY]);
    }
    command.args(&args[1..]).output().expect("runs")
}

fn status(dir: &Path, args: &[&str]) -> i32 {
    run(dir, args).status.code().expect("exit code")
}

#[test]
fn exit_status_says_clean_findings_or_could_not_run() {
    assert_eq!(status(lint_site("_base").root(), &["lint"]), 0);
    assert_eq!(status(lint_site("_seed").root(), &["lint"]), 1);
    let warnings = lint_site("FN702");
    assert_eq!(status(warnings.root(), &["lint"]), 0);
    assert_eq!(status(warnings.root(), &["lint", "--deny-warnings"]), 1);
    let empty = TestSite::empty();
    assert_eq!(status(empty.root(), &["lint"]), 2, "no site");
    let base = lint_site("_base");
    assert_eq!(status(base.root(), &["lint", "--format", "xml"]), 2);
    assert_eq!(status(base.root(), &["lint", "--explain", "FN999"]), 2);
    assert_eq!(status(base.root(), &["lint", "no/such/file.md"]), 2);
    assert_eq!(
        status(base.root(), &["lint", "--changed-since", "HEAD"]),
        2,
        "not a git repository"
    );
}

#[test]
fn explain_prints_a_rules_documentation() {
    let base = lint_site("_base");
    let out = run(base.root(), &["lint", "--explain", "broken-link"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.starts_with("FN601 broken-link (error)"));
    assert!(
        text.contains("## What it flags") && text.contains("## Why") && text.contains("## Example")
    );
    let list = run(base.root(), &["lint", "--explain", "list"]);
    assert_eq!(
        String::from_utf8(list.stdout)
            .expect("utf-8")
            .lines()
            .count(),
        rules::ALL.len()
    );
}

/// `(file, code)` of each finding the binary prints as JSON.
fn reported(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    let out = run(dir, args);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    value["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().expect("file").to_string(),
                d["code"].as_str().expect("code").to_string(),
            )
        })
        .collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(f, c)| (f.to_string(), c.to_string()))
        .collect()
}

#[test]
fn paths_focus_the_report_on_their_files() {
    let site = lint_site("_formats");
    site.write("content/research/no-front-matter.md", "# Nothing\n");
    let found = reported(
        site.root(),
        &[
            "lint",
            "--format",
            "json",
            "content/research/no-front-matter.md",
        ],
    );
    assert_eq!(
        found,
        pairs(&[("content/research/no-front-matter.md", "FN002")])
    );
    let in_folder = reported(
        site.root(),
        &["lint", "--format", "json", "content/clients"],
    );
    assert!(in_folder.is_empty());
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Makes the site a git repository with everything committed.
fn commit_all(site: &TestSite) {
    git(site.root(), &["init", "-q"]);
    git(site.root(), &["add", "."]);
    git(site.root(), &["commit", "-q", "-m", "site"]);
}

/// `(file, code)` of what `lint --changed-since HEAD` reports, sorted.
fn changed_since_head(site: &TestSite) -> Vec<(String, String)> {
    let args = ["lint", "--format", "json", "--changed-since", "HEAD"];
    let mut found = reported(site.root(), &args);
    found.sort();
    found
}

#[test]
fn changed_since_reports_what_a_rename_broke_in_untouched_files() {
    let site = lint_site("_formats");
    // An untouched file with a finding the change did not cause.
    site.write(
        "content/research/old-draft.md",
        "---\nid: old-draft\n---\n\nAn old draft.\n",
    );
    commit_all(&site);
    let old = "content/research/cline-reads-the-type-key.md";
    let new = "content/research/cline-reads-the-type-field.md";
    git(site.root(), &["mv", old, new]);
    let text = std::fs::read_to_string(site.root().join(new)).expect("note");
    site.write(
        new,
        &text.replace("cline-reads-the-type-key", "cline-reads-the-type-field"),
    );
    site.write("content/research/new-note.md", "# An untracked note\n");
    assert_eq!(
        changed_since_head(&site),
        pairs(&[
            ("content/clients/hermes-agent.md", "FN804"),
            ("content/research/cline-keeps-sse-first.md", "FN501"),
            ("content/research/new-note.md", "FN002"),
        ])
    );
    let everything = reported(site.root(), &["lint", "--format", "json"]);
    assert!(everything.contains(&(
        "content/research/old-draft.md".to_string(),
        "FN007".to_string()
    )));
}

#[test]
fn changed_since_reports_links_to_a_deleted_note() {
    let site = lint_site("_base");
    site.write(
        "content/guides/transports.md",
        "---\ntitle: Transports\n---\n\nSee [the note](/research/cline-reads-the-type-key.md).\n",
    );
    commit_all(&site);
    site.remove("content/research/cline-reads-the-type-key.md");
    assert_eq!(
        changed_since_head(&site),
        pairs(&[
            ("content/clients/hermes-agent.md", "FN804"),
            ("content/guides/transports.md", "FN601"),
        ])
    );
}

#[test]
fn schemas_in_the_repository_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let index = fieldnotes::open(root).expect("the bundled site opens");
    for (kind, stem) in fieldnotes::front_matter_schema::DOCUMENTS {
        let name = fieldnotes::front_matter_schema::file_name(stem);
        let kept = std::fs::read_to_string(root.join("schemas").join(&name)).unwrap_or_default();
        let fresh = fieldnotes::front_matter_schema::to_text(
            &fieldnotes::front_matter_schema::schema(&index, kind),
        );
        assert!(
            kept == fresh,
            "schemas/{name} is stale: run `cargo run -- schema --out schemas` and commit it"
        );
    }
}

#[test]
fn schema_out_writes_three_schemas_with_the_sites_vocabularies() {
    let site = lint_site("_base");
    let out = run(site.root(), &["schema", "--out", "schemas"]);
    assert_eq!(out.status.code(), Some(0));
    for stem in ["note", "client", "capability"] {
        let path = site.root().join(format!("schemas/{stem}.schema.json"));
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("written")).expect("json");
        assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(schema["additionalProperties"], false);
    }
    let note = run(site.root(), &["schema", "note"]);
    let note: serde_json::Value = serde_json::from_slice(&note.stdout).expect("json");
    let clients = &note["properties"]["clients"]["items"]["enum"];
    assert_eq!(
        clients,
        &serde_json::json!(["cline", "hermes-agent", "openclaw"])
    );
    assert_eq!(
        note["properties"]["kind"]["enum"],
        serde_json::json!(["idiosyncrasy", "default-behaviour"])
    );
    assert!(note["required"]
        .as_array()
        .expect("required")
        .contains(&serde_json::json!("lastVerified")));
}

/// Checks that `out` is a refusal of `--changed-since`: exit status 2, nothing on standard
/// output, and one line on standard error that says `what`.
fn refused_in_one_line(out: &Output, what: &str) {
    let errors = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{errors}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(errors.lines().count(), 1, "{errors}");
    assert!(
        errors.starts_with("error: --changed-since ") && errors.contains(what),
        "{errors}"
    );
}

#[test]
fn changed_since_outside_git_or_with_an_unknown_revision_is_one_clear_line() {
    let site = lint_site("_base");
    let outside = run(site.root(), &["lint", "--changed-since", "HEAD"]);
    refused_in_one_line(&outside, "is not in a git work tree");
    commit_all(&site);
    let unknown = run(site.root(), &["lint", "--changed-since", "no-such-branch"]);
    refused_in_one_line(&unknown, "no commit `no-such-branch`");
    let blob = run(site.root(), &["lint", "--changed-since", "HEAD:site.yaml"]);
    refused_in_one_line(&blob, "no commit `HEAD:site.yaml`");
    let range = run(
        site.root(),
        &["lint", "--changed-since", "main...no-such-branch"],
    );
    refused_in_one_line(&range, "no commit `no-such-branch`");
}

#[test]
fn changed_since_takes_a_range_of_commits() {
    let site = lint_site("_base");
    commit_all(&site);
    site.write("content/research/new-note.md", "# A committed note\n");
    git(site.root(), &["add", "."]);
    git(site.root(), &["commit", "-q", "-m", "new note"]);
    site.write("content/research/untracked.md", "# Not committed\n");
    for range in ["HEAD~1...HEAD", "HEAD~1..HEAD", "HEAD~1..."] {
        let args = ["lint", "--format", "json", "--changed-since", range];
        let mut found = reported(site.root(), &args);
        found.sort();
        let expected = [("content/research/new-note.md", "FN002")];
        // Untracked files are always reported: they are not in any commit.
        let untracked = [("content/research/untracked.md", "FN002")];
        assert_eq!(found, pairs(&[expected, untracked].concat()), "{range}");
    }
}

#[test]
fn a_changed_since_revision_git_would_read_as_an_option_never_reaches_git() {
    let site = lint_site("_base");
    commit_all(&site);
    for rev in ["--output=written.txt", "-owritten.txt"] {
        let out = run(site.root(), &["lint", &format!("--changed-since={rev}")]);
        refused_in_one_line(&out, "not a revision");
        assert!(
            !site.root().join("written.txt").exists(),
            "{rev} wrote a file"
        );
    }
}

/// Whether `text` holds a character a terminal would act on rather than show (line breaks
/// aside).
pub(crate) fn has_controls(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[test]
fn the_human_format_shows_control_characters_in_content_escaped() {
    let site = lint_site("_base");
    let note = "content/research/cline-reads-the-type-key.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    let hostile = text.replacen(
        "  - cline\n",
        "  - \"cl\\e]0;pwned\\a\\u009b2J\\u202eine\"\n",
        1,
    ) + "\nSee \x1b[2J\u{9b}1m\u{202e} [x](/research/no-such-note.md) too.\n";
    site.write(note, &hostile);
    let out = run(site.root(), &["lint"]);
    let printed = String::from_utf8(out.stdout).expect("utf-8");
    assert!(!has_controls(&printed), "{printed:?}");
    assert!(
        printed.contains("client `cl\\u{1b}]0;pwned\\u{7}\\u{9b}2J\\u{202e}ine` does not exist"),
        "{printed}"
    );
    assert!(
        printed.contains("See \\u{1b}[2J\\u{9b}1m\\u{202e} [x]"),
        "the quoted line is escaped: {printed}"
    );
    // The frame's location is the finding's own line and column, not counted in the
    // escaped text; its underline is under the link.
    let json = run(site.root(), &["lint", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let link = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "FN601")
        .expect("the broken link");
    let location = format!("{note}:{}:{}\n", link["line"], link["column"]);
    assert!(printed.contains(&location), "{location} in {printed}");
    let quoted = printed
        .lines()
        .find(|l| l.contains("See \\u{1b}"))
        .expect("the quoted line");
    let marks = printed
        .lines()
        .skip_while(|l| *l != quoted)
        .nth(1)
        .expect("the underline");
    let link_at = quoted.find("(/research").map(|at| at + 1);
    assert_eq!(marks.find('^'), link_at, "{quoted}\n{marks}");
}

#[test]
fn the_human_format_escapes_control_characters_in_file_names() {
    let site = lint_site("_formats");
    let (index, mut findings) =
        fieldnotes::check(site.root(), crate::support::today()).expect("opens");
    findings.truncate(1);
    findings[0].file = "content/research/\x1b]0;pwned\x07.md".to_string();
    let report = Report {
        diagnostics: &findings,
        files: &index.files,
        summary: Summary::of(&findings, index.files.len()),
    };
    let printed = format::render(&report, Format::Human, false);
    assert!(!has_controls(&printed), "{printed:?}");
    assert!(
        printed.contains("--> content/research/\\u{1b}]0;pwned\\u{7}.md:"),
        "{printed}"
    );
}
