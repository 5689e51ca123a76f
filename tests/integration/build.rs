//! Tests: `build` stops on content errors, naming file, line and column, and reports all of
//! them; the seed note is accepted as authors write it.

use crate::support::{codes_and_lines, fixtures, TestSite};
use fieldnotes::Severity;

/// A minimal valid site: one client, one capability, one note, written by the test.
fn small_site() -> TestSite {
    let site = TestSite::empty();
    site.write(
        "site.yaml",
        "title: T\nbaseUrl: https://example.org\nspecVersions:\n  - id: 2025-03-26\n\
         capabilityGroups:\n  - id: transports\n    title: Transports\nkinds:\n  - id: idiosyncrasy\n",
    )
    .write("content/clients/client-a.md", "---\nid: client-a\ntitle: Client A\n---\n")
    .write(
        "content/capabilities/transports.sse.md",
        "---\nid: transports.sse\ntitle: SSE\ngroup: transports\n---\n",
    )
    .write("content/research/a-note.md", &note("a-note", "", ""));
    site
}

/// A note in the seed's shape, with `extra` front matter lines and a body.
fn note(id: &str, extra: &str, body: &str) -> String {
    format!(
        "---\nid: {id}\ntitle: A note called {id}\nkind: idiosyncrasy\nsummary: Short.\n\
capabilities:\n  - transports.sse\nclients:\n  - client-a\nspecVersions:\n  - 2025-03-26\n\
sources:\n  - url: https://github.com/example/client-a\n    title: main.py\n    commit: 0123abc\n\
\x20   path: main.py:1-2\n    date: 2026-11-01\nstatus: current\nlastVerified: 2026-11-02\n{extra}---\n\n{body}"
    )
}

fn errors(site: &TestSite) -> Vec<(&'static str, usize)> {
    let report = site.build();
    assert!(!report.written, "a site with errors must not be written");
    assert!(!site.out().exists(), "no output folder may appear");
    let errors: Vec<_> = report
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(
        errors
            .iter()
            .all(|d| d.file == "content/research/a-note.md"),
        "{errors:?}"
    );
    codes_and_lines(&errors)
}

#[test]
fn small_site_builds() {
    let site = small_site();
    let report = site.build();
    assert!(report.written, "{:?}", report.diagnostics);
    assert!(site.out().join("research/a-note.html").is_file());
}

#[test]
fn unparsable_front_matter_stops_the_build() {
    let site = small_site();
    site.write(
        "content/research/a-note.md",
        "---\nid: a-note\ntitle: [unclosed\n---\n",
    );
    assert_eq!(errors(&site), [("FN004", 3)]);
}

#[test]
fn unknown_client_capability_revision_and_kind_stop_the_build() {
    let site = small_site();
    let text = note("a-note", "", "")
        .replace("  - client-a", "  - client-b")
        .replace("  - transports.sse", "  - transports.ssee")
        .replace("  - 2025-03-26", "  - 2025-03-27")
        .replace("kind: idiosyncrasy", "kind: idiosyncracy");
    site.write("content/research/a-note.md", &text);
    let mut found = errors(&site);
    found.sort();
    assert_eq!(
        found,
        [("FN201", 4), ("FN203", 9), ("FN204", 7), ("FN205", 11)]
    );
}

#[test]
fn unknown_related_id_and_broken_body_link_stop_the_build() {
    let site = small_site();
    let body = "See [b](/research/b-note.md) and [c](/clients/client-c.md).\n";
    site.write(
        "content/research/a-note.md",
        &note("a-note", "related:\n  - b-note\n", body),
    );
    assert_eq!(errors(&site), [("FN501", 21), ("FN601", 24), ("FN601", 24)]);
}

#[test]
fn missing_required_field_stops_the_build() {
    let site = small_site();
    let text = note("a-note", "", "").replace("lastVerified: 2026-11-02\n", "");
    site.write("content/research/a-note.md", &text);
    assert_eq!(errors(&site), [("FN007", 1)]);
}

#[test]
fn every_error_is_reported_not_only_the_first() {
    let site = small_site();
    let text = note(
        "a-note",
        "related:\n  - b-note\n  - c-note\n",
        "[x](/guides/nope.md)\n",
    )
    .replace("  - client-a", "  - client-b");
    site.write("content/research/a-note.md", &text);
    assert_eq!(errors(&site).len(), 4);
}

#[test]
fn a_failed_build_keeps_the_previous_output() {
    let site = small_site();
    assert!(site.build().written);
    let before = site.output("research/a-note.html");
    site.write("content/research/a-note.md", "---\nid: [\n---\n");
    let report = site.build();
    assert!(!report.written);
    assert_eq!(site.output("research/a-note.html"), before);
}

/// Where the seed-shaped note lives: the project's own note written as the seed note is (the
/// same front matter fields in the same order, a body that restates them, `related` ids and
/// body links that name notes the site lacks). The real seed is checked by `.ci/seed-check`.
const SEED_NOTE: &str = "content/research/openclaw-reads-only-the-transport-key.md";

/// The seed-shaped note as authored.
fn seed_note() -> String {
    std::fs::read_to_string(fixtures().join("lint/_seed").join(SEED_NOTE)).expect("seed fixture")
}

/// The lint fixtures' base site (three clients, two capabilities) holding `note_text`.
fn seed_site(note_text: &str) -> TestSite {
    let site = TestSite::fixture("lint/_base");
    site.write(SEED_NOTE, note_text);
    site
}

/// Its two unknown `related` ids and its two links to those notes, at line and column.
const SEED_FINDINGS: [(&str, usize, usize); 4] = [
    ("FN501", 35, 5),
    ("FN501", 36, 5),
    ("FN601", 61, 41),
    ("FN601", 62, 48),
];

/// Builds the seed site from `note_text` and checks it reports exactly [`SEED_FINDINGS`].
fn assert_seed_findings(note_text: &str) {
    let report = seed_site(note_text).build();
    assert!(!report.written);
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.line, d.column))
        .collect();
    assert_eq!(found, SEED_FINDINGS, "{:#?}", report.diagnostics);
}

#[test]
fn seed_note_reports_exactly_its_unknown_related_ids_and_broken_links() {
    assert_seed_findings(&seed_note());
}

#[test]
fn bom_and_crlf_shift_no_line_or_column() {
    assert_seed_findings(&format!("\u{feff}{}", seed_note().replace('\n', "\r\n")));
}

#[test]
fn bundled_example_site_lints_clean_and_builds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().expect("temp dir");
    let mut options = fieldnotes::BuildOptions::new(root.to_path_buf(), out.path().join("public"));
    options.today = crate::support::example_site_day();
    let report = fieldnotes::build(&options).expect("the example site opens");
    assert_eq!(report.diagnostics, [], "the bundled site must lint clean");
    assert!(report.written);
    assert!(out
        .path()
        .join("public/research/hermes-defaults-a-url-server-to-streamable-http.html")
        .is_file());
    crate::assets::assert_bundled_assets(&out.path().join("public"));
}

#[test]
fn a_new_note_lints_clean_but_for_the_placeholders_it_marks() {
    let site = small_site();
    let config = fieldnotes::config::SiteConfig::load(site.root()).expect("config");
    let file = fieldnotes::scaffold::NewFile::Note {
        id: "fresh-note".into(),
        clients: vec!["client-a".into()],
        capabilities: vec!["transports.sse".into()],
    };
    let path = fieldnotes::scaffold::create(site.root(), &file, &config, crate::support::today())
        .expect("written");
    let text = std::fs::read_to_string(site.root().join(&path)).expect("readable");
    let lines: Vec<&str> = text.lines().collect();
    let findings: Vec<_> = site
        .lint()
        .into_iter()
        .filter(|d| d.file == "content/research/fresh-note.md")
        .collect();
    assert!(!findings.is_empty(), "the placeholders are reported");
    for d in &findings {
        assert!(
            lines[d.line - 1].contains(fieldnotes::scaffold::PLACEHOLDER),
            "{d:?} is not at a placeholder"
        );
    }
    let again = fieldnotes::scaffold::create(site.root(), &file, &config, crate::support::today());
    assert!(again.is_err(), "never overwrites");
}
