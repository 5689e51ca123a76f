//! One sanitizer for outside text: what a cited repository holds and what a client sent
//! reaches no page, `.md`, JSON or CSV output with a character that hides text or breaks a
//! line in one reader and not another (a lone CR ends a `.md` code fence).

use super::{build, excerpt_pages, text};
use crate::support::{copy_dir, fixtures, TestSite};

/// Characters that hide or break text, by class.
const HOSTILE: [char; 9] = [
    '\r',
    '\u{85}',
    '\u{2028}',
    '\u{2029}',
    '\u{200b}',
    '\u{2060}',
    '\u{feff}',
    '\u{e0041}',
    '\u{202e}',
];

fn assert_inert(name: &str, shown: &str) {
    for c in HOSTILE {
        let raw = match c {
            // A CR is fine where a CRLF ends a line.
            '\r' => shown.replace("\r\n", "").contains('\r'),
            c => shown.contains(c),
        };
        assert!(!raw, "{name} holds {c:?} raw");
    }
}

#[test]
fn excerpt_lines_that_hide_or_break_text_are_made_visible() {
    let (site, pages) = excerpt_pages(
        "a = 1\r# Heading from a lone CR\u{85}b\u{2028}c\u{2029}d",
        "e\u{200b}f\u{2060}g\u{feff}h \u{e0041}\u{e0042}\u{e007f} \u{202e}i",
    );
    for (page, shown) in pages {
        assert_inert(page, &shown);
    }
    // In the `.md` the line after the lone CR stays inside its fence: no heading.
    let md = site.output("research/alpha-defaults-to-sse.md");
    for name in [
        "<U+000D>",
        "<U+0085>",
        "<U+2028>",
        "<U+200B>",
        "<U+E0041>",
        "<U+202E>",
    ] {
        assert!(md.contains(name), "the .md names {name}");
    }
    assert!(!md.lines().any(|l| l.starts_with("# Heading")), "{md}");
}

#[test]
fn what_a_client_sent_is_made_inert_in_every_format() {
    let site = TestSite::fixture("basic");
    copy_dir(&fixtures().join("observed"), site.root());
    let id = "alpha-client-1-3-0-stdio-20261001-120000";
    let path = format!("content/observations/{id}.md");
    let md = std::fs::read_to_string(site.root().join(&path)).expect("md");
    let md = md
        .replace(
            "  name: alpha-client\n",
            "  name: alpha-client\n  vendor: \"alpha\\u202Eclient\\u200B\\r# x\"\n",
        )
        .replace(
            "  version: 1.3.0\n",
            "  version: \"1.3.0\\u2028\\U000E0041\"\n",
        )
        .replace(
            "  title: Alpha Client\n",
            "  title: \"Alpha\\x85Client\\uFEFF\"\n",
        );
    site.write(&path, &md);
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(site.out()).into_iter().flatten() {
        if !entry.file_type().is_file() {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("read");
        let shown = String::from_utf8_lossy(&bytes);
        if shown.contains("alpha") || shown.contains("1.3.0") {
            assert_inert(&entry.path().display().to_string(), &shown);
            checked += 1;
        }
    }
    assert!(
        checked > 3,
        "the client's text is shown somewhere ({checked} files)"
    );
    let page = site.output(&format!("observations/{id}.html"));
    assert!(page.contains("U+202E"), "the override is named");
}
