//! `sources bump` writes only inside the site and never corrupts a note: its staging file is
//! created new (a symlink a pull request committed at its name is never written through), it
//! refuses a site lint finds symlinked content in (FN001), and a value with a YAML anchor or
//! alias is refused at its line and column, not rewritten.

use super::stderr;
use crate::provenance::{fixture, sources_offline};
use std::fs;

/// The note whose source (`src/transport.py:5-8` at v1) moved to lines 8–11: bump re-pins it.
const NOTE: &str = "content/research/widget-picks-streamable-http.md";

/// The name the bump of [`NOTE`] staged its text under until now.
const STAGING: &str = "content/research/.widget-picks-streamable-http.md.bump";

#[test]
fn a_symlink_at_the_staging_name_is_never_written_through() {
    // Leading out of the site: lint's FN001, so bump refuses to run at all.
    let (site, widget) = fixture();
    let outside = tempfile::tempdir().expect("temp dir");
    let victim = outside.path().join("victim.txt");
    fs::write(&victim, "keep\n").expect("write");
    let staging = site.root().join(STAGING);
    std::os::unix::fs::symlink(&victim, &staging).expect("symlink");
    let out = sources_offline(&site, &widget, &["bump"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&victim).expect("victim"), "keep\n");

    // Leading to another file of the site: bump runs, and writes neither through the
    // symlink nor the symlink over the note.
    let (site, widget) = fixture();
    let client = site
        .root()
        .join("content/capabilities/transports.streamableHttp.md");
    let client_before = fs::read_to_string(&client).expect("client");
    let staging = site.root().join(STAGING);
    std::os::unix::fs::symlink("../capabilities/transports.streamableHttp.md", &staging)
        .expect("symlink");
    let before = fs::read_to_string(site.root().join(NOTE)).expect("note");
    let out = sources_offline(&site, &widget, &["bump"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&client).expect("client"), client_before);
    let note = site.root().join(NOTE);
    let meta = fs::symlink_metadata(&note).expect("note");
    assert!(meta.file_type().is_file(), "the note became a symlink");
    let after = fs::read_to_string(&note).expect("note");
    assert_ne!(after, before, "{}", stderr(&out));
    assert!(after.contains("path: src/transport.py:8-11"), "{after}");
    // The planted symlink is left alone, and no staging file is left behind.
    assert!(fs::symlink_metadata(&staging).is_ok_and(|m| m.file_type().is_symlink()));
    let left: Vec<String> = fs::read_dir(site.root().join("content/research"))
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".bump-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn bump_refuses_a_site_with_symlinked_content() {
    let (site, widget) = fixture();
    let outside = tempfile::tempdir().expect("temp dir");
    let target = outside.path().join("elsewhere.md");
    fs::write(&target, "---\nid: elsewhere\n---\n").expect("write");
    std::os::unix::fs::symlink(&target, site.root().join("content/research/elsewhere.md"))
        .expect("symlink");
    let before = fs::read_to_string(site.root().join(NOTE)).expect("note");
    let out = sources_offline(&site, &widget, &["bump"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("FN001"), "{}", stderr(&out));
    assert!(stderr(&out).contains("content/research/elsewhere.md"));
    assert_eq!(
        fs::read_to_string(site.root().join(NOTE)).expect("note"),
        before
    );
    assert_eq!(
        fs::read_to_string(&target).expect("target"),
        "---\nid: elsewhere\n---\n"
    );
}

#[test]
fn a_value_with_an_anchor_or_an_alias_is_refused_at_its_place() {
    for (from, to, line, column) in [
        // The anchored path, which the title's alias shares.
        (
            "    title: src/transport.py, pick_transport\n    commit: 457c9c41\n    \
             path: src/transport.py:5-8\n",
            "    commit: 457c9c41\n    path: &p src/transport.py:5-8\n    title: *p\n",
            15,
            11,
        ),
        // The commit as an alias of a value anchored elsewhere in the note.
        ("    commit: 457c9c41\n", "    commit: *c\n", 15, 13),
    ] {
        let (site, widget) = fixture();
        let text = fs::read_to_string(site.root().join(NOTE)).expect("note");
        let mut text = text.replacen(from, to, 1);
        if to.contains("*c") {
            text = text.replacen(
                "summary: Widget picks Streamable HTTP unless told otherwise.",
                "summary: &c 457c9c41",
                1,
            );
        }
        site.write(NOTE, &text);
        let out = sources_offline(&site, &widget, &["bump"]);
        let error = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{error}");
        assert!(
            error.contains(&format!("{NOTE}:{line}:{column}: refused:")),
            "{error}"
        );
        assert_eq!(
            fs::read_to_string(site.root().join(NOTE)).expect("note"),
            text,
            "the note was rewritten"
        );
    }
}
