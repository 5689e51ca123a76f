//! Tests: `pin: fixed`, a source whose commit is the point of it. `sources bump` leaves it at
//! its commit and says why; drift reports where its lines went but files no finding, fails
//! no `--fail-on` and queues nothing for it.

use super::{mapped, sources_offline, TestSite};
use crate::support::today;
use fieldnotes::provenance::drift::{drift, State};
use fieldnotes::provenance::report::queue;
use std::fs;

/// The note whose source moved on the default branch (lines 5–8 are 8–11 on `main`).
const MOVED: &str = "content/research/widget-picks-streamable-http.md";
/// The note whose source changed on the default branch.
const CHANGED: &str = "content/research/widget-falls-back-on-rejection.md";

/// Adds `pin: fixed` under the `path:` of `note`'s source (and verifies the note lately, so
/// that only drift can queue it).
fn fix(site: &TestSite, note: &str, path: &str) {
    let text = fs::read_to_string(site.root().join(note)).expect("note");
    let line = format!("    path: {path}\n");
    assert!(text.contains(&line), "{text}");
    let text = text
        .replace(&line, &format!("{line}    pin: fixed\n"))
        .replace("lastVerified: 2026-06-01", "lastVerified: 2026-11-01");
    site.write(note, &text);
}

fn fixed_site() -> (TestSite, super::Widget) {
    let (site, widget) = super::fixture();
    fix(&site, MOVED, "src/transport.py:5-8");
    fix(&site, CHANGED, "src/errors.py:3-4");
    (site, widget)
}

#[test]
fn bump_leaves_a_fixed_pin_at_its_commit_and_says_so() {
    let (site, widget) = fixed_site();
    let before = fs::read_to_string(site.root().join(MOVED)).expect("note");
    let out = sources_offline(&site, &widget, &["bump"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The moved source would be re-pinned without `pin: fixed`; with it, it stays.
    assert_eq!(
        fs::read_to_string(site.root().join(MOVED)).expect("note"),
        before
    );
    let line = (stderr.lines())
        .find(|l| l.contains("widget-picks-streamable-http.md"))
        .unwrap_or_else(|| panic!("the fixed source is listed: {stderr}"));
    assert!(
        line.contains(": fixed: `pin: fixed`: the commit 457c9c4 is the point of this source")
            && line.contains("its lines moved on main"),
        "{line}"
    );
    let changed = (stderr.lines())
        .find(|l| l.contains("widget-falls-back-on-rejection.md"))
        .expect("the changed source is listed");
    assert!(
        changed.contains(": fixed: ") && changed.contains("its lines changed on main"),
        "{changed}"
    );
    assert!(stderr.contains("(2 `pin: fixed`)"), "{stderr}");
    // The other moved source is still re-pinned.
    let other = fs::read_to_string(
        site.root()
            .join("content/research/widget-default-transport-setting.md"),
    )
    .expect("note");
    assert!(other.contains(super::V2.get(..7).expect("hash")), "{other}");
}

#[test]
fn drift_reports_a_fixed_pin_without_a_finding_or_a_failure() {
    let (site, widget) = fixed_site();
    let table = sources_offline(&site, &widget, &["drift"]);
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let row = (table.lines())
        .find(|l| l.contains("widget-picks-streamable-http.md"))
        .expect("its row");
    assert!(
        row.starts_with("moved") && row.contains("src/transport.py:5-8 @ 457c9c4 (pin: fixed)"),
        "{row}"
    );
    assert!(row.contains("src/transport.py:8-11 @ 64a33dd"), "{row}");
    assert!(
        table.contains("; 2 of them `pin: fixed` (the commit is the point"),
        "{table}"
    );

    let json = sources_offline(&site, &widget, &["drift", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let sources = value["sources"].as_array().expect("sources");
    let source = |file: &str| {
        (sources.iter())
            .find(|s| s["file"] == file)
            .expect("the source")
    };
    assert_eq!(source(MOVED)["state"], "moved");
    assert_eq!(source(MOVED)["fixed"], true);
    assert_eq!(source(CHANGED)["state"], "changed");
    assert_eq!(
        source("content/research/widget-default-transport-setting.md")["fixed"],
        false
    );
    let findings: Vec<(&str, &str)> = (value["diagnostics"].as_array().expect("findings"))
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap_or_default(),
                d["code"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    // FN956 for the moved source that is not fixed; none for the fixed ones.
    assert!(
        findings.contains(&(
            "content/research/widget-default-transport-setting.md",
            "FN956"
        )),
        "{findings:?}"
    );
    assert!(
        !findings.iter().any(|(f, _)| *f == MOVED || *f == CHANGED),
        "{findings:?}"
    );
    // The only changed source is fixed: `--fail-on changed` passes.
    let fail = sources_offline(&site, &widget, &["drift", "--fail-on", "changed"]);
    assert_eq!(fail.status.code(), Some(0));
    let (unfixed, widget) = super::fixture();
    let fail = sources_offline(&unfixed, &widget, &["drift", "--fail-on", "changed"]);
    assert_eq!(fail.status.code(), Some(1));
}

#[test]
fn the_queue_does_not_queue_a_fixed_pin() {
    let (site, widget) = fixed_site();
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let report = drift(&index, &mut mapped(&widget, cache_dir.path()));
    let entries = queue(&index, &report, today());
    let entry = |id: &str| {
        (entries.iter())
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("{id} in the queue"))
    };
    for id in [
        "widget-picks-streamable-http",
        "widget-falls-back-on-rejection",
    ] {
        let e = entry(id);
        assert_eq!(
            (e.state, e.drifted, e.fixed, e.needs_person),
            (Some(State::Unchanged), 0, 1, false),
            "{id}"
        );
    }
    let other = entry("widget-default-transport-setting");
    assert_eq!((other.state, other.fixed), (Some(State::Moved), 0));
}
