//! Tests: `serve`'s incremental rebuilds equal a full build byte for byte, and lint after an
//! edit equals a full lint; listings left for later catch up to a full build.

mod edits;

use crate::support::{today, TestSite};
use fieldnotes::serve::rebuild::{Rebuilder, Rebuilt};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Every file of a full in-memory build of the site in `site`.
pub fn full_build(site: &TestSite) -> BTreeMap<String, Vec<u8>> {
    let index = fieldnotes::open(site.root()).expect("site opens");
    let mut out = fieldnotes::render::output::MemoryOutput::default();
    fieldnotes::render::render(&index, None, &mut out).expect("renders");
    out.files
}

/// Every file the rebuilder makes after `changed`, search index included.
fn rebuilt(rebuilder: &mut Rebuilder, changed: &[&str]) -> BTreeMap<String, Vec<u8>> {
    rebuilt_counting(rebuilder, changed).0
}

/// [`rebuilt`], and how many pages were rendered anew.
fn rebuilt_counting(
    rebuilder: &mut Rebuilder,
    changed: &[&str],
) -> (BTreeMap<String, Vec<u8>>, usize) {
    let changed: Vec<PathBuf> = changed.iter().map(PathBuf::from).collect();
    let result = rebuilder.update(&changed).expect("rebuilds");
    assert_eq!(result.errors(), 0, "{:#?}", result.diagnostics);
    let (_, full_findings) = fieldnotes::check(rebuilder.root(), today()).expect("lints");
    assert_eq!(
        result.diagnostics, full_findings,
        "the same findings as a full lint"
    );
    let rendered = result.rendered;
    let mut files: BTreeMap<String, Vec<u8>> = result
        .site
        .expect("built")
        .files
        .into_iter()
        .map(|(path, bytes)| (path, bytes.to_vec()))
        .collect();
    files.extend(rebuilder.search().expect("search index"));
    (files, rendered)
}

/// Asserts two builds hold the same files with the same bytes, naming the first difference.
fn assert_same(incremental: &BTreeMap<String, Vec<u8>>, full: &BTreeMap<String, Vec<u8>>) {
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(incremental), names(full), "the same files");
    for (path, bytes) in full {
        assert!(
            incremental[path] == *bytes,
            "{path} differs:\n--- incremental\n{}\n--- full\n{}",
            String::from_utf8_lossy(&incremental[path]),
            String::from_utf8_lossy(bytes)
        );
    }
}

pub const ALPHA: &str = "content/research/alpha-defaults-to-sse.md";
pub const BETA: &str = "content/research/beta-tries-streamable-http-first.md";

pub fn read(site: &TestSite, path: &str) -> String {
    std::fs::read_to_string(site.root().join(path)).expect("read")
}

/// A rebuilder of `site`, built once; `defer`: listings after notes (as `serve` does).
fn built(site: &TestSite, defer: bool) -> Rebuilder {
    let mut rebuilder = Rebuilder::new(site.root(), None, today());
    rebuilder.defer_listings(defer);
    let first = rebuilder.build().expect("builds");
    assert_eq!(first.errors(), 0, "{:#?}", first.diagnostics);
    rebuilder
}

/// Rebuilds after `path` changed, checking its findings equal a full lint's.
fn relinted(rebuilder: &mut Rebuilder, path: &str) -> Rebuilt {
    let result = rebuilder.update(&[PathBuf::from(path)]).expect("rebuilds");
    let (_, full) = fieldnotes::check(rebuilder.root(), today()).expect("lints");
    assert_eq!(
        result.diagnostics, full,
        "{path}: the same findings as a full lint"
    );
    result
}

/// After a body-only edit `serve` lints again with the body rules only and keeps the other
/// rules' findings: the result must still equal a full lint, findings in bodies included.
#[test]
fn a_body_edit_lints_like_a_full_lint() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, false);
    let original = read(&site, ALPHA);
    let broken = format!(
        "{original}\nSee [nowhere](/research/no-such-note.md), <b>raw</b> and \
         [an anchor](beta-tries-streamable-http-first.md#no-such-heading).\n"
    );
    for (text, broken_link) in [(&broken, true), (&original, false)] {
        site.write(ALPHA, text);
        let result = relinted(&mut rebuilder, ALPHA);
        let codes: Vec<&str> = result.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes.contains(&"FN601"), broken_link, "{codes:?}");
    }
}

#[test]
fn incremental_rebuilds_equal_a_full_build() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = Rebuilder::new(site.root(), None, today());
    let first = rebuilder.build().expect("builds");
    assert_eq!(first.errors(), 0, "{:#?}", first.diagnostics);

    // A body edit that adds a link (a new backlink on beta).
    let alpha = read(&site, ALPHA);
    site.write(
        ALPHA,
        &format!("{alpha}\nSee also [gamma](/research/gamma-calls-tools-in-order.md).\n"),
    );
    let (files, rendered) = rebuilt_counting(&mut rebuilder, &[ALPHA]);
    assert_same(&files, &full_build(&site));
    assert_eq!(
        rendered, 2,
        "alpha, and gamma for its new backlink; the rest reused"
    );

    // A body edit without links: that note alone.
    let alpha = read(&site, ALPHA);
    site.write(ALPHA, &format!("{alpha}\nOne more sentence.\n"));
    let (files, rendered) = rebuilt_counting(&mut rebuilder, &[ALPHA]);
    assert_same(&files, &full_build(&site));
    assert_eq!(rendered, 1);

    // A front matter edit: the title shows in lists, related cards and backlinks.
    let beta = read(&site, BETA).replacen("title: Beta Client", "title: Beta Client now", 1);
    site.write(BETA, &beta);
    assert_same(&rebuilt(&mut rebuilder, &[BETA]), &full_build(&site));

    // A note's clients and related notes: client pages, feeds, related cards.
    let alpha = read(&site, ALPHA)
        .replacen("  - client-a\n  - client-b\n", "  - client-a\n", 1)
        .replacen(
            "related:\n  - beta-tries-streamable-http-first\n",
            "related:\n  - beta-tries-streamable-http-first\n  - gamma-calls-tools-in-order\n",
            1,
        );
    assert!(alpha.contains("  - gamma-calls-tools-in-order\n"));
    site.write(ALPHA, &alpha);
    assert_same(&rebuilt(&mut rebuilder, &[ALPHA]), &full_build(&site));

    // A client's title: shown on note pages, the matrix, lists.
    let client = "content/clients/client-a.md";
    let text = read(&site, client).replacen("title: Alpha Client", "title: Alpha Client 2", 1);
    site.write(client, &text);
    assert_same(&rebuilt(&mut rebuilder, &[client]), &full_build(&site));

    // The site's settings.
    let settings = read(&site, "site.yaml").replacen("title: Basic Fixture", "title: Basic", 1);
    site.write("site.yaml", &settings);
    assert_same(&rebuilt(&mut rebuilder, &["site.yaml"]), &full_build(&site));

    // A new note, linking to alpha and related to beta.
    let delta = alpha
        .replacen("id: alpha-defaults-to-sse", "id: delta-is-new", 1)
        .replacen(
            "canonical: https://example.org/research/alpha-defaults-to-sse",
            "canonical: https://example.org/research/delta-is-new",
            1,
        )
        .replacen("title: Alpha Client reads", "title: Delta Client reads", 1);
    let delta_path = "content/research/delta-is-new.md";
    site.write(delta_path, &delta);
    assert_same(&rebuilt(&mut rebuilder, &[delta_path]), &full_build(&site));

    // Renamed: file and id.
    let echo_path = "content/research/echo-was-delta.md";
    let echo = delta.replace("delta-is-new", "echo-was-delta");
    site.write(echo_path, &echo);
    site.remove(delta_path);
    assert_same(
        &rebuilt(&mut rebuilder, &[delta_path, echo_path]),
        &full_build(&site),
    );

    // Removed.
    site.remove(echo_path);
    assert_same(&rebuilt(&mut rebuilder, &[echo_path]), &full_build(&site));

    // A template override.
    site.write(
        "templates/404.html",
        "{% extends \"base.html\" %}{% block content %}<p>Gone.</p>{% endblock content %}",
    );
    assert_same(
        &rebuilt(&mut rebuilder, &["templates/404.html"]),
        &full_build(&site),
    );
}

/// Static files are listed again after a change under `static/`: a new one is published, and
/// one at a page's path is FN012 (the lint a full load would give) until it goes.
#[test]
fn static_files_added_while_serving_are_listed_again() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, false);
    site.write("static/img/logo.svg", "<svg/>");
    let files = rebuilt(&mut rebuilder, &["static/img/logo.svg"]);
    assert_eq!(
        files.get("img/logo.svg").map(Vec::as_slice),
        Some(&b"<svg/>"[..])
    );
    site.write("static/index.html", "<h1>not the home page</h1>");
    let result = relinted(&mut rebuilder, "static/index.html");
    let codes: Vec<&str> = result.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["FN012"]);
    site.remove("static/index.html");
    assert_same(
        &rebuilt(&mut rebuilder, &["static/index.html"]),
        &full_build(&site),
    );
}

/// A list of self-reports (`content/lists/<id>.yaml`) added, edited or removed while serving
/// is read again: its `reported` cells come and go as a full build has them.
#[test]
fn lists_of_self_reports_changed_while_serving_are_read_again() {
    const LIST: &str = "title: Vendor list\nurl: https://github.com/example/lists\n\
        commit: 1234567abcdef1234567abcdef1234567abcdef1\npath: clients.mdx\n\
        features:\n  Tools: tools.call\n  HTTP: transports.streamableHttp\n\
        reports:\n  client-c: {name: Gamma, line: 7, supports: [\"HTTP (partial)\"]}\n";
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, false);
    let gamma = "clients/client-c.html";
    let cited = "clients.mdx#L7";
    site.write("content/lists/vendor.yaml", LIST);
    let added = rebuilt(&mut rebuilder, &["content/lists/vendor.yaml"]);
    assert!(String::from_utf8_lossy(&added[gamma]).contains(cited));
    assert_same(&added, &full_build(&site));
    site.write(
        "content/lists/vendor.yaml",
        &LIST.replace("line: 7", "line: 9"),
    );
    let edited = rebuilt(&mut rebuilder, &["content/lists/vendor.yaml"]);
    assert!(String::from_utf8_lossy(&edited[gamma]).contains("clients.mdx#L9"));
    assert_same(&edited, &full_build(&site));
    site.remove("content/lists/vendor.yaml");
    let removed = rebuilt(&mut rebuilder, &["content/lists/vendor.yaml"]);
    assert!(!String::from_utf8_lossy(&removed[gamma]).contains("clients.mdx#L"));
    assert_same(&removed, &full_build(&site));
}

/// The files of a rebuild's site, as bytes.
fn site_files(rebuilt: Rebuilt) -> BTreeMap<String, Vec<u8>> {
    let site = rebuilt.site.expect("built");
    let files = site.files.into_iter();
    files.map(|(path, bytes)| (path, bytes.to_vec())).collect()
}

/// `serve` publishes an edited note at once and the pages listing it after: the first
/// result has the new note page and names the listings it left as they were; catching up
/// makes them, and the whole equals a full build.
#[test]
fn listings_deferred_after_an_edit_catch_up_to_a_full_build() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, true);
    assert!(rebuilder.catch_up().expect("nothing to do").is_none());

    let beta = read(&site, BETA).replacen("title: Beta Client", "title: Beta Renamed", 1);
    site.write(BETA, &beta);
    let first = rebuilder.update(&[PathBuf::from(BETA)]).expect("rebuilds");
    let pending = first.pending.clone();
    let files = site_files(first);
    let page = String::from_utf8_lossy(&files["research/beta-tries-streamable-http-first.html"]);
    assert!(
        page.contains("Beta Renamed"),
        "the note itself is up to date"
    );
    for listing in ["research.html", "research.md", "api/notes.json", "feed.xml"] {
        assert!(
            pending.iter().any(|p| p == listing),
            "{listing}: {pending:?}"
        );
        let stale = String::from_utf8_lossy(&files[listing]);
        assert!(
            !stale.contains("Beta Renamed"),
            "{listing} is left for later"
        );
    }
    assert!(
        !pending.iter().any(|p| p.starts_with("research/")),
        "note pages are never deferred: {pending:?}"
    );
    let caught_up = rebuilder.catch_up().expect("catches up").expect("had work");
    let mut files = site_files(caught_up);
    files.extend(rebuilder.search().expect("search index"));
    assert_same(&files, &full_build(&site));
    assert!(rebuilder.catch_up().expect("nothing left").is_none());

    // Each front matter field a listing, card, cell or feed shows: after catching up, the
    // site equals a full build.
    // A note no support cell cites, whose body links nowhere: only the pages listing it
    // show its title.
    let gamma = read(&site, "content/research/gamma-calls-tools-in-order.md");
    let (front, _) = gamma.split_at(gamma.find("\n---\n").expect("front matter") + 5);
    let delta = "content/research/delta-is-cited-nowhere.md";
    let front = front
        .replace("gamma-calls-tools-in-order", "delta-is-cited-nowhere")
        .replacen("title: Gamma Client runs", "title: Delta Client runs", 1)
        .replacen("related:\n  - beta-tries-streamable-http-first\n", "", 1);
    site.write(
        delta,
        &format!("{front}\n# Delta\n\nA body without links.\n"),
    );
    let added = rebuilder.update(&[PathBuf::from(delta)]).expect("rebuilds");
    assert_eq!(added.errors(), 0, "{:#?}", added.diagnostics);
    rebuilder.catch_up().expect("catches up");
    let edits: [(&str, &str, &str); 8] = [
        (
            delta,
            "title: Delta Client runs",
            "title: Delta Client now runs",
        ),
        (ALPHA, "status: current", "status: draft"),
        (
            ALPHA,
            "lastVerified: 2026-10-01",
            "lastVerified: 2026-10-03",
        ),
        (ALPHA, "kind: default-behaviour", "kind: idiosyncrasy"),
        (ALPHA, "  - transports.sse\n", ""),
        (ALPHA, "  - 2024-11-05\n", ""),
        (ALPHA, "summary: An Alpha", "summary: Now an Alpha"),
        (BETA, "title: Beta Renamed", "title: Beta Client"),
    ];
    for (path, from, to) in edits {
        let text = read(&site, path);
        assert!(text.contains(from), "{path} has {from:?}");
        site.write(path, &text.replacen(from, to, 1));
        let first = relinted(&mut rebuilder, path);
        assert_eq!(first.errors(), 0, "{to}: {:#?}", first.diagnostics);
        let mut files = match rebuilder.catch_up().expect("catches up") {
            Some(caught_up) => site_files(caught_up),
            None => site_files(first),
        };
        files.extend(rebuilder.search().expect("search index"));
        assert_same(&files, &full_build(&site));
    }

    // A body edit changes no listing: nothing is deferred.
    let beta = read(&site, BETA);
    site.write(BETA, &format!("{beta}\nOne more sentence.\n"));
    let second = rebuilder.update(&[PathBuf::from(BETA)]).expect("rebuilds");
    assert!(second.pending.is_empty(), "{:?}", second.pending);
    assert!(rebuilder.catch_up().expect("nothing to do").is_none());
}

/// A listing template that fails only when a listing renders: the note pages still go out
/// first, catching up reports the template's error, and fixing it catches up to a full build.
#[test]
fn a_listing_that_fails_to_render_is_reported_when_catching_up() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, true);
    let list = "templates/list.html";
    site.write(list, "{{ list.no_such_field.deeper }}");
    let first = rebuilder
        .update(&[PathBuf::from(list)])
        .expect("note pages render");
    assert!(first.site.is_some(), "{:#?}", first.diagnostics);
    assert!(
        first.pending.iter().any(|p| p == "research.html"),
        "{:?}",
        first.pending
    );
    let error = rebuilder
        .catch_up()
        .expect_err("the listing fails")
        .to_string();
    assert!(error.contains("list.html"), "{error}");

    site.remove(list);
    rebuilder.update(&[PathBuf::from(list)]).expect("rebuilds");
    let mut files = match rebuilder.catch_up().expect("catches up") {
        Some(caught_up) => site_files(caught_up),
        None => panic!("the listings were left for later"),
    };
    files.extend(rebuilder.search().expect("search index"));
    assert_same(&files, &full_build(&site));
}

/// A note's id changed in place: links to it, its backlinks and lint follow the new id (the
/// rebuild must see that ids changed), and changing it back equals a full build again.
#[test]
fn an_id_changed_in_place_is_indexed_again() {
    let site = TestSite::fixture("basic");
    let mut rebuilder = built(&site, false);
    let original = read(&site, ALPHA);
    let renamed = original.replacen("id: alpha-defaults-to-sse", "id: alpha-renamed", 1);
    site.write(ALPHA, &renamed);
    let result = relinted(&mut rebuilder, ALPHA);
    assert!(result.errors() > 0, "links to the old id are broken now");
    site.write(ALPHA, &original);
    assert_same(&rebuilt(&mut rebuilder, &[ALPHA]), &full_build(&site));
}

/// Random edits to the basic fixture's notes, clients, capabilities, guide and settings, each
/// rebuilt incrementally (listings deferred and caught up, or not) and compared byte for byte
/// to a full build. What a page shows is recorded as it renders; a view that read an input
/// without recording it would show a stale page here as soon as an edit touched that input.
#[test]
fn random_edits_rebuild_like_a_full_build() {
    for seed in 1..=6u64 {
        let site = TestSite::fixture("basic");
        let mut rebuilder = built(&site, seed % 2 == 1);
        let mut edits = edits::Edits::new(&site, seed);
        let mut done = Vec::new();
        for _ in 0..30 {
            let (what, paths) = edits.next();
            done.push(what);
            let changed: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
            let result = rebuilder.update(&changed).expect("rebuilds");
            let (_, full) = fieldnotes::check(site.root(), today()).expect("lints");
            assert_eq!(result.diagnostics, full, "seed {seed}, after {done:?}");
            if result.errors() > 0 {
                assert!(result.site.is_none(), "seed {seed}, after {done:?}");
                continue;
            }
            let mut files = match rebuilder.catch_up().expect("catches up") {
                Some(caught_up) => site_files(caught_up),
                None => site_files(result),
            };
            files.extend(rebuilder.search().expect("search index"));
            let full = full_build(&site);
            if files != full {
                eprintln!("seed {seed}, after {done:?}");
                assert_same(&files, &full);
            }
        }
    }
}

/// The day feeds count ages to is the newest date in the front matter: a rebuild after a
/// body edit reuses the last one, so an edit that moves it, then a body edit, must each
/// rebuild like a full build (with the listings deferred and caught up, as `serve` does).
#[test]
fn the_reference_day_follows_front_matter_and_body_edits() {
    let site = TestSite::fixture("basic");
    // No note is about this capability: its feed has no dated entry, and is dated by the
    // reference day.
    site.write(
        "content/capabilities/tools.list.md",
        "---\nid: tools.list\ntitle: List tools\ngroup: tools\n---\n\nLists tools.\n",
    );
    let mut rebuilder = built(&site, true);
    let alpha = read(&site, ALPHA);
    let newer = with_last_verified(&alpha, "2026-11-29");
    for text in [newer.clone(), format!("{newer}\nA body edit.\n"), alpha] {
        site.write(ALPHA, &text);
        let result = relinted(&mut rebuilder, ALPHA);
        assert_eq!(result.errors(), 0, "{:#?}", result.diagnostics);
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let latest = rebuilder.catch_up().expect("catches up").unwrap_or(result);
        let site_files = latest.site.expect("built").files;
        files.extend(site_files.into_iter().map(|(p, b)| (p, b.to_vec())));
        files.extend(rebuilder.search().expect("search index"));
        assert_same(&files, &full_build(&site));
    }
}

/// `text` with its `lastVerified` date set to `day`.
fn with_last_verified(text: &str, day: &str) -> String {
    let at = text.find("lastVerified: ").expect("a lastVerified") + "lastVerified: ".len();
    format!("{}{day}{}", &text[..at], &text[at + 10..])
}
