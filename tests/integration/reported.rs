//! Tests: self-reports. A shared list of what vendors say their clients support
//! (`content/lists/<id>.yaml`) becomes cells of method `reported`: shown where a client's map
//! is silent, named beside stronger evidence, listed on `/disagreements` where that evidence
//! says no; lint checks the list; drift reads a list removed upstream at its last version.

use crate::lint_rules::compact;
use crate::provenance::fixture;
use crate::provenance::widget::{V1, V2, WIDGET};
use crate::support::TestSite;
use fieldnotes::provenance::drift::{drift, State};
use fieldnotes::provenance::Holder;

/// A list reporting, on the basic fixture: Alpha calls tools (docs say yes there too), Beta
/// calls tools (a pinned source says no), Gamma has Streamable HTTP in part (its map is
/// silent).
const LIST: &str = r#"title: Vendor list
url: https://github.com/example/lists
commit: 1234567abcdef1234567abcdef1234567abcdef1
path: clients.mdx
features:
  Tools: tools.call
  HTTP: transports.streamableHttp
reports:
  client-a: {name: Alpha, line: 3, supports: [Tools]}
  client-b: {name: Beta, line: 5, supports: [Tools]}
  client-c: {name: Gamma, line: 7, supports: ["HTTP (partial)"]}
"#;

fn site_with_list() -> TestSite {
    let site = TestSite::fixture("basic");
    site.write("content/lists/vendor.yaml", LIST);
    site
}

#[test]
fn a_report_fills_a_silent_cell_as_reported_and_stands_beside_stronger_evidence() {
    let site = site_with_list();
    assert_eq!(compact(&site.lint()), "");
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    let cell = |client: &str, cap: &str| matrix["support"][client][cap].clone();
    let gamma = cell("client-c", "transports.streamableHttp");
    assert_eq!(gamma["status"], "partial");
    assert_eq!(gamma["evidence"]["method"], "reported");
    assert_eq!(gamma["evidence"]["reported"], serde_json::json!(["vendor"]));
    let alpha = cell("client-a", "tools.call");
    assert_eq!(alpha["status"], "yes");
    assert_eq!(alpha["evidence"]["method"], "docs");
    assert_eq!(alpha["evidence"]["reported"], serde_json::json!(["vendor"]));
    let beta = cell("client-b", "tools.call");
    assert_eq!(
        (beta["status"].as_str(), beta["evidence"]["method"].as_str()),
        (Some("no"), Some("source"))
    );

    let home = site.output("index.html");
    assert!(
        home.contains(r#"data-client="client-c" data-status="partial" data-evidence="reported""#)
    );
    let csv = site.output("api/matrix.csv");
    assert!(
        csv.contains("client-c,transports.streamableHttp,partial,reported,"),
        "{csv}"
    );

    let page = site.output("clients/client-c.html");
    assert!(
        page.contains("Self-reported, not checked here"),
        "the weakest says so"
    );
    assert!(page.contains("https://github.com/example/lists/blob/1234567abcdef1234567abcdef1234567abcdef1/clients.mdx#L7"));
    let alpha_page = site.output("clients/client-a.html");
    assert!(
        alpha_page.contains("Also self-reported"),
        "named beside the docs"
    );
}

#[test]
fn the_disagreement_page_lists_a_report_that_stronger_evidence_contradicts_with_both() {
    let site = site_with_list();
    site.build();
    let page = site.output("disagreements.html");
    let rows: Vec<&str> = page.split("<tr>").skip(2).collect();
    assert_eq!(rows.len(), 1, "only Beta's tools: {page}");
    let row = rows[0];
    assert!(row.contains(r#"href="/clients/client-b""#));
    assert!(row.contains("<strong>no</strong>"), "the evidence here");
    assert!(row.contains("4567def"), "its pinned source");
    assert!(row.contains("clients.mdx#L5"), "the report's line");
    assert!(site
        .output("clients/client-b.html")
        .contains("Disagrees with the evidence here"));
}

#[test]
fn lint_flags_an_unknown_client_feature_or_capability_in_a_list() {
    let site = TestSite::fixture("basic");
    let list = LIST
        .replace("HTTP: transports.streamableHttp", "HTTP: transports.nope")
        .replace(
            "client-b: {name: Beta, line: 5, supports: [Tools]}",
            "client-z: {name: Zed, line: 5, supports: [Tools, Prompts]}",
        );
    site.write("content/lists/vendor.yaml", &list);
    let findings = site.lint();
    let mut codes: Vec<(&str, usize)> = findings.iter().map(|d| (d.code, d.line)).collect();
    codes.sort();
    assert_eq!(
        codes,
        [("FN004", 10), ("FN203", 10), ("FN801", 7)],
        "{}",
        compact(&findings)
    );
}

#[test]
fn drift_reads_a_list_removed_upstream_at_its_last_version_and_flags_a_changed_line() {
    let (site, widget) = fixture();
    // docs/old.md is deleted by v2: read at v1 on purpose. src/errors.py line 4 changes in v2.
    let removed = format!(
        "url: {WIDGET}\ncommit: {V1}\npath: docs/old.md\nremovedBy: {V2}\nfeatures:\n  SSE: transports.sse\nreports:\n  widget: {{line: 3, supports: [SSE]}}\n"
    );
    let live = format!(
        "url: {WIDGET}\ncommit: {V1}\npath: src/errors.py\nfeatures:\n  HTTP: transports.streamableHttp\nreports:\n  widget: {{line: 4, supports: [HTTP]}}\n"
    );
    site.write("content/lists/removed.yaml", &removed);
    site.write("content/lists/live.yaml", &live);
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let mut config =
        fieldnotes::provenance::cache::CacheConfig::new(cache_dir.path().to_path_buf());
    config
        .map(&format!("{WIDGET}={}", widget.repo.path().display()))
        .expect("maps");
    config.offline = true;
    let mut cache = fieldnotes::provenance::cache::Cache::new(config);
    let report = drift(&index, &mut cache);
    let of_list = |id: &str| {
        let d = (report.sources.iter())
            .find(|d| match d.pinned.holder {
                Holder::Report(r) => index.content.lists[index.content.reports[r].list].id == id,
                _ => false,
            })
            .expect("the report's source");
        (d.state, d.fixed_drift())
    };
    assert_eq!(of_list("live"), (State::Changed, false));
    assert_eq!(of_list("removed"), (State::Gone, true));
    let table = fieldnotes::provenance::report::drift_table(&index, &report);
    assert!(table.contains("(removed upstream at 64a33dd)"), "{table}");
    let findings = fieldnotes::lint::lint_drift(&index, &report).expect("runs");
    let lists: Vec<(&str, String)> = (findings.iter())
        .filter(|d| d.file.starts_with("content/lists/"))
        .map(|d| (d.code, d.file.clone()))
        .collect();
    assert_eq!(lists, [("FN957", "content/lists/live.yaml".to_string())]);
}
