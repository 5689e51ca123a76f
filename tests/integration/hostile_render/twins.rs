//! Static files that some host folds onto a generated path: trailing dots and spaces
//! (Windows), Unicode case (`İ`), compatibility forms (full-width letters, NFKC).

use super::{build, text};
use crate::support::TestSite;

#[test]
fn static_twins_some_host_folds_are_refused() {
    let twins = [
        "static/feed.xml.",
        "static/feed.xml ",
        "static/\u{130}ndex.html",
        "static/\u{ff49}\u{ff4e}\u{ff44}\u{ff45}\u{ff58}.html",
        "static/research./alpha-defaults-to-sse.html",
        "static/\u{ff41}pi/notes.json",
    ];
    for twin in twins {
        let site = TestSite::fixture("basic");
        site.write(twin, "<h1>not the matrix</h1>");
        let fn012: Vec<String> = (site.lint().iter())
            .filter(|f| f.code == "FN012")
            .map(|f| f.message.clone())
            .collect();
        assert_eq!(fn012.len(), 1, "{twin:?}: {fn012:#?}");
        let out = build(&site);
        assert_ne!(
            out.status.code(),
            Some(0),
            "{twin:?}: {}",
            text(&out.stderr)
        );
    }
    // Names that fold to no generated path still publish.
    let site = TestSite::fixture("basic");
    site.write("static/caf\u{e9}.html", "x")
        .write("static/feed.xml.bak", "x");
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(site.output("feed.xml.bak"), "x");
}
