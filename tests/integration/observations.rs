//! Tests: observations (`content/observations/<id>.md` beside its `.jsonl` transcript) as
//! content: parsed with positions, linted against the clients, capabilities and transcript,
//! cited by support cells (the evidence method in `api/matrix.json`, on the pages, in the
//! filter), and rendered as pages.

use crate::lint_rules::compact;
use crate::support::{copy_dir, fixtures, TestSite};
use std::fs;

const ID: &str = "alpha-client-1-3-0-stdio-20261001-120000";

/// The basic fixture with the observation of `tests/fixtures/observed/` added, and client A's
/// `tools.call` cell citing it.
fn observed_site() -> TestSite {
    let site = TestSite::fixture("basic");
    copy_dir(&fixtures().join("observed"), site.root());
    edit(
        &site,
        "content/clients/client-a.md",
        "        title: Alpha docs, tools\n",
        &format!("        title: Alpha docs, tools\n    observations: [{ID}]\n"),
    );
    site
}

fn edit(site: &TestSite, path: &str, from: &str, to: &str) {
    let text = fs::read_to_string(site.root().join(path)).expect("file");
    assert!(text.contains(from), "{path}: {from}");
    site.write(path, &text.replacen(from, to, 1));
}

fn observation_path() -> String {
    format!("content/observations/{ID}.md")
}

#[test]
fn an_observation_cited_by_a_cell_lints_clean() {
    let site = observed_site();
    assert_eq!(compact(&site.lint()), "");
}

#[test]
fn its_fields_are_checked_like_every_other_kind() {
    let site = observed_site();
    let path = observation_path();
    edit(
        &site,
        &path,
        "observed: 2026-10-01\n",
        "observed: 2026-10-01\nseen: yes\n",
    );
    edit(&site, &path, "messages: [4, 5]", "messages: [4, five]");
    edit(&site, &path, "transport: stdio\n", "");
    // clientInfo keeps whatever the client sent: `title` is no unknown field.
    let findings = site.lint();
    let codes: Vec<(&str, usize)> = findings.iter().map(|d| (d.code, d.line)).collect();
    assert_eq!(
        codes,
        [("FN007", 1), ("FN006", 9), ("FN008", 20)],
        "{}",
        compact(&findings)
    );
    assert!(
        findings[0].message.contains("`transport`"),
        "{}",
        findings[0].message
    );
}

#[test]
fn a_cell_that_contradicts_what_was_seen_is_an_error_naming_both_files_and_the_line() {
    let site = observed_site();
    edit(
        &site,
        "content/clients/client-a.md",
        "    status: yes\n    notes: Calls tools one at a time.",
        "    status: no\n    notes: Calls tools one at a time.",
    );
    let findings = site.lint();
    let [d] = findings.as_slice() else {
        panic!("one finding:\n{}", compact(&findings));
    };
    assert_eq!(
        (d.code, d.file.as_str()),
        ("FN218", "content/clients/client-a.md")
    );
    for part in [
        "content/clients/client-a.md",
        &observation_path(),
        &format!("{ID}.jsonl lines 4, 5"),
    ] {
        assert!(d.message.contains(part), "{part}: {}", d.message);
    }
}

#[test]
fn the_data_api_says_how_each_cell_was_checked() {
    let site = observed_site();
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    let a = &matrix["support"]["client-a"];
    assert_eq!(
        a["tools.call"]["evidence"],
        serde_json::json!({
            "method": "observed",
            "version": "1.3.0",
            "observed": "2026-10-01",
            "observation": ID,
        })
    );
    assert_eq!(a["tools.call"]["observations"], serde_json::json!([ID]));
    assert_eq!(
        a["transports.sse"]["evidence"],
        serde_json::json!({"method": "source", "version": "1.2.0", "commit": "0123abc"})
    );
    // Through its research note, whose sources are pinned.
    assert_eq!(
        a["transports.streamableHttp"]["evidence"]["method"],
        "source"
    );
    // A cell the map does not name has none.
    let c = &matrix["support"]["client-c"];
    let methods: Vec<&str> = (c.as_object().expect("cells").values())
        .map(|c| c["evidence"]["method"].as_str().expect("method"))
        .collect();
    assert!(methods.contains(&"none"), "{methods:?}");
    let home = site.output("index.html");
    assert!(
        home.contains(r#"name="evidence" value="observed""#),
        "the filter"
    );
    assert!(home.contains(r#"data-evidence="observed""#), "the cell");
    // The cell's evidence is on its client's page (the home page's panel loads it from there).
    let client = site.output("clients/client-a.html");
    assert!(client.contains("Checked: observed with version 1.3.0"));
}

/// A session that names the package that ran says whose version it is: a client served
/// inside another product (VS Code in code-server) carries that product's numbering.
#[test]
fn an_observed_cell_names_the_package_its_version_belongs_to() {
    let site = observed_site();
    edit(
        &site,
        &observation_path(),
        "observed: 2026-10-01\n",
        "observed: 2026-10-01\npackage:\n  ecosystem: npm\n  name: alpha-server\n  version: 4.3.0\n",
    );
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    let evidence = &matrix["support"]["client-a"]["tools.call"]["evidence"];
    assert_eq!(evidence["version"], "4.3.0");
    assert_eq!(evidence["package"], "alpha-server");
    let client = site.output("clients/client-a.html");
    assert!(
        client.contains("Checked: observed with alpha-server 4.3.0"),
        "the row names the package"
    );
    assert!(site
        .output("clients/client-a.md")
        .contains("Checked: observed, `alpha-server` 4.3.0"));
}

/// A cell's version is the release its evidence describes: a pin or a session shows what one
/// release did, not when support began, so every status reads "as of" it, a `yes` too.
#[test]
fn a_version_reads_as_of_the_release_the_evidence_describes() {
    let site = observed_site();
    edit(
        &site,
        "content/clients/client-a.md",
        "    status: partial\n",
        "    status: partial\n    version: 1.1.0\n",
    );
    site.build();
    let page = site.output("clients/client-a.html");
    assert!(page.contains(r#"<span class="version">as of 1.2.0</span>"#));
    assert!(page.contains(r#"<span class="version">as of 1.1.0</span>"#));
    assert!(!page.contains(">since "), "{page}");
    let md = site.output("clients/client-a.md");
    assert!(md.contains("**yes**, as of 1.2.0"), "{md}");
    assert!(md.contains("**partial**, as of 1.1.0"), "{md}");
}

#[test]
fn the_observation_page_shows_each_result_with_its_transcript_lines() {
    let site = observed_site();
    site.build();
    let page = site.output(&format!("observations/{ID}.html"));
    for part in [
        "<h1>alpha-client 1.3.0 over stdio, 2026-10-01</h1>",
        "<code>alpha mcp add probe -- fieldnotes probe stdio &amp;&amp; alpha mcp call probe echo</code>",
        // Each cited line once, the results pointing at it.
        "id=\"line-4\"",
        "id=\"line-5\"",
        "href=\"#line-4\"",
        // The line's JSON, highlighted and escaped.
        "class=\"language-json",
        "&lt;hi&gt; &amp;",
        // The cell citing it.
        "href=\"/clients/client-a#support-tools.call\"",
    ] {
        assert!(page.contains(part), "{part}\n{page}");
    }
    assert!(!page.contains("<hi>"), "transcript text is escaped");
    let md = site.output(&format!("observations/{ID}.md"));
    assert!(
        md.contains(
            "  ```json\n  {\n    \"t\": \"2026-10-01T12:00:00.010Z\",\n    \"dir\": \"in\","
        ),
        "{md}"
    );
    let client = site.output("clients/client-a.html");
    assert!(
        client.contains("versions seen: <code>1.3.0</code>"),
        "{client}"
    );
    assert!(client.contains(&format!("href=\"/observations/{ID}\"")));
    let index = site.output("observations.html");
    assert!(index.contains("Alpha Client"), "{index}");
    assert!(site
        .output("llms.txt")
        .contains(&format!("/observations/{ID}.md")));
}

#[test]
fn a_site_without_observations_has_no_observation_pages() {
    let site = TestSite::fixture("basic");
    site.build();
    assert!(!site.out().join("observations.html").exists());
    assert!(!site.output("llms.txt").contains("Observations"));
}

#[test]
fn a_transcript_too_large_to_read_is_a_finding_not_a_failure() {
    let site = observed_site();
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    site.write(
        "site.yaml",
        &format!("{config}limits:\n  maxFileBytes: 800\n"),
    );
    let findings = site.lint();
    assert!(
        findings
            .iter()
            .any(|d| d.code == "FN214" && d.message.contains("could not be read")),
        "{}",
        compact(&findings)
    );
}

#[test]
fn the_package_that_ran_is_the_version_pages_the_api_and_lint_use() {
    // Alpha hard-codes its clientInfo.version (1.3.0); the package that ran was 1.4.2.
    let site = observed_site();
    let path = observation_path();
    edit(
        &site,
        &path,
        "command:",
        "package:\n  ecosystem: npm\n  name: \"@alpha/cli\"\n  version: 1.4.2\ncommand:",
    );
    edit(
        &site,
        &path,
        "    status: yes\n    why:",
        "    status: yes\n    basis: declared\n    why:",
    );
    assert_eq!(compact(&site.lint()), "");
    site.build();
    let matrix: serde_json::Value =
        serde_json::from_str(&site.output("api/matrix.json")).expect("json");
    assert_eq!(
        matrix["support"]["client-a"]["tools.call"]["evidence"]["version"],
        "1.4.2"
    );
    let page = site.output(&format!("observations/{ID}.html"));
    for part in [
        "<h1>alpha-client 1.4.2 over stdio, 2026-10-01</h1>",
        "<code>1.4.2</code> (package <code>npm @alpha/cli</code>)",
        "its <code>clientInfo.version</code> says <code>1.3.0</code>",
        "declared only",
    ] {
        assert!(page.contains(part), "{part}\n{page}");
    }
    let md = site.output(&format!("observations/{ID}.md"));
    assert!(
        md.contains(
            "- Version: `1.4.2` (package `npm @alpha/cli`); its clientInfo.version says `1.3.0`"
        ),
        "{md}"
    );
    assert!(md.contains("**yes** (declared only)"), "{md}");
    // FN218 compares the package version: a cell first shipped in 1.4.0 that says yes where
    // the 1.4.2 observation saw no is a contradiction (clientInfo's 1.3.0 hid it).
    edit(
        &site,
        &path,
        "    status: yes\n    basis",
        "    status: no\n    basis",
    );
    edit(
        &site,
        "content/clients/client-a.md",
        "    status: yes\n    notes: Calls tools one at a time.",
        "    status: yes\n    version: 1.4.0\n    notes: Calls tools one at a time.",
    );
    let findings = site.lint();
    assert!(
        findings.iter().any(|d| d.code == "FN218"),
        "{}",
        compact(&findings)
    );
}

/// A decided cell whose cited observations all judged its capability `unknown` claims more
/// than they show (FN221); one of them deciding it, or one with no result at all (a person's
/// reading, said in the note), is fine.
#[test]
fn a_decided_cell_resting_on_undecided_observations_is_flagged() {
    let site = observed_site();
    edit(
        &site,
        &observation_path(),
        "  tools.call:\n    status: yes\n    why: sent tools/call for the probe's tool after initialize\n",
        "  tools.call:\n    status: unknown\n    why: did not send tools/call in this session\n",
    );
    let findings = site.lint();
    let [d] = findings.as_slice() else {
        panic!("one finding:\n{}", compact(&findings));
    };
    assert_eq!(
        (d.code, d.file.as_str()),
        ("FN221", "content/clients/client-a.md")
    );
    assert!(
        d.message
            .contains("every observation it cites judged it `unknown`")
            && d.message.contains(ID),
        "{}",
        d.message
    );
    // The same cell saying `unknown` is what the observation shows: nothing to flag.
    edit(
        &site,
        "content/clients/client-a.md",
        "    status: yes\n    notes: Calls tools one at a time.",
        "    status: unknown\n    notes: Calls tools one at a time.",
    );
    assert!(
        !site.lint().iter().any(|d| d.code == "FN221"),
        "{}",
        compact(&site.lint())
    );
}
