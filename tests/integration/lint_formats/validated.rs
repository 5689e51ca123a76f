//! Every machine format against the schema its readers publish (vendored in
//! `tests/schemas/`, origins in its README), every format in print order (errors first), and
//! the parts readers track a finding by: SARIF fingerprints and help pages.

mod xsd;

use super::{printed, run};
use crate::lint_rules::lint_site;
use clap::ValueEnum;
use fieldnotes::cli::Format;
use fieldnotes::lint::format::help;
use fieldnotes::lint::rules;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

fn json_file(name: &str) -> Value {
    let text = std::fs::read_to_string(schemas().join(name)).expect("vendored schema");
    serde_json::from_str(&text).expect("schema is JSON")
}

/// Asserts that `instance` is valid against `schema`, listing every error.
fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    let validator = jsonschema::validator_for(schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} is invalid:\n{}",
        errors.join("\n")
    );
}

fn printed_json(format: Format) -> Value {
    serde_json::from_str(&printed(format)).expect("the format is JSON")
}

#[test]
fn every_format_prints_errors_then_warnings_then_infos() {
    // The fixture's error (FN601) is on the last line, its info (FN504) between: file order
    // would print the warning first.
    for format in Format::value_variants() {
        let text = match format {
            // The SARIF driver lists every rule first; results follow.
            Format::Sarif => printed(*format)
                .split("\"tool\"")
                .next()
                .expect("results")
                .to_string(),
            _ => printed(*format),
        };
        let at = |code: &str| {
            text.find(code)
                .unwrap_or_else(|| panic!("{format:?}: {code}"))
        };
        assert!(
            at("FN601") < at("FN702") && at("FN702") < at("FN504"),
            "{format:?} is not in print order:\n{text}"
        );
    }
}

#[test]
fn sarif_is_valid_sarif_2_1_0_with_fingerprints_and_help_pages() {
    let sarif = printed_json(Format::Sarif);
    assert_valid(&json_file("sarif-schema-2.1.0.json"), &sarif, "SARIF");
    for rule in sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
    {
        let code = rule["id"].as_str().expect("id");
        assert_eq!(rule["helpUri"], help::uri(code));
    }
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let fingerprints: Vec<&str> = results
        .iter()
        .map(|r| {
            r["partialFingerprints"]["fieldnotes/v1"]
                .as_str()
                .expect("fingerprint")
        })
        .collect();
    let mut unique = fingerprints.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), results.len(), "one fingerprint per finding");
    assert_eq!(
        printed_json(Format::Sarif)["runs"][0]["results"][0]["partialFingerprints"],
        results[0]["partialFingerprints"],
        "the same run gives the same fingerprints"
    );
}

#[test]
fn sarif_fingerprints_survive_lines_added_above() {
    let site = lint_site("_formats");
    let fingerprints = |site: &crate::support::TestSite| {
        let out = run(site.root(), &["lint", "--format", "sarif"]);
        let sarif: Value = serde_json::from_slice(&out.stdout).expect("sarif");
        let results = sarif["runs"][0]["results"]
            .as_array()
            .expect("results")
            .clone();
        results
            .iter()
            .map(|r| (r["ruleId"].clone(), r["partialFingerprints"].clone()))
            .collect::<Vec<_>>()
    };
    let before = fingerprints(&site);
    let note = "content/research/cline-keeps-sse-first.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    let body = text.rfind("\n\n").expect("a paragraph");
    site.write(
        note,
        &format!("{}\n\nA new paragraph.{}", &text[..body], &text[body..]),
    );
    assert_eq!(fingerprints(&site), before);
}

#[test]
fn every_rule_has_a_current_help_page() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(help::DOCS_DIR);
    let update = std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for rule in rules::ALL {
        let path = dir.join(help::file_name(rule.meta.code));
        let fresh = help::page(rule.meta);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(fresh.as_str()) {
            if update {
                std::fs::create_dir_all(&dir).expect("mkdir");
                std::fs::write(&path, fresh).expect("write");
            } else {
                stale.push(rule.meta.code);
            }
        }
        let uri = help::uri(rule.meta.code);
        assert!(uri.ends_with(&format!(
            "/{}/{}",
            help::DOCS_DIR,
            help::file_name(rule.meta.code)
        )));
    }
    let pages = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    assert!(
        stale.is_empty() && pages == rules::ALL.len(),
        "{}/ is stale ({stale:?}, {pages} pages for {} rules): run `UPDATE_DOCS=1 cargo test \
         --test integration every_rule_has_a_current_help_page` and commit it",
        help::DOCS_DIR,
        rules::ALL.len()
    );
}

/// JUnit against the structure of `junit-10.xsd`, read from the schema itself; `.ci/run`
/// also runs xmllint on the same output, for all of the schema (value patterns, order).
#[test]
fn junit_is_valid_against_junit_10_xsd() {
    let xsd = std::fs::read_to_string(schemas().join("junit-10.xsd")).expect("vendored schema");
    let schema = xsd::Schema::read(&xsd);
    let site = lint_site("_base");
    let clean = run(site.root(), &["lint", "--format", "junit"]).stdout;
    for xml in [
        printed(Format::Junit),
        String::from_utf8(clean).expect("utf-8"),
    ] {
        let errors = schema.errors(&xml);
        assert!(errors.is_empty(), "{}\n{xml}", errors.join("\n"));
    }
    let findings = printed(Format::Junit);
    for (broken, why) in [
        (
            findings.replace("classname=", "line=\"3\" classname="),
            "testcase: takes no attribute `line`",
        ),
        (
            findings.replacen("<testsuite name=", "<testsuite suite=", 1),
            "testsuite: needs the attribute `name`",
        ),
        (
            findings
                .replacen("<testcase ", "<properties><testcase ", 1)
                .replacen("</testcase>", "</testcase></properties>", 1),
            "properties: may not hold `testcase`",
        ),
    ] {
        let errors = schema.errors(&broken);
        assert!(errors.iter().any(|e| e == why), "{why}: {errors:?}");
    }
}

#[test]
fn gitlab_is_valid_code_quality() {
    let issues = printed_json(Format::Gitlab);
    let schema = json_file("gitlab-codeclimate.json");
    let issues = issues.as_array().expect("an array of issues");
    assert_eq!(issues.len(), 3);
    let mut fingerprints = Vec::new();
    for issue in issues {
        assert_valid(&schema, issue, "a Code Quality issue");
        assert!(["info", "minor", "major", "critical", "blocker"]
            .contains(&issue["severity"].as_str().expect("severity")));
        assert!(issue["check_name"]
            .as_str()
            .expect("check")
            .starts_with("FN"));
        assert!(issue["location"]["path"]
            .as_str()
            .expect("path")
            .starts_with("content/"));
        assert!(issue["location"]["lines"]["begin"].as_u64().expect("line") >= 1);
        fingerprints.push(
            issue["fingerprint"]
                .as_str()
                .expect("fingerprint")
                .to_string(),
        );
    }
    fingerprints.dedup();
    assert_eq!(fingerprints.len(), 3, "unique fingerprints");
}

#[test]
fn rdjson_is_valid_for_reviewdog_with_byte_columns() {
    let result = printed_json(Format::Rdjson);
    assert_valid(
        &json_file("reviewdog-DiagnosticResult.json"),
        &result,
        "rdjson",
    );
    assert_eq!(result["source"]["name"], "fieldnotes");
    let first = &result["diagnostics"][0];
    assert_eq!(first["severity"], "ERROR");
    assert_eq!(first["code"]["value"], "FN601");
    assert_eq!(first["code"]["url"], help::uri("FN601"));
    // A line of multi-byte characters before a broken link: rdjson counts bytes.
    let site = lint_site("_base");
    let note = "content/research/cline-reads-the-type-key.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    site.write(note, &format!("{text}\nÉté → [gone](/research/gone.md)\n"));
    let out = run(site.root(), &["lint", "--format", "rdjson"]);
    let result: Value = serde_json::from_slice(&out.stdout).expect("json");
    let start = &result["diagnostics"][0]["location"]["range"]["start"];
    assert_eq!(start["column"], "Été → [gone](".len() + 1, "{result}");
    let json = run(site.root(), &["lint", "--format", "json"]);
    let json: Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(
        json["diagnostics"][0]["column"],
        "Été → [gone](".chars().count() + 1
    );
}

#[test]
fn concise_is_one_line_per_finding() {
    let text = printed(Format::Concise);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "content/research/cline-keeps-sse-first.md:29:177: error FN601 link to research note \
         `50%-of-a&b,c`, which does not exist"
    );
    assert_eq!(lines.len(), 4, "three findings and the summary");
    assert_eq!(lines[3], "1 error, 1 warning, 1 info in 7 files");
}

#[test]
fn markdown_counts_and_tables_the_first_findings() {
    let text = printed(Format::Markdown);
    assert!(text.starts_with("### fieldnotes lint: 1 error, 1 warning, 1 info in 7 files\n"));
    assert_eq!(
        text.matches("\n| ").count(),
        5,
        "header, rule and three rows:\n{text}"
    );
    let site = lint_site("_base");
    let note = "content/research/cline-reads-the-type-key.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    let links: String = (0..60)
        .map(|i| format!("[x](/research/gone-{i}.md)\n"))
        .collect();
    site.write(note, &format!("{text}\n{links}"));
    let out = run(site.root(), &["lint", "--format", "markdown"]);
    let table = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(table.matches("| 🔴 error |").count(), 50);
    assert!(table.contains("…and 10 more"), "{table}");
}

#[test]
fn github_says_when_it_shows_only_some_annotations() {
    assert!(!printed(Format::Github).contains("GitHub shows the first"));
    let site = lint_site("_base");
    let note = "content/research/cline-reads-the-type-key.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    let links: String = (0..12)
        .map(|i| format!("[x](/research/gone-{i}.md)\n"))
        .collect();
    site.write(note, &format!("{text}\n{links}"));
    let out = run(site.root(), &["lint", "--format", "github"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.matches("::error ").count(), 12);
    assert!(
        text.ends_with("GitHub shows the first 10 annotations of each kind: 2 more findings are in this log above, and in the job summary\n"),
        "{text}"
    );
}

#[test]
fn concise_lines_show_control_characters_escaped() {
    let site = lint_site("_base");
    let note = "content/research/cline-reads-the-type-key.md";
    let text = std::fs::read_to_string(site.root().join(note)).expect("note");
    let kind = text
        .lines()
        .find(|l| l.starts_with("kind: "))
        .expect("a kind");
    site.write(note, &text.replace(kind, "kind: \"odd\\e[2J\""));
    let out = run(site.root(), &["lint", "--format", "concise"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("odd\\u{1b}[2J"), "{text}");
}
