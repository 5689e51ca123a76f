//! Tests: what a reader takes away from the site: an SVG status badge per client and per
//! support cell (`badges/<client>.svg`, `badges/<client>/<capability>.svg`) and the whole
//! matrix as a table (`api/matrix.csv`), each agreeing with `api/matrix.json`.

use crate::support::TestSite;
use std::collections::BTreeMap;

fn built() -> TestSite {
    let site = TestSite::fixture("basic");
    site.build();
    site
}

fn matrix(site: &TestSite) -> serde_json::Value {
    serde_json::from_str(&site.output("api/matrix.json")).expect("matrix.json")
}

/// The words a cell badge says for each status in `api/matrix.json`.
fn badge_word(status: &str) -> &str {
    match status {
        "unknown" => "not checked",
        other => other,
    }
}

#[test]
fn every_cell_has_a_badge_saying_its_status_in_words() {
    let site = built();
    let matrix = matrix(&site);
    let mut seen = 0;
    for client in matrix["clients"].as_array().expect("clients") {
        let id = client["id"].as_str().expect("id");
        let title = client["title"].as_str().expect("title");
        for capability in matrix["capabilities"].as_array().expect("capabilities") {
            let cap = capability["id"].as_str().expect("id");
            let status = matrix["support"][id][cap]["status"]
                .as_str()
                .expect("status");
            let svg = site.output(&format!("badges/{id}/{cap}.svg"));
            assert!(
                svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
                "{svg}"
            );
            let label = format!(
                "{title} · {}: {}",
                capability["title"].as_str().expect("title"),
                badge_word(status)
            );
            assert!(
                svg.contains(&format!("<title>{label}</title>")),
                "{id}/{cap}: {svg}"
            );
            seen += 1;
        }
    }
    let cells = matrix["clients"].as_array().map_or(0, Vec::len)
        * matrix["capabilities"].as_array().map_or(0, Vec::len);
    assert!(
        cells > 0 && seen == cells,
        "{seen} badges for {cells} cells"
    );
}

#[test]
fn a_client_badge_counts_what_its_cells_say() {
    let site = built();
    let matrix = matrix(&site);
    let client = &matrix["clients"][0];
    let id = client["id"].as_str().expect("id");
    let tally = &client["tally"];
    let total: u64 = ["yes", "partial", "no", "unknown"]
        .iter()
        .map(|s| tally[s].as_u64().expect("count"))
        .sum();
    let svg = site.output(&format!("badges/{id}.svg"));
    let expected = format!(
        "{} yes · {} partial · {} no of {total}",
        tally["yes"], tally["partial"], tally["no"]
    );
    assert!(svg.contains(&expected), "{expected}: {svg}");
}

#[test]
fn the_csv_has_one_row_per_cell_agreeing_with_the_json() {
    let site = built();
    let matrix = matrix(&site);
    let csv = site.output("api/matrix.csv");
    let mut lines = csv.split("\r\n");
    assert_eq!(
        lines.next(),
        Some("client,capability,status,evidence,lastVerified,version,url")
    );
    let rows: BTreeMap<(String, String), Vec<String>> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let fields: Vec<String> = l.split(',').map(str::to_string).collect();
            assert_eq!(fields.len(), 7, "{l}");
            ((fields[0].clone(), fields[1].clone()), fields)
        })
        .collect();
    let clients = matrix["clients"].as_array().expect("clients").len();
    let capabilities = matrix["capabilities"].as_array().expect("caps").len();
    assert_eq!(rows.len(), clients * capabilities);
    for ((client, cap), fields) in &rows {
        let cell = &matrix["support"][client][cap];
        assert_eq!(
            fields[2],
            cell["status"].as_str().expect("status"),
            "{client} {cap}"
        );
        assert_eq!(
            fields[3],
            cell["evidence"]["method"].as_str().expect("method")
        );
        assert_eq!(fields[4], cell["lastVerified"].as_str().unwrap_or(""));
        assert_eq!(
            fields[5],
            cell["evidence"]["version"].as_str().unwrap_or("")
        );
        assert_eq!(fields[6], cell["url"].as_str().expect("url"));
    }
    assert!(
        rows.values().any(|f| f[2] == "yes" && f[3] == "source"),
        "a sourced yes cell"
    );
}

#[test]
fn a_static_file_in_the_badges_folder_is_refused_by_lint() {
    let site = TestSite::fixture("basic");
    site.write("static/badges/mine.svg", "<svg/>");
    let findings = site.lint();
    assert!(
        findings
            .iter()
            .any(|d| d.code == "FN012" && d.message.contains("badges")),
        "{}",
        crate::lint_rules::compact(&findings)
    );
}
