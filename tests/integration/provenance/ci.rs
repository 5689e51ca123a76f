//! Tests: pins in CI. `sources verify` and `sources drift` look only at the files changed
//! since a revision, print in every lint format, and fail on the drift states named; a short
//! hash of a pull request's commit is found in `refs/pull/*`.

use super::widget::WIDGET;
use super::{fixture, json_codes, run, run_with, sources_offline, TestSite};
use std::fs;
use std::process::Output;

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn drift_prints_findings_in_lint_formats_and_fails_on_the_states_named() {
    let (site, widget) = fixture();
    let github = sources_offline(&site, &widget, &["drift", "--format", "github"]);
    let annotations = text(&github);
    assert_eq!(github.status.code(), Some(0), "{annotations}");
    for (level, file, code) in [
        ("notice", "widget-picks-streamable-http", "FN956"),
        ("warning", "widget-falls-back-on-rejection", "FN957"),
        ("warning", "widget-documented-sse", "FN958"),
        ("error", "widget-broken-pins", "FN951"),
    ] {
        let start = format!("::{level} file=content/research/{file}.md,line=");
        let line = annotations
            .lines()
            .find(|l| l.starts_with(&start) && l.contains(code))
            .unwrap_or_else(|| panic!("{start}…{code} in {annotations}"));
        assert!(line.contains(code), "{line}");
    }
    assert!(
        annotations.contains("src/errors.py:3-4 @ 457c9c4 changed on main: src/errors.py:3-4"),
        "{annotations}"
    );

    let json = sources_offline(&site, &widget, &["drift", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(value["summary"]["changed"], 1);
    let codes: Vec<&str> = (value["diagnostics"].as_array().expect("diagnostics").iter())
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"FN957") && codes.contains(&"FN952"),
        "{codes:?}"
    );
    let sarif = sources_offline(&site, &widget, &["drift", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("sarif");
    assert_eq!(sarif["version"], "2.1.0");
    for format in ["human", "junit"] {
        let out = sources_offline(&site, &widget, &["drift", "--format", format]);
        assert!(text(&out).contains("FN958"), "{format}: {}", text(&out));
    }

    let fail = |states: &str| {
        (sources_offline(&site, &widget, &["drift", "--fail-on", states]).status).code()
    };
    assert_eq!(fail("changed,gone"), Some(1));
    assert_eq!(fail("broken"), Some(1));
    assert_eq!(fail("moved"), Some(1));
    let out = sources_offline(
        &site,
        &widget,
        &["drift", "--fail-on", "changed,gone", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
}

/// The site's folder made a git repository, all of it committed.
fn committed(site: &TestSite) {
    let git = |args: &[&str]| {
        let out = super::widget::git_command("2026-04-01T10:00:00Z")
            .current_dir(site.root())
            .args(args)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "--quiet", "-b", "main"]);
    git(&["add", "--all"]);
    git(&["commit", "--quiet", "-m", "site"]);
}

#[test]
fn verify_and_drift_look_only_at_the_files_changed() {
    let (site, widget) = fixture();
    committed(&site);
    // Nothing changed: nothing to check, which is no failure.
    let out = sources_offline(
        &site,
        &widget,
        &["verify", "--changed-since", "HEAD", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(json_codes(&out).is_empty());
    // One note changed: only its sources are checked.
    let note = "content/research/widget-broken-pins.md";
    let body = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(note, &format!("{body}\nOne more line.\n"));
    let out = sources_offline(
        &site,
        &widget,
        &["verify", "--changed-since", "HEAD", "--format", "json"],
    );
    assert_eq!(
        json_codes(&out),
        ["FN951", "FN952", "FN953", "FN954", "FN955"]
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.starts_with("5 pinned sources"), "{summary}");
    let out = sources_offline(&site, &widget, &["drift", "--changed-since", "HEAD"]);
    let table = text(&out);
    assert!(table.contains("5 pinned sources"), "{table}");
    assert!(!table.contains("widget-falls-back-on-rejection"), "{table}");
    // A revision that is not one is refused as lint refuses it.
    let out = sources_offline(&site, &widget, &["drift", "--changed-since", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--changed-since nope"));
}

#[test]
fn a_pull_requests_commit_is_found_and_flagged_as_on_no_branch() {
    let (site, widget) = fixture();
    // A commit only `refs/pull/9/head` holds: a clone of the branches does not have it.
    widget
        .repo
        .git(&["checkout", "--quiet", "--detach", super::widget::V1]);
    widget.repo.write("src/pr.py", "PR = 9\n");
    let pr = widget.repo.commit("2026-04-02T10:00:00Z", "pull request 9");
    widget.repo.git(&["update-ref", "refs/pull/9/head", &pr]);
    widget.repo.git(&["checkout", "--quiet", "main"]);
    let note = "content/research/widget-picks-streamable-http.md";
    let body = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &body
            .replace("commit: 457c9c41", &format!("commit: {}", &pr[..9]))
            .replace("src/transport.py:5-8", "src/pr.py:1"),
    );
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    // A `file://` URL: git clones through its transport, so the clone holds only what the
    // branches and tags reach, as a clone from GitHub would.
    let from = format!("url.file://{}.insteadOf", widget.repo.path().display());
    let env = [
        ("GIT_CONFIG_COUNT", "1"),
        ("GIT_CONFIG_KEY_0", from.as_str()),
        ("GIT_CONFIG_VALUE_0", WIDGET),
    ];
    let args = [
        "sources",
        "verify",
        "--format",
        "json",
        "--cache",
        &cache_arg,
        "--timeout",
        "10",
    ];
    let out = run_with(site.root(), &args, &env);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let in_note: Vec<&serde_json::Value> = (value["diagnostics"].as_array().expect("list"))
        .iter()
        .filter(|d| d["file"] == note)
        .collect();
    // Found (no FN951), and flagged: only the pull request's head leads to it (FN959).
    let codes: Vec<&str> = in_note.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["FN959"], "{in_note:?}");
    let message = in_note[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("refs/pull/9/head"), "{message}");
    // The same commit on a branch is no finding.
    widget.repo.git(&["branch", "merged", &pr]);
    let out = run_with(site.root(), &args, &env);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let in_note = (value["diagnostics"].as_array().expect("list").iter())
        .filter(|d| d["file"] == note)
        .count();
    assert_eq!(in_note, 0, "{value}");
}

#[test]
fn a_blob_url_at_a_commit_is_a_pin_of_its_own() {
    let (site, widget) = fixture();
    let github = "https://github.com/acme/widget";
    let v1 = super::widget::V1;
    let source = |lines: &str| {
        format!(
            "  - url: {github}/blob/{}/src/transport.py#{lines}\n    title: pinned by its url\n",
            &v1[..10]
        )
    };
    let note = fs::read_to_string(
        site.root()
            .join("content/research/widget-documented-sse.md"),
    )
    .expect("note");
    let note = note
        .replace("id: widget-documented-sse", "id: widget-url-pins")
        .replace(
            "sources:\n",
            &format!("sources:\n{}{}", source("L5-L8"), source("L18-L40")),
        );
    site.write("content/research/widget-url-pins.md", &note);
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let repo = widget.repo.path().display().to_string();
    let maps = [format!("{WIDGET}={repo}"), format!("{github}={repo}")];
    let run_sources = |command: &[&str]| {
        let mut args = vec!["sources"];
        args.extend(command);
        args.extend([
            "--repo", &maps[0], "--repo", &maps[1], "--cache", &cache_arg,
        ]);
        args.push("--offline");
        run(site.root(), &args)
    };
    let out = run_sources(&["verify", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let in_note: Vec<(&str, u64)> = (value["diagnostics"].as_array().expect("list").iter())
        .filter(|d| d["file"] == "content/research/widget-url-pins.md")
        .map(|d| {
            (
                d["code"].as_str().expect("code"),
                d["line"].as_u64().expect("line"),
            )
        })
        .collect();
    assert_eq!(
        in_note,
        [("FN954", 15)],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run_sources(&["drift", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let first = (value["sources"].as_array().expect("sources").iter())
        .find(|s| s["file"] == "content/research/widget-url-pins.md")
        .expect("the url's pin");
    assert_eq!(first["state"], "moved");
    assert_eq!(first["ranges"][0]["now"], "8-11");
    let out = run_sources(&["bump", "--dry-run"]);
    let left = String::from_utf8_lossy(&out.stderr);
    assert!(
        left.contains("widget-url-pins.md:13: moved: its `url` pins it"),
        "{left}"
    );
}

/// The example workflow (`examples/workflows/drift.yml`) is YAML, runs weekly, and each
/// `fieldnotes` command it runs is one fieldnotes takes, with the JSON its issue is made from.
#[test]
fn the_example_drift_workflow_runs_commands_fieldnotes_takes() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workflows/drift.yml");
    let text = fs::read_to_string(&path).expect("the example workflow");
    let workflow: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
    assert!(workflow["on"]["schedule"][0]["cron"].is_string());
    assert_eq!(workflow["permissions"]["issues"], "write");
    let commands: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("fieldnotes sources"))
        .collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let (site, widget) = fixture();
    for command in commands {
        let words: Vec<&str> = command
            .split(['>', '|'])
            .next()
            .expect("a command")
            .split_whitespace()
            .skip(1)
            .map(|w| if w == "\"$ROOT\"" { "." } else { w })
            // (`sources` runs offline with the widget mapped.)
            .filter(|w| *w != "--offline")
            .collect();
        let out = sources_offline(&site, &widget, &words[1..]);
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if command.contains("queue") {
            let queue: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
            assert!(queue["count"]["needPerson"].is_number());
            assert!(queue["queue"][0]["needsPerson"].is_boolean());
        }
    }
}

/// A commit one digit off, checked `--offline` against a seeded cache, is an error naming the
/// fix: offline, a hash the cache lacks cannot be told from a typo (issue 47).
#[test]
fn an_offline_verify_fails_a_commit_the_cache_lacks() {
    let (site, widget) = fixture();
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let from = format!("url.file://{}.insteadOf", widget.repo.path().display());
    let env = [
        ("GIT_CONFIG_COUNT", "1"),
        ("GIT_CONFIG_KEY_0", from.as_str()),
        ("GIT_CONFIG_VALUE_0", WIDGET),
    ];
    let verify = |offline: bool| {
        let mut args = vec![
            "sources", "verify", "--format", "json", "--cache", &cache_arg,
        ];
        if offline {
            args.extend(["--offline", "--deny-warnings"]);
        }
        run_with(site.root(), &args, &env)
    };
    let note = "content/research/widget-picks-streamable-http.md";
    let in_note = |out: &Output| -> Vec<serde_json::Value> {
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        (report["diagnostics"].as_array().expect("list").iter())
            .filter(|d| d["file"] == note)
            .cloned()
            .collect()
    };
    // Seed the cache; the note's pins hold, online and offline.
    assert_eq!(in_note(&verify(false)), Vec::<serde_json::Value>::new());
    assert_eq!(in_note(&verify(true)), Vec::<serde_json::Value>::new());
    let body = fs::read_to_string(site.root().join(note)).expect("note");
    let pinned = "commit: 457c9c41";
    assert!(body.contains(pinned), "the fixture pins {pinned}");
    site.write(note, &body.replace(pinned, "commit: 457c9c42"));
    let out = verify(true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let findings = in_note(&out);
    assert_eq!(findings.len(), 1, "{findings:?}");
    let finding = &findings[0];
    assert_eq!(
        (finding["code"].as_str(), finding["severity"].as_str()),
        (Some("FN951"), Some("error")),
        "{finding}"
    );
    let message = finding["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("457c9c42") && message.contains("without --offline"),
        "{message}"
    );
}
