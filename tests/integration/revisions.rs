//! Tests: a capability's state at a spec revision. The `basic` fixture with a third revision
//! that removes SSE (deprecated in the second): the home matrix sets removed rows apart and
//! leaves them out of the totals, spec pages tag a row deprecated only from its deprecation
//! on and list what each revision adds, deprecates and removes with who supports it, and
//! capability and client pages say what the newest revision did.

use crate::support::TestSite;

/// `basic`, with revision 2026-01-01 that removes `transports.sse`, built.
fn with_a_removal() -> TestSite {
    let site = TestSite::fixture("basic");
    let config = std::fs::read_to_string(site.root().join("site.yaml")).expect("config");
    let third = "    url: https://spec.example.org/2025-03-26\n";
    assert!(config.contains(third));
    let config = config.replace(
        third,
        &format!("{third}  - id: 2026-01-01\n    date: 2026-01-01\n    title: Third revision\n"),
    );
    site.write("site.yaml", &config);
    let sse = "content/capabilities/transports.sse.md";
    let text = std::fs::read_to_string(site.root().join(sse)).expect("sse");
    site.write(
        sse,
        &text.replace(
            "deprecated: 2025-03-26\n",
            "deprecated: 2025-03-26\nremoved: 2026-01-01\n",
        ),
    );
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    site
}

/// The text of `html` from `start` to the first `end` after it.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {html}"));
    let rest = &html[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

#[test]
fn the_home_matrix_sets_removed_rows_apart_and_leaves_them_out_of_the_totals() {
    let site = with_a_removal();
    let home = site.output("index.html");
    let transports = between(&home, r#"<tbody data-group="transports""#, "</tbody>");
    assert!(
        !transports.contains(r#"data-capability="transports.sse""#),
        "{transports}"
    );
    let removed = between(
        &home,
        "<tbody class=\"removed-band\" data-removed-band>",
        "</tbody>",
    );
    assert!(
        removed.contains("Removed<span data-removed-at> by 2026-01-01</span>"),
        "{removed}"
    );
    assert!(removed.contains(r#"data-capability="transports.sse" data-group="transports""#));
    assert!(removed.contains(r#"<span class="tag tag-removed">removed in 2026-01-01</span>"#));
    assert!(
        removed.contains(r#"data-removed="2026-01-01""#),
        "{removed}"
    );
    // Its cells keep their links to their evidence.
    assert!(home.contains(r##"<a href="/clients/client-a#support-transports.sse""##));
    // The removed band comes after every group.
    assert!(home.find(r#"<tbody data-group="tools""#) < home.find("data-removed-band"));
    // Alpha's yes on SSE no longer counts: one yes (tools), one partial (Streamable HTTP).
    let yes = between(&home, r#"<tr class="totals totals-yes""#, "</tr>");
    assert!(
        yes.contains(r#"<td data-client="client-a">1</td>"#),
        "{yes}"
    );
    assert!(home.contains(r#"title="2 of 2 researched: 1 yes, 1 partial, 0 no""#));
    // The selector starts at the newest revision.
    assert!(home.contains(r#"<option value="2026-01-01" data-url="/spec/2026-01-01" selected>2026-01-01 (current)"#), "{home}");
    let md = site.output("index.md");
    let gone = between(&md, "### Removed by 2026-01-01", "### Totals");
    assert!(gone.contains("(removed in 2026-01-01) |"), "{gone}");
}

#[test]
fn a_spec_page_tags_a_row_deprecated_only_from_its_deprecation_on() {
    let site = with_a_removal();
    let first = site.output("spec/2024-11-05.html");
    let row = between(&first, r#"<tr data-capability="transports.sse""#, "</th>");
    assert!(
        row.contains(r#"<span class="tag tag-deprecated" hidden>"#),
        "{row}"
    );
    let second = site.output("spec/2025-03-26.html");
    let row = between(&second, r#"<tr data-capability="transports.sse""#, "</th>");
    assert!(
        row.contains(r#"<span class="tag tag-deprecated">deprecated</span>"#),
        "{row}"
    );
    // The revision that removed it has no row for it.
    let third = site.output("spec/2026-01-01.html");
    assert!(!third.contains(r#"<tr data-capability="transports.sse""#));
}

#[test]
fn a_spec_page_lists_what_it_deprecates_and_removes_with_who_supports_each() {
    let site = with_a_removal();
    let third = site.output("spec/2026-01-01.html");
    let removed = between(
        &third,
        r#"<h3 id="removed">Removed in 2026-01-01</h3>"#,
        "</ul>",
    );
    assert!(removed.contains(r#"<a href="/capabilities/transports.sse">HTTP with SSE</a>"#));
    assert!(
        removed.contains(r#"<span class="status-yes">1 yes</span>"#),
        "{removed}"
    );
    assert!(
        removed.contains(r#"Supported by <a href="/clients/client-a">Alpha Client</a>, <a href="/clients/client-b">Beta Client</a> (partial)"#),
        "{removed}"
    );
    let second = site.output("spec/2025-03-26.html");
    let deprecated = between(
        &second,
        r#"<h3 id="deprecated">Deprecated in 2025-03-26</h3>"#,
        "</ul>",
    );
    assert!(deprecated.contains(">HTTP with SSE</a>"), "{deprecated}");
    let md = site.output("spec/2026-01-01.md");
    let removed = between(&md, "### Removed in this revision", "## What clients");
    assert!(removed.contains("- [HTTP with SSE](/capabilities/transports.sse.md) (Transports): 1 yes, 1 partial, 1 no, 0 unknown; supported by [Alpha Client](/clients/client-a.md), [Beta Client](/clients/client-b.md) (partial)"), "{removed}");
}

#[test]
fn capability_and_client_pages_say_what_the_newest_revision_did() {
    let site = with_a_removal();
    let sse = site.output("capabilities/transports.sse.html");
    assert!(sse.contains(r#"<p class="notice notice-removed"><strong>Removed</strong> in <a href="/spec/2026-01-01">2026-01-01</a>, the current revision."#), "{sse}");
    let client = site.output("clients/client-a.html");
    let tools = client.find(">Tools</th>").expect("tools band");
    let removed = client
        .find(">Removed from the current revision</th>")
        .expect("removed band");
    assert!(tools < removed, "{client}");
    assert!(client[removed..].contains(r#"<tr id="support-transports.sse">"#));
    // Before the removal, the page says it is deprecated, and the client page tags the row.
    let site = TestSite::fixture("basic");
    assert!(site.build().written);
    let sse = site.output("capabilities/transports.sse.html");
    assert!(sse.contains(r#"<p class="notice notice-deprecated"><strong>Deprecated</strong> since <a href="/spec/2025-03-26">2025-03-26</a>"#), "{sse}");
    let client = site.output("clients/client-a.html");
    assert!(
        client.contains(r#"</a> <span class="tag">deprecated</span>"#),
        "{client}"
    );
    assert!(!site.output("index.html").contains("data-removed-band"));
}
