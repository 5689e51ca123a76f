//! Tests: note pages say whether each source holds. With a drift report
//! (`build --sources REPORT.json`) a source holds, moved (to where), changed, is gone, is
//! broken, or could not be checked; with `build --excerpts` its pin is verified, broken or
//! could not be checked; a source that could not be checked never looks checked. (Links at
//! the full hash once it resolved: `render::citations`' unit tests, for forges it links into.)

use super::{build_with_excerpts, fixture, mapped, run};
use crate::support::today;
use fieldnotes::provenance::drift::drift;
use fieldnotes::provenance::report::drift_json;
use std::fs;

/// The `<span class="source-status …">` of the page's sources, as (state, checked, label).
fn statuses(html: &str) -> Vec<(String, String, String)> {
    html.split("<span class=\"source-status source-status-")
        .skip(1)
        .map(|rest| {
            let state = rest.split('"').next().expect("a state").to_string();
            let checked = rest
                .split("data-checked=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .expect("data-checked")
                .to_string();
            let label = rest
                .split_once('>')
                .and_then(|(_, r)| r.split('<').next())
                .expect("a label")
                .to_string();
            (state, checked, label)
        })
        .collect()
}

fn one(state: &str, checked: bool, label: &str) -> (String, String, String) {
    (state.to_string(), checked.to_string(), label.to_string())
}

#[test]
fn with_a_drift_report_each_source_says_where_its_lines_are() {
    let (site, widget) = fixture();
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let report = drift(&index, &mut mapped(&widget, cache_dir.path()));
    let json = drift_json(&index, &report);
    let report_file = site.root().join("drift.json");
    fs::write(&report_file, json).expect("write");
    // Edited since the report: the report does not say anything about it as it is now.
    let edited = "content/research/widget-connects-by-transport.md";
    let text = fs::read_to_string(site.root().join(edited)).expect("note");
    site.write(
        edited,
        &text.replace("src/transport.py:8-11,14-17", "src/transport.py:8-11"),
    );

    let mut options = fieldnotes::BuildOptions::new(site.root().to_path_buf(), site.out());
    options.today = today();
    options.sources_report = Some(report_file);
    let built = fieldnotes::build(&options).expect("builds");
    assert!(built.written);
    let page = |id: &str| statuses(&site.output(&format!("research/{id}.html")));
    let (head, gone) = ("64a33dd", "64a33dd");
    assert_eq!(
        page("widget-picks-streamable-http"),
        [one(
            "moved",
            true,
            &format!("moved: now src/transport.py:8-11 on main ({head})")
        )]
    );
    assert_eq!(
        page("widget-falls-back-on-rejection"),
        [one(
            "changed",
            true,
            &format!("changed on main ({head}): closest src/errors.py:3-4, 1 of 2 lines differ")
        )]
    );
    assert_eq!(
        page("widget-documented-sse"),
        [one(
            "gone",
            true,
            &format!("gone from main: deleted in {gone}")
        )]
    );
    let connects = page("widget-connects-by-transport");
    assert_eq!(connects[0].0, "unchecked");
    assert_eq!(connects[0].1, "false");
    assert!(
        connects[0].2.starts_with("not checked: the drift report"),
        "{connects:?}"
    );
    assert_eq!(connects[1].0, "unchanged");
    let broken = page("widget-broken-pins");
    let states: Vec<&str> = broken.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        states,
        ["broken", "broken", "broken", "broken", "unchecked"]
    );
    let md = site.output("research/widget-picks-streamable-http.md");
    assert!(
        md.contains(" — moved: now src/transport.py:8-11 on main"),
        "{md}"
    );
}

#[test]
fn build_with_excerpts_verifies_each_pin_and_marks_what_it_could_not_check() {
    let (site, widget) = fixture();
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let options = build_with_excerpts(&site, &widget, cache_dir.path(), true);
    assert!(fieldnotes::build(&options).expect("builds").written);
    let picks = statuses(&site.output("research/widget-picks-streamable-http.html"));
    assert_eq!(
        picks,
        [one(
            "verified",
            true,
            "pin verified: its commit, file and lines exist"
        )]
    );
    let broken = statuses(&site.output("research/widget-broken-pins.html"));
    let unchecked = broken.last().expect("the last source");
    assert_eq!(
        (unchecked.0.as_str(), unchecked.1.as_str()),
        ("unchecked", "false")
    );
    assert!(unchecked
        .2
        .starts_with("not checked: https://git.test/acme/elsewhere"));
    assert!(broken[..4]
        .iter()
        .all(|s| s.0 == "broken" && s.2.starts_with("broken pin: ")));
    // Without a report or excerpts, pages say nothing about it.
    site.build();
    assert!(statuses(&site.output("research/widget-picks-streamable-http.html")).is_empty());
}

#[test]
fn a_report_that_cannot_be_read_stops_the_build_naming_it() {
    let (site, _widget) = fixture();
    for (content, why) in [
        (None, "No such file"),
        (Some("{\"x\": 1}"), "no `sources` list"),
    ] {
        if let Some(content) = content {
            site.write("report.json", content);
        }
        let out = run(
            site.root(),
            &["build", "--sources", "report.json", "--today", "2026-11-30"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--sources report.json: "), "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
    }
}
