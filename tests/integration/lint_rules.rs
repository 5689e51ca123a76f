//! Tests: lint rules. A fixture site per rule (`tests/fixtures/lint/<code>/`, copied over the
//! shared `_base/`), each snapshotted; the seed note; positions with a BOM and CRLF endings;
//! severities from `site.yaml`.

use crate::support::{codes_and_lines, copy_dir, fixtures, today, TestSite};
use fieldnotes::lint::rules;
use fieldnotes::{Diagnostic, Severity};
use std::fs;

/// Asserts an insta snapshot kept in `tests/snapshots/`.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../snapshots" }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}
pub(crate) use snapshot;

/// `_base` with the fixture folder `name` copied over it.
pub fn lint_site(name: &str) -> TestSite {
    let site = TestSite::fixture("lint/_base");
    copy_dir(&fixtures().join("lint").join(name), site.root());
    site
}

/// Replaces `from` with `to` in the site's `site.yaml`.
fn edit_config(site: &TestSite, from: &str, to: &str) {
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    assert!(config.contains(from), "{from}");
    site.write("site.yaml", &config.replace(from, to));
}

/// One line per finding (`FN101 error file:2:5-2:21 message`), its help indented below.
pub fn compact(findings: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in findings {
        out.push_str(&format!(
            "{} {} {}:{}:{}-{}:{} {}\n",
            d.code,
            d.severity.as_str(),
            d.file,
            d.line,
            d.column,
            d.end_line,
            d.end_column,
            d.message
        ));
        if let Some(help) = &d.help {
            out.push_str(&format!("    help: {help}\n"));
        }
    }
    out
}

#[test]
fn the_base_site_is_clean() {
    assert_eq!(compact(&lint_site("_base").lint()), "");
}

#[test]
fn every_rule_has_a_fixture_that_triggers_it() {
    let mut folders: Vec<String> = fs::read_dir(fixtures().join("lint"))
        .expect("fixtures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('_'))
        .collect();
    folders.sort();
    let codes: Vec<&str> = (rules::ALL.iter().filter(|r| r.in_lint()))
        .map(|r| r.meta.code)
        .collect();
    assert_eq!(
        folders, codes,
        "one fixture folder per rule, named by its code"
    );
    for code in &folders {
        let findings = lint_site(code).lint();
        assert!(
            findings.iter().any(|d| d.code == code),
            "fixture {code} reports no {code}:\n{}",
            compact(&findings)
        );
        snapshot!(code.as_str(), compact(&findings));
    }
}

#[test]
fn the_seed_note_reports_only_its_missing_related_notes() {
    let findings = lint_site("_seed").lint();
    assert_eq!(
        codes_and_lines(&findings),
        [("FN501", 35), ("FN501", 36), ("FN601", 61), ("FN601", 62)],
        "{}",
        compact(&findings)
    );
}

#[test]
fn a_bom_and_crlf_endings_shift_no_line_or_column() {
    let site = lint_site("_seed");
    let path = "content/research/openclaw-reads-only-the-transport-key.md";
    let position = |d: &Diagnostic| (d.code, d.line, d.column, d.end_line, d.end_column);
    let before: Vec<_> = site.lint().iter().map(position).collect();
    let text = fs::read_to_string(site.root().join(path)).expect("seed");
    site.write(path, &format!("\u{feff}{}", text.replace('\n', "\r\n")));
    let after: Vec<_> = site.lint().iter().map(position).collect();
    assert_eq!(before, after);
    assert_eq!(before.len(), 4);
}

#[test]
fn site_yaml_sets_severities_by_code_or_name() {
    let site = lint_site("_seed");
    let rules = "lint:\n  rules:\n    FN501: warning\n    broken-link: off\n";
    edit_config(&site, "lint:\n", rules);
    let findings = site.lint();
    assert_eq!(codes_and_lines(&findings), [("FN501", 35), ("FN501", 36)]);
    assert!(findings.iter().all(|d| d.severity == Severity::Warning));
}

#[test]
fn a_bad_severity_override_stops_the_run_at_its_line() {
    let site = lint_site("_base");
    edit_config(
        &site,
        "lint:\n",
        "lint:\n  rules:\n    no-such-rule: error\n",
    );
    match fieldnotes::check(site.root(), today()) {
        Err(fieldnotes::Error::Config { line, .. }) => {
            let text = fs::read_to_string(site.root().join("site.yaml")).expect("config");
            assert_eq!(text.lines().nth(line - 1), Some("    no-such-rule: error"));
        }
        other => panic!("expected a config error, got {other:?}"),
    }
}

#[test]
fn stale_after_days_comes_from_site_yaml() {
    let site = lint_site("FN304");
    edit_config(&site, "staleAfterDays: 180", "staleAfterDays: 400");
    assert!(site.lint().iter().all(|d| d.code != "FN304"));
}

#[test]
fn every_finding_says_what_to_do() {
    for rule in rules::ALL.iter().filter(|r| r.in_lint()) {
        for d in lint_site(rule.meta.code).lint() {
            assert!(
                d.help.as_deref().is_some_and(|h| !h.is_empty()),
                "{} has no help",
                d.code
            );
        }
    }
}

/// The YAML traps of front matter (issue 47): a value YAML would read as something other
/// than the text written is kept as written, and what YAML cannot keep is an error at its line.
mod yaml_traps {
    use super::*;

    const NOTE: &str = "content/research/cline-reads-the-type-key.md";

    /// The base site's note with `from` replaced by `to`, linted: the findings and the title.
    fn lint_with(from: &str, to: &str) -> (Vec<Diagnostic>, Option<String>) {
        let site = lint_site("_base");
        let text = fs::read_to_string(site.root().join(NOTE)).expect("note");
        assert!(text.contains(from), "{from}");
        site.write(NOTE, &text.replacen(from, to, 1));
        let (index, findings) = fieldnotes::check(site.root(), today()).expect("lint runs");
        let title = index.content.notes[0]
            .title
            .as_ref()
            .map(|t| t.value.clone());
        (findings, title)
    }

    const TITLE: &str = "title: Cline picks the transport by the entry's type key\n";

    #[test]
    fn words_yaml_1_1_read_as_booleans_or_numbers_stay_text() {
        for written in ["no", "on", "Yes", "off", "1.10", "0x1F", "2026-11-30", "~x"] {
            let (_, title) = lint_with(TITLE, &format!("title: {written}\n"));
            assert_eq!(title.as_deref(), Some(written), "title: {written}");
        }
    }

    #[test]
    fn a_comment_that_cuts_a_title_is_an_error_with_the_fix() {
        let (findings, title) = lint_with(TITLE, "title: Cline reads #42's type key\n");
        assert_eq!(title.as_deref(), Some("Cline reads"));
        let cut: Vec<_> = findings.iter().filter(|d| d.code == "FN014").collect();
        assert_eq!(cut.len(), 1, "{}", compact(&findings));
        assert_eq!((cut[0].line, cut[0].column), (3, 20));
        assert!(cut[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("double quotes"));
        // Quoted, or a `#` with no space before it, keeps the text and is clean.
        for fixed in [
            "title: \"Cline reads #42's type key\"\n",
            "title: Cline reads C#'s key\n",
        ] {
            let (findings, title) = lint_with(TITLE, fixed);
            assert!(!findings.iter().any(|d| d.code == "FN014"), "{fixed}");
            assert!(title.is_some_and(|t| t.contains('#')), "{fixed}");
        }
    }

    #[test]
    fn a_tab_indent_and_a_repeated_key_are_errors_at_their_line() {
        let (findings, _) = lint_with("capabilities:\n  - ", "capabilities:\n\t- ");
        assert_eq!(
            codes_and_lines(&findings),
            [("FN004", 7)],
            "{}",
            compact(&findings)
        );
        let (findings, _) = lint_with(TITLE, &format!("{TITLE}title: Another title\n"));
        assert_eq!(
            codes_and_lines(&findings),
            [("FN004", 4)],
            "{}",
            compact(&findings)
        );
    }
}
