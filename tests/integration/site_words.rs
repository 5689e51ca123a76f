//! Tests: a site speaks its own words. Built from `fieldnotes init --example minimal` (a site
//! about EditorConfig), no output file — page, Markdown rendition, badge, schema, feed, data
//! API, search index — and no `lint --explain` text names MCP. [`assert_names_no_mcp`] takes any
//! site root, so any example site can be held to the same.

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
    (text.lines().enumerate())
        .filter(|(_, line)| MCP_WORDS.iter().any(|w| holds_word(line, w)))
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

#[test]
fn the_minimal_example_site_names_no_mcp_anywhere() {
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
    assert_names_no_mcp(&parent.path().join("site"), "2026-12-06");
}

#[test]
fn the_check_finds_the_words_it_looks_for() {
    assert!(holds_word("Helix · MCP: 5 yes", "MCP"));
    assert!(!holds_word("the MCPX package, fieldnotes-mcp", "MCP"));
    let found = lines_with_words("a.svg", "one\nEvery Model Context Protocol client\n");
    assert_eq!(found, ["a.svg:2: Every Model Context Protocol client"]);
}
