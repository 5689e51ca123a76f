//! Tests: a docs source's `quote` and `retrieved`, and why an unknown cell is unknown
//! (`reason`, a client's `unknownReason`, `site.yaml`'s `unknownReasons`), on the pages and in
//! `api/matrix.json`.

use crate::support::TestSite;
use std::fs;

fn edit(site: &TestSite, path: &str, from: &str, to: &str) {
    let text = fs::read_to_string(site.root().join(path)).expect("file");
    assert!(text.contains(from), "{path}: {from}");
    site.write(path, &text.replacen(from, to, 1));
}

/// The basic fixture with two reasons declared, client B unknown on `transports.sse` because
/// its docs are silent, and client C's unnamed capabilities closed and undocumented.
fn site_with_reasons() -> TestSite {
    let site = TestSite::fixture("basic");
    edit(
        &site,
        "site.yaml",
        "lint:\n",
        "unknownReasons:\n  - id: not-researched\n    title: Not researched yet\n  \
         - id: docs-silent\n    title: Docs silent\n  - id: closed-no-docs\n    \
         title: Closed source, docs silent\nlint:\n",
    );
    edit(
        &site,
        "content/clients/client-c.md",
        "support:\n",
        "unknownReason: closed-no-docs\nsupport:\n",
    );
    // A capability no client names: unknown everywhere.
    site.write(
        "content/capabilities/tools.list.md",
        "---\nid: tools.list\ntitle: List tools\ngroup: tools\n---\n\nThe client lists tools.\n",
    );
    site
}

#[test]
fn the_quote_of_a_docs_source_shows_beside_its_link_and_in_the_api() {
    let site = TestSite::fixture("basic");
    site.build();
    let page = site.output("clients/client-a.html");
    assert!(
        page.contains(
            r#"<span class="source-quote"><q>Alpha calls one tool at a time.</q> (retrieved <time datetime="2026-10-01">2026-10-01</time>)</span>"#
        ),
        "{page}"
    );
    let md = site.output("clients/client-a.md");
    assert!(
        md.contains("(https://docs.alpha.example.org/tools): “Alpha calls one tool at a time.” (retrieved 2026-10-01)"),
        "{md}"
    );
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    let source = &matrix["support"]["client-a"]["tools.call"]["sources"][0];
    assert_eq!(source["quote"], "Alpha calls one tool at a time.");
    assert_eq!(source["retrieved"], "2026-10-01");
    // A pinned source has neither key.
    let pinned = &matrix["support"]["client-c"]["transports.sse"]["sources"][0];
    assert!(pinned.get("quote").is_none(), "{pinned}");
}

#[test]
fn every_unknown_cell_says_why_from_the_cell_its_client_or_the_first_reason() {
    let site = site_with_reasons();
    assert_eq!(crate::lint_rules::compact(&site.lint()), "");
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    assert_eq!(matrix["unknownReasons"][1]["id"], "docs-silent");
    let support = &matrix["support"];
    // client-c names no Streamable HTTP cell: its client-level reason.
    assert_eq!(
        support["client-c"]["transports.streamableHttp"]["reason"],
        "closed-no-docs"
    );
    // A known cell has no reason.
    assert!(support["client-c"]["tools.call"].get("reason").is_none());
    // client-a and client-b name no tools.list cell and give no reason: the first of
    // unknownReasons.
    let unknown: Vec<(&str, &str)> = ["client-a", "client-b"]
        .iter()
        .flat_map(|c| {
            let cells = support[*c].as_object().expect("cells");
            cells
                .iter()
                .filter(|(_, cell)| cell["status"] == "unknown")
                .map(|(_, cell)| (*c, cell["reason"].as_str().unwrap_or("")))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!unknown.is_empty());
    assert!(
        unknown
            .iter()
            .all(|(_, reason)| *reason == "not-researched"),
        "{unknown:?}"
    );
    let page = site.output("clients/client-c.html");
    assert!(
        page.contains(r#"<p class="unresearched" data-reason="closed-no-docs"><strong>Closed source, docs silent (2):</strong>"#),
        "{page}"
    );
    let md = site.output("clients/client-c.md");
    assert!(
        md.contains("Closed source, docs silent (2): [Streamable HTTP]"),
        "{md}"
    );
}

#[test]
fn a_cell_reason_wins_over_its_clients_and_is_linted() {
    let site = site_with_reasons();
    edit(
        &site,
        "content/clients/client-c.md",
        "support:\n",
        "support:\n  transports.streamableHttp:\n    status: unknown\n    reason: docs-silent\n",
    );
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    assert_eq!(
        matrix["support"]["client-c"]["transports.streamableHttp"]["reason"],
        "docs-silent"
    );
    let capability = site.output("capabilities/transports.streamableHttp.html");
    assert!(
        capability.contains(r#"data-reason="docs-silent"><strong>Docs silent (1):</strong>"#),
        "{capability}"
    );
    edit(
        &site,
        "content/clients/client-c.md",
        "reason: docs-silent",
        "reason: docs-silnet",
    );
    let findings = crate::lint_rules::compact(&site.lint());
    assert!(
        findings.contains("FN220") && findings.contains("did you mean `docs-silent`?"),
        "{findings}"
    );
}
