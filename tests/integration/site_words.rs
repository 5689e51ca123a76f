//! Tests: a site speaks its own words. Built from `fieldnotes init --example minimal` (a site
//! about EditorConfig), no output file — page, Markdown rendition, badge, schema, feed, data
//! API, search index — and no `lint --explain` text names MCP. [`assert_names_no_mcp`] takes any
//! site root, so any example site can be held to the same. And the theme's own words on every
//! page (navigation, headings, labels, tooltips) are the site's: an editor and a property
//! where the minimal site calls them so, never a client or a capability.

use std::path::Path;
use std::process::Command;

/// The words of the first site, which no other site's output may carry.
const MCP_WORDS: [&str; 2] = ["MCP", "Model Context Protocol"];

/// Whether `text` holds `word` as a whole word (no letter or digit right before or after).
fn holds_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Each line of `text` (named `what`) that holds one of the words, as `what:line: text`.
fn lines_with_words(what: &str, text: &str) -> Vec<String> {
    lines_holding(what, text, &MCP_WORDS)
}

/// Each line of `text` (named `what`) that holds one of `words`, as `what:line: text`.
fn lines_holding(what: &str, text: &str, words: &[&str]) -> Vec<String> {
    (text.lines().enumerate())
        .filter(|(_, line)| words.iter().any(|w| holds_word(line, w)))
        .map(|(i, line)| {
            format!(
                "{what}:{}: {}",
                i + 1,
                line.chars().take(160).collect::<String>()
            )
        })
        .collect()
}

/// Builds the site at `root` (into a temporary folder, as of `today`) and fails, listing each
/// place, when any output file or any rule's `fieldnotes lint --explain` text run in the site
/// names MCP or the Model Context Protocol.
pub fn assert_names_no_mcp(root: &Path, today: &str) {
    let out = build(root, today);
    let mut found = Vec::new();
    let files = crate::support::files_under(out.path());
    assert!(files.len() > 20, "a whole site: {} files", files.len());
    for (path, bytes) in &files {
        found.extend(lines_with_words(path, &String::from_utf8_lossy(bytes)));
    }
    for rule in fieldnotes::lint::rules::ALL {
        let code = rule.meta.code;
        let explain = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
            .current_dir(root)
            .args(["lint", "--explain", code])
            .output()
            .expect("fieldnotes runs");
        assert!(explain.status.success(), "--explain {code}");
        let text = String::from_utf8_lossy(&explain.stdout);
        found.extend(lines_with_words(&format!("--explain {code}"), &text));
    }
    assert!(
        found.is_empty(),
        "{} places name MCP:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// Builds the site at `root` as of `today` into a temporary folder, which it returns.
fn build(root: &Path, today: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().expect("temp dir");
    let build = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("--root")
        .arg(root)
        .args(["build", "--today", today, "--out"])
        .arg(out.path())
        .output()
        .expect("fieldnotes runs");
    assert!(
        build.status.success(),
        "the site builds: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    out
}

/// `fieldnotes init --example minimal` (the EditorConfig site) in a temporary folder, which
/// it returns with the site's root.
fn minimal_site() -> (tempfile::TempDir, std::path::PathBuf) {
    let parent = tempfile::tempdir().expect("temp dir");
    let init = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .current_dir(parent.path())
        .args(["init", "site", "--example", "minimal"])
        .output()
        .expect("fieldnotes runs");
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let root = parent.path().join("site");
    (parent, root)
}

#[test]
fn the_minimal_example_site_names_no_mcp_anywhere() {
    let (_parent, root) = minimal_site();
    assert_names_no_mcp(&root, "2026-12-06");
}

/// What a reader of an HTML page sees of it, a line per text run, in lower case: the text
/// outside tags and the `title`, `aria-label`, `placeholder` and `alt` values, without
/// scripts, styles and code (`<code>`, `<pre>`: commands and paths, which keep their names).
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        out.push('\n');
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        for attribute in ["title=\"", "aria-label=\"", "placeholder=\"", "alt=\""] {
            if let Some(at) = tag.find(attribute) {
                let value = &tag[at + attribute.len()..];
                out.push_str(value.split('"').next().unwrap_or(""));
                out.push('\n');
            }
        }
        let name = tag.split([' ', '/']).next().unwrap_or("");
        if ["script", "style", "code", "pre"].contains(&name) {
            let end = format!("</{name}>");
            rest = rest.find(&end).map_or("", |at| &rest[at + end.len()..]);
        }
    }
    out.push_str(rest);
    out.to_lowercase()
}

/// A Markdown rendition as a reader sees it, in lower case: without code spans, fenced blocks
/// and link destinations (URLs and paths keep their names).
fn visible_markdown(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                let mut rest = part;
                while let Some(at) = rest.find("](") {
                    out.push_str(&rest[..at]);
                    rest = rest[at..].split_once(')').map_or("", |(_, after)| after);
                }
                out.push_str(rest);
            }
        }
        out.push('\n');
    }
    out.to_lowercase()
}

#[test]
fn the_minimal_example_site_shows_its_own_words_for_what_it_tracks() {
    let (_parent, root) = minimal_site();
    let out = build(&root, "2026-12-06");
    let mut found = Vec::new();
    let mut pages = 0;
    for (path, bytes) in crate::support::files_under(out.path()) {
        let text = String::from_utf8_lossy(&bytes);
        let seen = match path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("html") => visible_text(&text),
            Some("md") => visible_markdown(&text),
            _ => continue,
        };
        pages += 1;
        found.extend(lines_holding(&path, &seen, &fieldnotes::config::WORDS));
    }
    assert!(pages > 20, "every page and its Markdown: {pages}");
    assert!(
        found.is_empty(),
        "{} places show the default words:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_reader_view_keeps_text_and_tooltips_and_leaves_code_and_links_out() {
    let html = r#"<nav><a href="/clients" title="All Editors">Editors</a></nav><code>new client</code><p>A <b>b</b></p>"#;
    let seen = visible_text(html);
    assert!(seen.contains("all editors") && seen.contains("editors") && seen.contains("a "));
    assert!(!seen.contains("client"));
    let seen = visible_markdown("- [Editors](/clients/x.md): `client`\n```\nclient\n```\nok\n");
    assert_eq!(seen, "- [editors: \nok\n");
}

#[test]
fn the_check_finds_the_words_it_looks_for() {
    assert!(holds_word("Helix · MCP: 5 yes", "MCP"));
    assert!(!holds_word("the MCPX package, fieldnotes-mcp", "MCP"));
    let found = lines_with_words("a.svg", "one\nEvery Model Context Protocol client\n");
    assert_eq!(found, ["a.svg:2: Every Model Context Protocol client"]);
}
