//! Tests: site_features. What the build writes beside the pages, on the `basic` fixture:
//! Atom feeds, `sitemap.xml`, `robots.txt`, the JSON data API against its schemas, the
//! search index; and what note pages add to a body: staleness badges, status notices, the
//! edit link, a table of contents, heading anchors, highlighted code.

use crate::support::TestSite;
use std::collections::BTreeSet;
use std::path::Path;

const NOTES: [&str; 3] = [
    "alpha-defaults-to-sse",
    "beta-tries-streamable-http-first",
    "gamma-calls-tools-in-order",
];

fn built(site: &TestSite) -> &TestSite {
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    site
}

fn fixture() -> TestSite {
    let site = TestSite::fixture("basic");
    built(&site);
    site
}

fn xml(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not XML: {e}\n{text}"))
}

const ATOM: &str = "http://www.w3.org/2005/Atom";

/// The text of the first child element `name` of `node`.
fn child<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Option<&'a str> {
    node.children()
        .find(|c| c.has_tag_name((ATOM, name)))
        .map(|c| c.text().unwrap_or(""))
}

/// Checks what RFC 4287 requires of a feed and its entries; returns the entries' ids.
fn atom_entries(text: &str) -> Vec<String> {
    let doc = xml(text);
    let feed = doc.root_element();
    assert!(feed.has_tag_name((ATOM, "feed")), "{text}");
    for field in ["id", "title", "updated"] {
        assert!(
            child(feed, field).is_some_and(|v| !v.is_empty()),
            "feed {field}"
        );
    }
    assert!(feed.children().any(|c| c.has_tag_name((ATOM, "author"))));
    let self_link = feed
        .children()
        .find(|c| c.has_tag_name((ATOM, "link")) && c.attribute("rel") == Some("self"));
    assert_eq!(
        self_link.and_then(|l| l.attribute("href")),
        child(feed, "id")
    );
    let rfc3339 = |v: &str| chrono::DateTime::parse_from_rfc3339(v).is_ok();
    assert!(rfc3339(child(feed, "updated").unwrap_or("")));
    feed.children()
        .filter(|c| c.has_tag_name((ATOM, "entry")))
        .map(|entry| {
            for field in ["id", "title", "updated", "summary"] {
                assert!(child(entry, field).is_some(), "entry {field}");
            }
            assert!(rfc3339(child(entry, "updated").unwrap_or("")));
            child(entry, "id").unwrap_or("").to_string()
        })
        .collect()
}

fn note_url(id: &str) -> String {
    format!("https://example.org/research/{id}")
}

#[test]
fn feeds_are_valid_atom_newest_first() {
    let site = fixture();
    let all = atom_entries(&site.output("feed.xml"));
    // Newest first: gamma 2026-11-20, beta 2026-11-10, alpha 2026-10-02.
    let expected: Vec<String> = NOTES.iter().rev().map(|n| note_url(n)).collect();
    assert_eq!(all, expected);
    let client_a = atom_entries(&site.output("feeds/clients/client-a.xml"));
    assert_eq!(client_a, [note_url("alpha-defaults-to-sse")]);
    let sse = atom_entries(&site.output("feeds/capabilities/transports.sse.xml"));
    assert_eq!(
        sse,
        [
            note_url("beta-tries-streamable-http-first"),
            note_url("alpha-defaults-to-sse")
        ]
    );
    let feed = site.output("feed.xml");
    assert!(
        feed.contains("<updated>2026-11-20T00:00:00Z</updated>"),
        "{feed}"
    );
    // Pages link their feeds.
    let client = site.output("clients/client-a.html");
    assert!(client.contains(r#"type="application/atom+xml" title="Research notes on Alpha Client" href="/feeds/clients/client-a.xml""#), "{client}");
}

#[test]
fn feeds_escape_front_matter_and_replace_what_xml_cannot_hold() {
    let site = TestSite::fixture("basic");
    let path = "content/research/alpha-defaults-to-sse.md";
    let text = std::fs::read_to_string(site.root().join(path)).expect("read");
    let hostile = "title: \"Alpha <script>alert('x')</script> & \\\"co\\\" \\u0001\"";
    let text = text.replace("title: Alpha Client reads a URL-only entry as SSE", hostile);
    site.write(path, &text);
    built(&site);
    let feed = site.output("feed.xml");
    let doc = xml(&feed);
    let title = doc
        .descendants()
        .filter(|n| n.has_tag_name((ATOM, "title")))
        .filter_map(|n| n.text())
        .find(|t| t.starts_with("Alpha"))
        .expect("the note's entry");
    assert_eq!(title, "Alpha <script>alert('x')</script> & \"co\" \u{fffd}");
    assert!(!feed.contains("<script>"), "{feed}");
    let html = site.output("research/alpha-defaults-to-sse.html");
    assert!(!html.contains("<script>alert"), "{html}");
    let api = site.output("api/notes.json");
    let notes: serde_json::Value = serde_json::from_str(&api).expect("JSON");
    assert_eq!(
        notes["notes"][0]["title"],
        "Alpha <script>alert('x')</script> & \"co\" \u{1}"
    );
}

#[test]
fn sitemap_lists_every_page_with_its_lastmod() {
    let site = fixture();
    let text = site.output("sitemap.xml");
    let doc = xml(&text);
    let ns = "http://www.sitemaps.org/schemas/sitemap/0.9";
    let urls: Vec<(String, Option<String>)> = doc
        .descendants()
        .filter(|n| n.has_tag_name((ns, "url")))
        .map(|u| {
            let get = |name| {
                u.children()
                    .find(|c| c.has_tag_name((ns, name)))
                    .and_then(|c| c.text())
                    .map(str::to_string)
            };
            (get("loc").expect("loc"), get("lastmod"))
        })
        .collect();
    let pages: BTreeSet<String> = walkdir::WalkDir::new(site.out())
        .into_iter()
        .map(|e| e.expect("walk"))
        .filter_map(|e| {
            let path = e
                .path()
                .strip_prefix(site.out())
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            let route = path.strip_suffix(".html")?;
            (!["404", "search", "disagreements"].contains(&route)).then(|| match route {
                "index" => "https://example.org/".to_string(),
                r => format!("https://example.org/{r}"),
            })
        })
        .collect();
    let listed: BTreeSet<String> = urls.iter().map(|(loc, _)| loc.clone()).collect();
    assert_eq!(listed, pages);
    assert_eq!(listed.len(), urls.len(), "a page listed twice");
    let lastmod = |loc: &str| {
        urls.iter()
            .find(|(l, _)| l == loc)
            .and_then(|(_, m)| m.clone())
    };
    // The later of last-updated (2026-10-02) and lastVerified (2026-10-01).
    assert_eq!(
        lastmod(&note_url("alpha-defaults-to-sse")).as_deref(),
        Some("2026-10-02")
    );
    assert_eq!(
        lastmod("https://example.org/guides/choosing-a-transport").as_deref(),
        Some("2026-11-21")
    );
    assert_eq!(
        lastmod("https://example.org/").as_deref(),
        Some("2026-11-21")
    );
    assert!(urls.iter().all(|(_, m)| m.is_some()), "{urls:?}");
}

#[test]
fn robots_txt_allows_all_and_names_the_sitemap() {
    let robots = fixture().output("robots.txt");
    assert!(robots.starts_with("User-agent: *\nAllow: /\n"), "{robots}");
    assert!(
        robots.contains("Sitemap: https://example.org/sitemap.xml\n"),
        "{robots}"
    );
}

/// Validates `api/<name>.json` of the built site against the schema shipped beside it.
fn validate(site: &TestSite, name: &str) -> serde_json::Value {
    let schema: serde_json::Value =
        serde_json::from_str(&site.output(&format!("api/{name}.schema.json"))).expect("schema");
    let kept = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/api/{name}.schema.json")),
    )
    .expect("schemas/api");
    // As shipped, but for its own title and description, which speak the site's words.
    let own = |text: &str| -> Vec<String> {
        (text.lines())
            .filter(|l| !l.starts_with("  \"title\": ") && !l.starts_with("  \"description\": "))
            .map(str::to_string)
            .collect()
    };
    let served = site.output(&format!("api/{name}.schema.json"));
    assert_eq!(own(&served), own(&kept));
    let data: serde_json::Value =
        serde_json::from_str(&site.output(&format!("api/{name}.json"))).expect("data");
    let validator = jsonschema::draft7::new(&schema).expect("a valid draft-07 schema");
    let errors: Vec<String> = validator
        .iter_errors(&data)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "api/{name}.json: {errors:#?}");
    assert_eq!(
        data["$schema"],
        format!("https://example.org/api/{name}.schema.json")
    );
    data
}

#[test]
fn the_data_api_validates_against_its_schemas() {
    let site = fixture();
    let notes = validate(&site, "notes");
    let ids: Vec<&str> = notes["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, NOTES);
    let alpha = &notes["notes"][0];
    assert_eq!(alpha["url"], note_url("alpha-defaults-to-sse"));
    assert_eq!(
        alpha["sources"][0]["ranges"][1]["href"],
        "https://github.com/example/client-a/blob/0123abc/src/config.py#L30-L40"
    );
    let clients = validate(&site, "clients");
    assert_eq!(clients["clients"][0]["tally"]["yes"], 2);
    assert_eq!(
        clients["clients"][2]["support"]["transports.streamableHttp"],
        "unknown"
    );
    let matrix = validate(&site, "matrix");
    let support = matrix["support"].as_object().expect("support");
    assert_eq!(support.len(), 3);
    for cells in support.values() {
        assert_eq!(
            cells.as_object().expect("cells").len(),
            3,
            "every capability"
        );
    }
    let unknown = &matrix["support"]["client-c"]["transports.streamableHttp"];
    assert_eq!(unknown["status"], "unknown");
    assert_eq!(unknown["sources"], serde_json::json!([]));
    assert_eq!(
        unknown["url"],
        "https://example.org/clients/client-c#support-transports.streamableHttp"
    );
}

/// `api/matrix.json` shows the support cell lint checked. A cell written under an alias is
/// accepted (a warning) and shown under the capability's id; a second cell for the same
/// capability is an error at both, so no build shows either of them in its place.
#[test]
fn the_matrix_api_shows_the_support_cell_lint_accepted() {
    let site = TestSite::fixture("basic");
    let path = "content/clients/client-a.md";
    let client = std::fs::read_to_string(site.root().join(path)).expect("client");
    let aliased = client.replace("  tools.call:\n", "  tool.call:\n");
    assert_ne!(aliased, client);
    site.write(path, &aliased);
    let codes: Vec<&str> = site.lint().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["FN206"]);
    let matrix = validate(built(&site), "matrix");
    let cell = &matrix["support"]["client-a"]["tools.call"];
    assert_eq!(cell["status"], "yes");
    assert_eq!(cell["notes"], "Calls tools one at a time.");

    let hidden = "  tools.call:\n    status: no\n    notes: Hidden.\n    research:\n      - \
                  gamma-calls-tools-in-order\n    lastVerified: 2026-10-01\n";
    site.write(
        path,
        &aliased.replace("  tool.call:\n", &format!("{hidden}  tool.call:\n")),
    );
    let findings = site.lint();
    let clashes: Vec<usize> = (findings.iter())
        .filter(|d| d.code == "FN209" && d.severity == fieldnotes::Severity::Error)
        .map(|d| d.line)
        .collect();
    assert_eq!(clashes.len(), 2, "{findings:#?}");
    assert!(!site.build().written);
    let kept = validate(&site, "matrix");
    assert_eq!(kept["support"]["client-a"]["tools.call"]["status"], "yes");
}

#[test]
fn the_search_index_holds_every_note() {
    let site = fixture();
    let json = |path: &str| -> serde_json::Value {
        serde_json::from_str(&site.output(&format!("search/{path}"))).expect(path)
    };
    let meta = json("meta.json");
    // 3 notes, 3 clients, 3 capabilities, 1 guide, 2 spec revisions.
    assert_eq!(meta["docs"], 12);
    let chunk = meta["chunk"].as_u64().expect("chunk") as usize;
    let page = |n: usize| json(&format!("docs/{}.json", n / chunk))[n % chunk].clone();
    let mut urls = BTreeSet::new();
    for n in 0..12 {
        let record = page(n);
        let (url, kind) = (&record[0], &record[2]);
        assert_eq!(record.as_array().map(Vec::len), Some(4), "{record}");
        if kind == "Research note" {
            urls.insert(url.as_str().expect("url").to_string());
        }
    }
    let expected: BTreeSet<String> = NOTES.iter().map(|n| format!("/research/{n}")).collect();
    assert_eq!(urls, expected);
    // Every shard listed exists, and a word of a note's body finds that note.
    let shards: Vec<String> = meta["shards"]
        .as_array()
        .expect("shards")
        .iter()
        .map(|s| s.as_str().expect("a shard").to_string())
        .collect();
    for shard in &shards {
        assert!(site
            .out()
            .join(format!("search/terms/{shard}.json"))
            .is_file());
    }
    let terms = json("terms/ss.json");
    let postings = terms["sse"].as_array().expect("the term sse");
    let found: BTreeSet<String> = postings
        .chunks(2)
        .map(|p| {
            page(p[0].as_u64().expect("page") as usize)[0]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        found.contains("/research/alpha-defaults-to-sse"),
        "{found:?}"
    );
}

/// The fixture with its site.yaml's lint section replaced.
fn with_config(lines: &str) -> TestSite {
    let site = TestSite::fixture("basic");
    let config = std::fs::read_to_string(site.root().join("site.yaml")).expect("site.yaml");
    site.write(
        "site.yaml",
        &config.replace("lint:\n  staleAfterDays: 180\n", lines),
    );
    site
}

#[test]
fn staleness_badges_follow_site_yaml() {
    // The thresholds go to the page; the browser compares them with the day it is read on.
    let site = with_config(
        "lint:\n  staleAfterDays: 180\nstaleness:\n  agingAfterDays: 10\n  staleAfterDays: 50\n",
    );
    built(&site);
    let alpha = site.output("research/alpha-defaults-to-sse.html");
    assert!(
        alpha.contains(r#"<body data-aging-days="10" data-stale-days="50">"#),
        "{alpha}"
    );
    assert!(alpha.contains(r#"data-freshness="always">"#), "{alpha}");
    // Defaults: lint's staleAfterDays, aging at half of it.
    let site = fixture();
    let alpha = site.output("research/alpha-defaults-to-sse.html");
    assert!(
        alpha.contains(r#"<body data-aging-days="90" data-stale-days="180">"#),
        "{alpha}"
    );
    let bad = with_config("lint:\n  staleAfterDays: 180\nstaleness:\n  staleDays: 3\n");
    assert!(matches!(
        fieldnotes::check(bad.root(), crate::support::today()),
        Err(fieldnotes::Error::Config { .. })
    ));
}

#[test]
fn superseded_and_retracted_notes_say_so_at_the_top() {
    let site = TestSite::fixture("basic");
    let edit = |id: &str, from: &str, to: &str| {
        let path = format!("content/research/{id}.md");
        let text = std::fs::read_to_string(site.root().join(&path)).expect("read");
        site.write(&path, &text.replacen(from, to, 1));
    };
    edit(
        "alpha-defaults-to-sse",
        "status: current",
        "status: superseded\nsupersededBy: beta-tries-streamable-http-first",
    );
    edit(
        "gamma-calls-tools-in-order",
        "status: current",
        "status: retracted",
    );
    built(&site);
    let alpha = site.output("research/alpha-defaults-to-sse.html");
    let notice = alpha
        .find(r#"<div class="notice notice-superseded" role="note">"#)
        .expect("notice");
    assert!(
        notice < alpha.find("<h1").expect("h1"),
        "the notice comes first"
    );
    assert!(alpha[notice..].contains(
        r#"replaced by <a href="/research/beta-tries-streamable-http-first">Beta Client tries"#
    ));
    let gamma = site.output("research/gamma-calls-tools-in-order.html");
    assert!(
        gamma.contains(
            r#"<div class="notice notice-retracted" role="note"><strong>Retracted.</strong>"#
        ),
        "{gamma}"
    );
}

#[test]
fn pages_link_to_their_file_on_the_repository() {
    let site = fixture();
    let edit = "https://github.com/example/fixture-site/edit/main/content/research/alpha-defaults-to-sse.md";
    let html = site.output("research/alpha-defaults-to-sse.html");
    assert!(
        html.contains(&format!(
            r#"<p class="page-foot"><a href="{edit}">Edit this page</a>"#
        )),
        "{html}"
    );
    let site = with_config("lint:\n  staleAfterDays: 180\nbranch: trunk\n");
    built(&site);
    let guide = site.output("guides/choosing-a-transport.html");
    assert!(guide.contains(
        "https://github.com/example/fixture-site/edit/trunk/content/guides/choosing-a-transport.md"
    ));
    assert!(
        !site.output("index.html").contains("Edit this page"),
        "the home page has no file"
    );
}

#[test]
fn long_bodies_get_a_table_of_contents_and_code_is_highlighted() {
    let site = TestSite::fixture("basic");
    site.write(
        "content/guides/choosing-a-transport.md",
        "---\ntitle: Choosing a transport\nsummary: Which one.\nlast-updated: 2026-11-21\n---\n\n\
         ## First\n\nText.\n\n### Detail\n\n```python\nif x == \"sse\":\n    pass\n```\n\n\
         ## Second `a<b`\n\n```nosuchlanguage\n<b>as text</b>\n```\n",
    );
    built(&site);
    let html = site.output("guides/choosing-a-transport.html");
    let toc = &html[html
        .find(r#"<nav class="toc" aria-label="On this page">"#)
        .expect("toc")..];
    let toc = &toc[..toc.find("</nav>").expect("end")];
    for (anchor, title) in [
        ("first", "First"),
        ("detail", "Detail"),
        ("second-ab", "Second a&lt;b"),
    ] {
        assert!(
            toc.contains(&format!(r##"<a href="#{anchor}">{title}</a>"##)),
            "{toc}"
        );
    }
    assert!(html.contains(r##"<h2 id="first">First <a class="anchor" href="#first" aria-label="Link to this section">#</a></h2>"##), "{html}");
    assert!(
        html.contains(r#"<pre class="highlight"><code class="language-python">"#),
        "{html}"
    );
    assert!(
        html.contains(
            r#"<span class="hl-keyword hl-control hl-conditional hl-if hl-python">if</span>"#
        ) || html.contains("hl-keyword"),
        "{html}"
    );
    assert!(
        html.contains("&lt;b&gt;as text&lt;&#x2F;b&gt;")
            || html.contains("&lt;b&gt;as text&lt;/b&gt;"),
        "{html}"
    );
    // A short body has none.
    let alpha = site.output("research/alpha-defaults-to-sse.html");
    assert!(!alpha.contains(r#"class="toc""#));
}

#[test]
fn urls_directory_writes_folders_and_links_them_with_a_slash() {
    let site = with_config("lint:\n  staleAfterDays: 180\nurls: directory\n");
    built(&site);
    let files = crate::support::files_under(&site.out());
    for page in [
        "index.html",
        "research/index.html",
        "research/alpha-defaults-to-sse/index.html",
        "clients/client-a/index.html",
        "spec/2025-03-26/index.html",
        "search/index.html",
        "404.html",
    ] {
        assert!(files.contains_key(page), "{page}");
    }
    assert!(!files.contains_key("research/alpha-defaults-to-sse.html"));
    // The Markdown renditions stay where body links point.
    assert!(files.contains_key("research/alpha-defaults-to-sse.md"));
    let alpha = site.output("research/alpha-defaults-to-sse/index.html");
    assert!(
        alpha.contains(r#"<a href="/clients/client-b/">Beta Client</a>"#),
        "{alpha}"
    );
    assert!(
        alpha.contains(r#"<a href="/research/" class="current">"#)
            || alpha.contains(r#"href="/research/""#)
    );
    let css = crate::assets::hashed(&site, "style", "css");
    assert!(
        alpha.contains(&format!(r#"<link rel="stylesheet" href="../../{css}">"#)),
        "{alpha}"
    );
    // The canonical URL stays the route: hosts redirect `x` to `x/`.
    assert!(alpha.contains(
        r#"<link rel="canonical" href="https://example.org/research/alpha-defaults-to-sse">"#
    ));
    let home = site.output("index.html");
    assert!(
        home.contains(r##"href="/clients/client-a/#support-transports.sse""##),
        "{home}"
    );
    assert!(
        home.contains(&format!(r#"<link rel="stylesheet" href="{css}">"#)),
        "{home}"
    );
    // FN012 knows where pages are written in this layout.
    site.write(
        "static/research/alpha-defaults-to-sse/index.html",
        "<p>mine</p>",
    );
    let findings = site.lint();
    assert!(findings.iter().any(|d| d.code == "FN012"), "{findings:#?}");

    let bad = with_config("lint:\n  staleAfterDays: 180\nurls: pretty\n");
    assert!(matches!(
        fieldnotes::check(bad.root(), crate::support::today()),
        Err(fieldnotes::Error::Config { .. })
    ));
}

#[test]
fn theme_files_are_linked_relative_to_each_page_so_a_build_opens_from_disk() {
    let site = fixture();
    let (css, js) = (
        crate::assets::hashed(&site, "style", "css"),
        crate::assets::hashed(&site, "site", "js"),
    );
    for (page, prefix) in [
        ("index.html", ""),
        ("research.html", ""),
        ("research/alpha-defaults-to-sse.html", "../"),
        ("search.html", ""),
    ] {
        let html = site.output(page);
        assert!(
            html.contains(&format!(r#"<link rel="stylesheet" href="{prefix}{css}">"#))
                && html.contains(&format!(r#"<script src="{prefix}{js}" defer>"#)),
            "{page}"
        );
    }
    // 404.html is served at any address: it links them from the root.
    assert!(site
        .output("404.html")
        .contains(&format!(r#"<link rel="stylesheet" href="/{css}">"#)));
}

#[test]
fn pages_carry_an_icon_open_graph_tags_and_a_plain_description() {
    let site = fixture();
    let alpha = site.output("research/alpha-defaults-to-sse.html");
    // The summary's code spans lose their backticks in the description.
    assert!(alpha.contains(r#"<meta name="description" content="An Alpha Client server entry with a url and no type comes out as SSE"#), "{alpha}");
    for tag in [
        r#"<meta property="og:type" content="article">"#,
        r#"<meta property="og:title" content="Alpha Client reads a URL-only entry as SSE">"#,
        r#"<meta property="og:url" content="https://example.org/research/alpha-defaults-to-sse">"#,
        r#"<meta property="og:description" content="An Alpha Client server entry with a url"#,
        r#"<meta name="twitter:card" content="summary">"#,
        r#"<link rel="icon" href="../favicon.svg" type="image/svg+xml">"#,
    ] {
        assert!(alpha.contains(tag), "{tag}");
    }
    assert!(site
        .output("index.html")
        .contains(r#"<meta property="og:type" content="website">"#));
    assert!(site.output("favicon.svg").starts_with("<svg"));
}

#[test]
fn a_spec_revision_page_says_what_is_new_in_it() {
    let site = fixture();
    let later = site.output("spec/2025-03-26.html");
    let new = &later[later
        .find(r#"<h2 id="capabilities">New in 2025-03-26</h2>"#)
        .expect("new")..];
    let new = &new[..new.find("</section>").expect("end")];
    assert!(new.contains(">Streamable HTTP</a>"), "{new}");
    assert!(
        new.contains(r#"<span class="status-yes">"#),
        "each with its clients' tally: {new}"
    );
    // It comes before the matrix.
    assert!(later.find("New in 2025-03-26") < later.find(r#"<h2 id="support">"#));
    let first = site.output("spec/2024-11-05.html");
    assert!(!first.contains(">Streamable HTTP</a></li>"));
}
