//! Tests: render. The `basic` fixture built into HTML and Markdown: URLs, pinned sources,
//! rewritten links, related notes and backlinks, the matrix, template overrides, and
//! byte-identical rebuilds; snapshots of a note page and a client page.
//!
//! Pages hold dates as written; ages ("50 days ago") are the browser's to work out, on the day
//! a page is read (tests/browser). The tests assume `SOURCE_DATE_EPOCH` is not set.

use crate::support::{files_under, TestSite};
use std::fs;

const ALPHA: &str = "research/alpha-defaults-to-sse.html";

/// The fixture, built; panics when the build did not write.
fn built() -> TestSite {
    let site = TestSite::fixture("basic");
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    site
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The front matter and body of a fixture file.
fn fixture_body(path: &str) -> String {
    let text = fs::read_to_string(crate::support::fixtures().join("basic").join(path))
        .expect("fixture file");
    let rest = text.strip_prefix("---\n").expect("front matter");
    let end = rest.find("\n---\n").expect("closing fence");
    rest[end + 5..].trim().to_string()
}

#[test]
fn fixture_lints_clean() {
    let findings = TestSite::fixture("basic").lint();
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn every_page_has_a_canonical_link_and_both_renditions() {
    let site = built();
    let html = site.output(ALPHA);
    assert!(html.contains(
        r#"<link rel="canonical" href="https://example.org/research/alpha-defaults-to-sse">"#
    ));
    assert!(site
        .output("index.html")
        .contains(r#"<link rel="canonical" href="https://example.org/">"#));
    let files = files_under(&site.out());
    for path in files
        .keys()
        // 404, search and disagreement pages are no content's: no canonical URL, no Markdown.
        .filter(|p| {
            p.ends_with(".html")
                && !["404.html", "search.html", "disagreements.html"].contains(&p.as_str())
        })
    {
        let page = String::from_utf8_lossy(&files[path]);
        assert_eq!(count(&page, r#"<link rel="canonical""#), 1, "{path}");
        assert!(page.contains(r#"<html lang="en">"#), "{path}");
        let md = format!("{}.md", path.trim_end_matches(".html"));
        assert!(files.contains_key(&md), "{path} has no {md}");
    }
    for page in [
        "index.html",
        "research.html",
        "clients.html",
        "capabilities.html",
        "spec.html",
        "guides.html",
        "clients/client-a.html",
        "capabilities/transports.sse.html",
        "spec/2025-03-26.html",
        "guides/choosing-a-transport.html",
        "404.html",
        "llms.txt",
        "favicon.svg",
    ] {
        assert!(files.contains_key(page), "missing {page}");
    }
}

#[test]
fn sources_are_pinned_with_one_link_per_range() {
    let site = built();
    let html = site.output(ALPHA);
    let blob = "https://github.com/example/client-a/blob/0123abc/src/config.py";
    assert!(
        html.contains(&format!(r#"href="{blob}#L10-L20""#)),
        "{html}"
    );
    assert!(
        html.contains(&format!(r#"href="{blob}#L30-L40""#)),
        "{html}"
    );
    assert!(
        html.contains(r#"href="https://github.com/example/client-a/blob/0123abc/src/main.py#L12""#)
    );
    assert!(html.contains(r#"<code title="0123abc">0123abc</code>"#));
    assert!(html.contains(r#"<time datetime="2026-09-28">2026-09-28</time>"#));
    let gamma = site.output("research/gamma-calls-tools-in-order.html");
    let gitlab = "https://gitlab.com/example/client-c/-/blob/89abcde/agent/loop.go";
    assert!(
        gamma.contains(&format!(r#"href="{gitlab}#L3-5""#)),
        "{gamma}"
    );
    assert!(
        gamma.contains(&format!(r#"href="{gitlab}#L9-12""#)),
        "{gamma}"
    );
}

#[test]
fn md_links_in_bodies_become_routes() {
    let site = built();
    let html = site.output(ALPHA);
    assert!(html.contains(r#"<a href="/clients/client-b">Beta Client</a>"#));
    assert!(
        html.contains(r#"<a href="/capabilities/transports.sse">SSE</a>"#),
        "relative link"
    );
    assert!(html.contains(r#"<a href="/research/beta-tries-streamable-http-first#fallback">"#));
    let body = &html[html.find(r#"<div class="body">"#).expect("body")..];
    let body = &body[..body.find("</div>").expect("body end")];
    assert!(!body.contains(".md\""), "a body link kept .md: {body}");
    let beta = site.output("research/beta-tries-streamable-http-first.html");
    assert!(
        beta.contains(r##"<h2 id="fallback">Fallback <a class="anchor" href="#fallback""##),
        "heading anchors"
    );
    assert!(beta.contains(r#"<a href="/research/alpha-defaults-to-sse">the Alpha note</a>"#));
    let guide = site.output("guides/choosing-a-transport.html");
    assert!(guide.contains(r#"<a href="/clients/client-c#support">no SSE at all</a>"#));
    assert!(guide.contains(r#"<a href="/">the matrix</a>"#));
}

#[test]
fn related_notes_and_backlinks_are_listed() {
    let site = built();
    let beta = site.output("research/beta-tries-streamable-http-first.html");
    // The body's "Related notes" list restates `related`: the page shows the template's
    // cards, by title, which keep the body heading's anchor.
    assert_eq!(count(&beta, "Related notes"), 1);
    assert_eq!(count(&beta, r#"id="related-notes""#), 1);
    let related = &beta[beta.find(r#"id="related-notes""#).expect("related")..];
    assert!(related.contains(">Alpha Client reads a URL-only entry as SSE</a>"));
    let backlinks = &beta[beta
        .find(r#"<h2 id="backlinks">Linked from</h2>"#)
        .expect("backlinks")..];
    for from in [
        "/research/alpha-defaults-to-sse",
        "/research/gamma-calls-tools-in-order",
    ] {
        assert!(
            backlinks.contains(&format!(r#"href="{from}""#)),
            "{from} in {backlinks}"
        );
    }
    // A note without a related section in its body gets the template's.
    let gamma_file = "content/research/gamma-calls-tools-in-order.md";
    let text = fs::read_to_string(site.root().join(gamma_file)).expect("read");
    let without_related = text.split("## Related notes").next().expect("head");
    site.write(gamma_file, without_related);
    assert!(site.build().written);
    let gamma = site.output("research/gamma-calls-tools-in-order.html");
    let related = &gamma[gamma
        .find(r#"<h2 id="related">Related notes</h2>"#)
        .expect("related")..];
    assert!(related.contains("Beta Client tries Streamable HTTP first and falls back to SSE"));
}

#[test]
fn the_title_is_shown_once() {
    let site = built();
    let html = site.output(ALPHA);
    assert_eq!(count(&html, "<h1"), 1);
    assert_eq!(
        count(&html, "Alpha Client reads a URL-only entry as SSE</h1>"),
        1
    );
    // The page's <h1> takes over the anchor of the body's dropped H1.
    assert!(html.contains(r#"<h1 id="alpha-client-reads-a-url-only-entry-as-sse">"#));
    // The body's "Sources" list restates `sources`: only the pinned list is shown.
    assert_eq!(count(&html, r#"id="sources""#), 1);
    assert_eq!(count(&html, r#"id="pinned-sources""#), 0);
    assert_eq!(count(&html, "Sources"), 1);
}

#[test]
fn markdown_rendition_keeps_the_body() {
    let site = built();
    let md = site.output("research/alpha-defaults-to-sse.md");
    let body = fixture_body("content/research/alpha-defaults-to-sse.md");
    // The prose as written; what it restates of the front matter once, from the front matter.
    let prose = &body[body.find("In this invented client").expect("prose")..];
    let prose = &prose[..prose.find("\n\n## Sources").expect("sources")];
    assert!(md.contains(prose), "{md}");
    assert!(
        md.starts_with("# Alpha Client reads a URL-only entry as SSE\n"),
        "{md}"
    );
    for once in ["# Alpha Client", "Kind:", "## Sources", "## Related notes"] {
        assert_eq!(count(&md, once), 1, "{once}: {md}");
    }
    assert!(md.contains("- [Beta Client tries Streamable HTTP first and falls back to SSE](/research/beta-tries-streamable-http-first.md)"), "{md}");
    assert!(md.contains(
        "[L10-L20](https://github.com/example/client-a/blob/0123abc/src/config.py#L10-L20)"
    ));
    let guide = site.output("guides/choosing-a-transport.md");
    assert!(
        guide.starts_with("# Choosing a transport\n\n> Which transport"),
        "{guide}"
    );
    assert!(guide.contains("(/clients/client-c.md#support)"));
}

#[test]
fn matrix_has_a_cell_per_capability_and_client() {
    let site = built();
    let home = site.output("index.html");
    assert_eq!(count(&home, r#"<td class="cell "#), 3 * 3);
    // Gamma Client's map does not name Streamable HTTP: its cell says so and links to the
    // row on the client page, which says so too.
    // (With the script, it opens the cell panel instead.) It shows a quiet "?", its tooltip
    // saying no one has checked.
    let unknown = r##"<td class="cell cell-unknown" data-client="client-c" data-status="unknown" data-evidence="none"><a href="/clients/client-c#support-transports.streamableHttp" title="Gamma Client, Streamable HTTP: unknown, no one has checked yet"><span class="mark" aria-hidden="true">?</span></a></td>"##;
    assert!(home.contains(unknown), "{home}");
    assert_eq!(count(&home, r#"<td class="cell cell-unknown""#), 1);
    // One panel for every cell, filled in by the script: the home page does not carry every
    // cell's evidence.
    assert_eq!(count(&home, r#"<section class="cell-panel""#), 1);
    let transports = home
        .find(">Transports</span></th>")
        .expect("transports band");
    let tools = home.find(">Tools</span></th>").expect("tools band");
    assert!(transports < tools, "groups in site.yaml order");
    // Tallies: Alpha has 2 yes and 1 partial, one number a cell in the totals rows, and a
    // coverage bar.
    let yes = &home[home
        .find(r#"<tr class="totals totals-yes""#)
        .expect("totals")..];
    assert!(
        yes.contains(r#"<td data-client="client-a">2</td>"#),
        "{yes}"
    );
    let partial = &home[home
        .find(r#"<tr class="totals totals-partial""#)
        .expect("totals")..];
    assert!(
        partial.contains(r#"<td data-client="client-a">1</td>"#),
        "{partial}"
    );
    assert!(
        home.contains(r#"title="3 of 3 researched: 2 yes, 1 partial, 0 no""#),
        "{home}"
    );
    let client = site.output("clients/client-c.html");
    assert!(client.contains(r#"<p class="unresearched"><strong>Not researched yet (1):</strong> <a id="support-transports.streamableHttp" href="/capabilities/transports.streamableHttp">"#), "{client}");
    assert!(!client.contains(r#"<tr id="support-transports.streamableHttp">"#));
    // A known cell links to its row on the client's page, which holds its evidence.
    let known = r##"<a href="/clients/client-a#support-transports.sse" title="Alpha Client, HTTP with SSE: yes, read in source""##;
    assert!(home.contains(known), "{home}");
    // That row: what the home page's panel shows of the cell, loaded when it is opened.
    let alpha = site.output("clients/client-a.html");
    let row = &alpha[alpha
        .find(r#"<tr id="support-transports.sse">"#)
        .expect("row")..];
    let row = &row[..row.find("</tr>").expect("row end")];
    assert!(row.contains(r#"data-label="Verified""#), "{row}");
    // The row references its sources, listed once on the page.
    assert!(row.contains(r##"href="#evidence-"##), "{row}");
    assert!(
        alpha.contains("https://github.com/example/client-a/blob/"),
        "{alpha}"
    );
    assert!(!home.contains("https://github.com/example/client-a/blob/"));
}

#[test]
fn a_spec_revision_shows_what_each_client_supports_of_it() {
    let site = built();
    let first = site.output("spec/2024-11-05.html");
    let later = site.output("spec/2025-03-26.html");
    // Streamable HTTP arrived in 2025-03-26; the fixture's other capabilities in 2024-11-05.
    assert!(
        !first.contains(r#"data-capability="transports.streamableHttp""#),
        "{first}"
    );
    assert!(
        later.contains(r#"data-capability="transports.streamableHttp""#),
        "{later}"
    );
    assert_eq!(count(&later, r#"<td class="cell "#), 3 * 3);
}

#[test]
fn dates_are_written_as_dates_and_never_aged_at_build_time() {
    let site = built();
    let html = site.output(ALPHA);
    assert!(html.contains(r#"Last verified <time datetime="2026-10-01" data-age data-freshness="always">2026-10-01</time></p>"#), "{html}");
    for (path, bytes) in files_under(&site.out()) {
        let page = String::from_utf8_lossy(&bytes);
        if !path.ends_with(".html") && !path.ends_with(".md") {
            continue;
        }
        for baked in ["days ago", "(today)", "badge-", "count to 2026"] {
            assert!(!page.contains(baked), "{path} says {baked:?}");
        }
    }
}

#[test]
fn unsafe_links_are_dropped_and_raw_html_is_shown_as_text() {
    let site = TestSite::fixture("basic");
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("site.yaml");
    // Lint stops such a link by default; turned off, render must still defuse it.
    let config = config.replace(
        "  staleAfterDays: 180\n",
        "  staleAfterDays: 180\n  rules:\n    unsafe-link-scheme: off\n",
    );
    site.write("site.yaml", &config).write(
        "content/guides/choosing-a-transport.md",
        "---\ntitle: Choosing a transport\n---\n\n[click](javascript:alert(1)) \
         <b onclick=\"x()\">bold</b>\n\n<script>alert(2)</script>\n",
    );
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    let guide = site.output("guides/choosing-a-transport.html");
    assert!(guide.contains(r##"<a href="#">click</a>"##), "{guide}");
    assert!(
        !guide.contains("javascript:") && !guide.contains("<script>"),
        "{guide}"
    );
    assert!(
        guide.contains("&lt;b onclick=\"x()\"&gt;bold&lt;/b&gt;"),
        "{guide}"
    );
    assert!(
        guide.contains("&lt;script&gt;alert(2)&lt;/script&gt;"),
        "{guide}"
    );
    let md = site.output("guides/choosing-a-transport.md");
    assert!(
        md.contains("[click](javascript:alert(1))"),
        "the .md keeps the text as written"
    );
}

#[test]
fn a_nul_in_a_body_becomes_the_replacement_character() {
    let site = TestSite::fixture("basic");
    site.write(
        "content/guides/choosing-a-transport.md",
        "---\ntitle: Choosing a transport\n---\n\nA\0B `c\0d` <b\0>\n\n```\ne\0f\n```\n",
    );
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    for path in [
        "guides/choosing-a-transport.html",
        "guides/choosing-a-transport.md",
    ] {
        let text = site.output(path);
        assert!(!text.contains('\0'), "{path} holds a NUL");
        for replaced in ["A\u{fffd}B", "c\u{fffd}d", "e\u{fffd}f"] {
            assert!(text.contains(replaced), "{path} lacks {replaced:?}");
        }
    }
}

#[test]
fn a_site_template_wins_over_the_theme() {
    let site = TestSite::fixture("basic");
    site.write(
        "templates/guide.html",
        "{% extends \"base.html\" %}{% block content %}<p>OVERRIDDEN {{ guide.title }}</p>{% endblock content %}",
    )
    .write("templates/README.md", "Not a template: {{ broken")
    .write("static/extra.txt", "extra\n");
    assert!(site.build().written);
    let guide = site.output("guides/choosing-a-transport.html");
    assert!(
        guide.contains("<p>OVERRIDDEN Choosing a transport</p>"),
        "{guide}"
    );
    assert!(
        guide.contains("<link rel=\"canonical\""),
        "still extends the theme's base"
    );
    assert_eq!(site.output("extra.txt"), "extra\n");
}

#[test]
fn a_broken_template_is_an_error_naming_it() {
    let site = TestSite::fixture("basic");
    site.write("templates/note.html", "{% if %}");
    let options = fieldnotes::BuildOptions {
        today: crate::support::today(),
        ..fieldnotes::BuildOptions::new(site.root().to_path_buf(), site.out())
    };
    match fieldnotes::build(&options) {
        Err(fieldnotes::Error::Template { name, .. }) => assert_eq!(name, "note.html"),
        other => panic!("expected a template error, got {other:?}"),
    }
    assert!(!site.out().exists());
}

#[test]
fn llms_txt_lists_every_markdown_rendition() {
    let site = built();
    let llms = site.output("llms.txt");
    assert!(
        llms.starts_with("# Basic Fixture\n\n> A small invented site"),
        "{llms}"
    );
    assert!(llms.contains(
        "- [Alpha Client reads a URL-only entry as SSE](https://example.org/research/alpha-defaults-to-sse.md)"
    ));
    assert!(llms.contains("(https://example.org/index.md)"));
    assert!(llms.contains("(https://example.org/clients/client-a.md)"));
}

#[test]
fn output_is_byte_identical_across_builds() {
    let site = built();
    let first = files_under(&site.out());
    assert!(site.build().written);
    let second = files_under(&site.out());
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &first {
        assert!(second[path] == *bytes, "{path} differs between builds");
    }
}

#[test]
fn snapshot_note_page() {
    let html = built().output(ALPHA);
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("note_page_html", html);
    });
}

#[test]
fn snapshot_client_page() {
    let html = built().output("clients/client-a.html");
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("client_page_html", html);
    });
}
