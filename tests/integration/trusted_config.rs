//! Tests: a pull request does not set the rules of its own check, and review output is inert
//! and fits GitHub (SECURITY.md, issue 40 classes 2 and 7). Each test is a repository built
//! here: the provenance fixture in `site/` committed as the base, then the work tree edited as
//! a hostile pull request would.

use crate::provenance::run_with;
use crate::provenance::widget::Repo;
use crate::support::{copy_dir, fixtures};
use fieldnotes::lint::format::review_markdown_problems as problems;
use serde_json::Value;
use std::fs;
use std::process::Output;

/// A repository with the provenance fixture in `site/`, its site.yaml given `extra` lines,
/// committed; and that commit.
fn repository(extra: &str) -> (Repo, String) {
    let repo = Repo::init();
    copy_dir(&fixtures().join("provenance"), &repo.path().join("site"));
    let yaml = repo.path().join("site/site.yaml");
    let text = fs::read_to_string(&yaml).expect("site.yaml");
    fs::write(&yaml, format!("{text}{extra}")).expect("write");
    let base = repo.commit("2026-01-05T10:00:00Z", "the site");
    (repo, base)
}

fn fieldnotes(repo: &Repo, args: &[&str]) -> Output {
    let mut all = vec!["--root", "site"];
    all.extend(args);
    run_with(repo.path(), &all, &[])
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The findings of `lint --format json ARGS`, as (code, file, line).
fn findings(repo: &Repo, args: &[&str]) -> Vec<(String, String, u64)> {
    let mut all = vec!["lint", "--format", "json", "--today", "2026-11-30"];
    all.extend(args);
    let out = fieldnotes(repo, &all);
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (value["diagnostics"].as_array().expect("findings").iter())
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

const NOTE: &str = "site/content/research/widget-documented-sse.md";

/// A hostile pull request's site.yaml: each guarded setting loosened.
const LOOSENED: &str = "  rules:\n    broken-link: off\nlimits:\n  maxFileBytes: 99999999\n  \
                        maxRenderSteps: 999999999999\nmarkdown:\n  unsafeHtml: true\n";

#[test]
fn a_pull_request_cannot_loosen_the_settings_of_its_own_check() {
    let (repo, base) = repository("limits:\n  maxFileBytes: 40000\n  maxRenderSteps: 1000000\n");
    let yaml = fs::read_to_string(repo.path().join("site/site.yaml")).expect("site.yaml");
    // The pull request: a broken link, a note past the base's file cap, and a site.yaml that
    // switches the one off, raises the other and loosens the rest.
    let note = fs::read_to_string(repo.path().join(NOTE)).expect("note");
    let padding = "Padding. ".repeat(5000);
    repo.write(
        NOTE,
        &format!("{note}\nSee [gone](widget-no-such-note).\n\n{padding}\n"),
    );
    let head = yaml
        .replace(
            "  staleAfterDays: 180\n",
            &format!("  staleAfterDays: 180\n{LOOSENED}"),
        )
        .replace(
            "limits:\n  maxFileBytes: 40000\n  maxRenderSteps: 1000000\n",
            "",
        );
    repo.write("site/site.yaml", &head);
    // Without --config-from the pull request's settings hold: neither finding shows.
    let own = findings(&repo, &[]);
    assert!(
        !own.iter()
            .any(|(code, ..)| code == "FN601" || code == "FN009"),
        "{own:?}"
    );
    for rev in [base.as_str(), "main", "HEAD"] {
        let checked = findings(&repo, &["--config-from", rev]);
        let codes: Vec<&str> = checked.iter().map(|(c, ..)| c.as_str()).collect();
        // The note is past the base's 40,000 bytes: not read, so its link is not checked.
        assert!(codes.contains(&"FN009"), "{rev}: {checked:?}");
        let loosened: Vec<u64> = (checked.iter())
            .filter(|(code, file, _)| code == "FN013" && file == "site/site.yaml")
            .map(|(.., line)| *line)
            .collect();
        let line_of = |key: &str| {
            (head.lines().position(|l| l.trim_start().starts_with(key))).expect(key) as u64 + 1
        };
        assert_eq!(
            loosened,
            [
                line_of("broken-link:"),
                line_of("maxFileBytes:"),
                line_of("maxRenderSteps:"),
                line_of("unsafeHtml:")
            ],
            "{rev}: {checked:?}"
        );
    }
    // Within the base's cap, the broken link the pull request switched off is reported.
    repo.write(NOTE, &format!("{note}\nSee [gone](widget-no-such-note).\n"));
    let checked = findings(&repo, &["--config-from", &base]);
    assert!(
        checked.iter().any(|(code, ..)| code == "FN601"),
        "{checked:?}"
    );
    // Tightening is taken and is no finding: a lower cap, a stricter rule.
    repo.write(
        "site/site.yaml",
        &yaml.replace("maxFileBytes: 40000", "maxFileBytes: 100"),
    );
    let checked = findings(&repo, &["--config-from", &base]);
    assert!(
        !checked.iter().any(|(code, ..)| code == "FN013"),
        "{checked:?}"
    );
    assert!(
        checked.iter().any(|(code, ..)| code == "FN009"),
        "{checked:?}"
    );
    // A revision that is not one is refused in one line, exit 2.
    for bad in ["-x", "no-such-branch"] {
        let flag = format!("--config-from={bad}");
        let out = fieldnotes(&repo, &["lint", &flag]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--config-from"), "{}", stderr(&out));
    }
}

#[test]
fn diff_lists_every_change_to_settings_templates_themes_and_scripts() {
    let (repo, base) = repository("");
    let yaml = fs::read_to_string(repo.path().join("site/site.yaml")).expect("site.yaml");
    repo.write(
        "site/site.yaml",
        &yaml.replace(
            "  staleAfterDays: 180\n",
            &format!("  staleAfterDays: 180\n{LOOSENED}"),
        ),
    );
    repo.write("site/templates/page.html", "{{ page.body | safe }}\n");
    repo.write(
        "site/themes/mine/static/app.js",
        "fetch('https://t.example')\n",
    );
    repo.write("site/static/tracker.svg", "<svg onload=alert(1)/>\n");
    let out = fieldnotes(&repo, &["diff", "--base", &base, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let files: Vec<(&str, &str, &str)> = (value["settings"]["files"].as_array().expect("files"))
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default(),
                f["change"].as_str().unwrap_or_default(),
                f["kind"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            ("site.yaml", "changed", "settings"),
            ("static/tracker.svg", "added", "script"),
            ("templates/page.html", "added", "template"),
            ("themes/mine/static/app.js", "added", "script"),
        ]
    );
    let keys: Vec<(&str, bool)> = (value["settings"]["keys"].as_array().expect("keys"))
        .iter()
        .map(|k| (k["key"].as_str().unwrap_or_default(), k["loosens"] == true))
        .collect();
    assert_eq!(
        keys,
        [
            ("limits.maxFileBytes", true),
            ("limits.maxRenderSteps", true),
            ("lint.rules.broken-link", true),
            ("markdown.unsafeHtml", true),
        ]
    );
    let markdown = stdout(&fieldnotes(&repo, &["diff", "--base", &base]));
    assert!(
        markdown.starts_with("### fieldnotes diff: 8 settings or site files changed"),
        "{markdown}"
    );
    for row in [
        "| `markdown.unsafeHtml` | — | `true` | ⚠️ loosens",
        "| `static/tracker.svg` | added | script |",
        "| `templates/page.html` | added | template |",
    ] {
        assert!(markdown.contains(row), "{row}\n{markdown}");
    }
    assert_eq!(problems(&markdown), Vec::<String>::new());
}

/// Text a hostile contributor puts where review output quotes it.
const HOSTILE: &str = "\u{202e}exe.txt ![px](https://track.example/p.png) \
                       [x](https://evil.example) <details><img src=x> @acme/maintainers \
                       www.evil.example";

#[test]
fn review_markdown_is_inert_and_fits_github() {
    let (repo, base) = repository("");
    // 150 notes with hostile titles and a broken hostile link each; one cell's status moved
    // and another's evidence changed, so that the diff folds a `<details>`.
    let note = fs::read_to_string(repo.path().join(NOTE)).expect("note");
    for i in 0..150 {
        let text = note
            .replace("id: widget-documented-sse", &format!("id: hostile-{i}"))
            .replace(
                "title: Widget's old docs called SSE the default",
                &format!("title: \"{} {i}\"", HOSTILE.replace('"', "'")),
            );
        repo.write(
            &format!("site/content/research/hostile-{i}.md"),
            &format!("{text}\n{HOSTILE}\n\n[see](/research/no-such-note-{i})\n"),
        );
    }
    let client = "site/content/clients/widget.md";
    let text = fs::read_to_string(repo.path().join(client)).expect("client");
    repo.write(
        client,
        &text
            .replacen("    status: yes\n", "    status: partial\n", 1)
            .replace(
                "title: Widget\n",
                &format!("title: \"{}\"\n", HOSTILE.replace('"', "'")),
            ),
    );
    for cap in ["60000", "4500"] {
        let out = fieldnotes(&repo, &["diff", "--base", &base, "--max-bytes", cap]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let markdown = stdout(&out);
        assert!(
            markdown.len() <= cap.parse().expect("a number"),
            "{}",
            markdown.len()
        );
        assert!(markdown.contains("more"), "{cap}: says what it left out");
        assert_eq!(problems(&markdown), Vec::<String>::new(), "{markdown}");
        assert!(markdown.contains("<U+202E>"), "bidi controls shown by name");
    }
    // lint's job summary: the table's messages quote the links.
    let summary = repo.path().join("summary.md");
    let report = format!("markdown={}", summary.display());
    let out = fieldnotes(
        &repo,
        &["lint", "--today", "2026-11-30", "--report", &report],
    );
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    let markdown = fs::read_to_string(&summary).expect("the summary");
    assert!(markdown.contains("FN601"), "{markdown}");
    assert!(markdown.len() <= 60_000, "{}", markdown.len());
    assert_eq!(problems(&markdown), Vec::<String>::new(), "{markdown}");
}

/// `build --config-from REV` holds a preview build of a pull request to the base's settings
/// through the same code as lint: a site.yaml that switches unsafeHtml on or raises a limit
/// is error FN013 at its line and nothing is written; without the flag the pull request's
/// raw `<script>` reaches the page; a site.yaml that only tightens builds.
#[test]
fn a_preview_build_cannot_loosen_the_settings_either() {
    let (repo, base) = repository("limits:\n  maxRenderSteps: 1000000\n");
    let yaml = fs::read_to_string(repo.path().join("site/site.yaml")).expect("site.yaml");
    let note = fs::read_to_string(repo.path().join(NOTE)).expect("note");
    repo.write(NOTE, &format!("{note}\n<script>alert(1)</script>\n"));
    let loosened = format!(
        "{}markdown:\n  unsafeHtml: true\n",
        yaml.replace("maxRenderSteps: 1000000", "maxRenderSteps: 999999999999")
    );
    repo.write("site/site.yaml", &loosened);
    let build = |extra: &[&str]| {
        let out_dir = tempfile::tempdir().expect("temp dir");
        let out_arg = out_dir.path().join("public");
        let out_arg = out_arg.to_string_lossy().into_owned();
        let mut args = vec!["build", "--today", "2026-11-30", "--out", &out_arg];
        args.extend(extra);
        let out = fieldnotes(&repo, &args);
        let page = out_dir
            .path()
            .join("public/research/widget-documented-sse.html");
        (out, fs::read_to_string(page).ok())
    };
    // The pull request's own settings: its script reaches the page.
    let (out, page) = build(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(page.expect("written").contains("<script>alert(1)"));
    // Held to the base: both loosenings named at their lines, nothing written.
    let (out, page) = build(&["--config-from", &base]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(page.is_none(), "nothing is written");
    for key in ["maxRenderSteps", "unsafeHtml"] {
        let line = loosened.lines().position(|l| l.contains(key)).expect(key) + 1;
        assert!(
            err.contains(&format!("--> site.yaml:{line}:")),
            "{key}: {err}"
        );
    }
    assert_eq!(err.matches("FN013").count(), 2, "{err}");
    // Tightening is taken: the build writes, and the script stays escaped.
    repo.write(
        "site/site.yaml",
        &yaml.replace("maxRenderSteps: 1000000", "maxRenderSteps: 900000"),
    );
    let (out, page) = build(&["--config-from", &base]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!page.expect("written").contains("<script>alert(1)"));
    // A revision that is not one is refused in one line, exit 2.
    let (out, _) = build(&["--config-from", "no-such-branch"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
