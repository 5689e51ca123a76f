//! A hostile repository and hostile pins: file names made of terminal escape codes are printed
//! escaped, and a pinned `commit` that git would read as an option never reaches git.

use super::sources_offline;
use crate::lint_formats::has_controls;
use crate::support::TestSite;
use std::fs;

/// A file name that would retitle the terminal window and clear the screen.
const HOSTILE_NAME: &str = "src/\x1b]0;pwned\x07\x1b[2J.py";

/// The same name as printed.
const HOSTILE_SHOWN: &str = "src/\\u{1b}]0;pwned\\u{7}\\u{1b}[2J.py";

/// Replaces `from` with `to` in the site's file `path`.
fn edit(site: &TestSite, path: &str, from: &str, to: &str) {
    let text = fs::read_to_string(site.root().join(path)).expect("note");
    assert!(text.contains(from), "{from} in {path}");
    site.write(path, &text.replacen(from, to, 1));
}

#[test]
fn drift_and_queue_show_file_names_from_a_repository_and_content_escaped() {
    let (site, widget) = super::fixture();
    // The default branch renames the pinned `src/settings.py` (once `src/config.py`).
    widget.repo.git(&["mv", "src/settings.py", HOSTILE_NAME]);
    widget.repo.commit("2026-04-01T10:00:00Z", "hostile rename");
    // A pinned path in content with an escape code (YAML's `\e`).
    edit(
        &site,
        "content/research/widget-documented-sse.md",
        "path: docs/old.md:3",
        "path: \"docs/\\e[2J\\u202eold.md:3\"",
    );
    // A `lastVerified` that is no date, which the queue prints as written.
    edit(
        &site,
        "content/research/widget-documented-sse.md",
        "lastVerified: 2026-10-01",
        "lastVerified: \"\\e]0;pwned\\a\"",
    );
    let drift = sources_offline(&site, &widget, &["drift"]);
    let table = String::from_utf8(drift.stdout).expect("utf-8");
    assert_eq!(drift.status.code(), Some(0), "{table}");
    assert!(!has_controls(&table), "{table:?}");
    assert!(
        table.contains(&format!("{HOSTILE_SHOWN}:2-3 @ ")),
        "{table}"
    );
    assert!(
        table.contains("docs/\\u{1b}[2J\\u{202e}old.md:3 @ "),
        "{table}"
    );
    let verify = sources_offline(&site, &widget, &["verify"]);
    let findings = String::from_utf8(verify.stdout).expect("utf-8");
    assert!(findings.contains("FN953"), "{findings}");
    assert!(!has_controls(&findings), "{findings:?}");
    let queue = sources_offline(&site, &widget, &["queue", "--today", "2026-11-30"]);
    let queue = String::from_utf8(queue.stdout).expect("utf-8");
    assert!(queue.starts_with("STATE "), "{queue}");
    assert!(!has_controls(&queue), "{queue:?}");
    assert!(queue.contains("\\u{1b}]0;pwned\\u{7}"), "{queue}");
}

#[test]
fn a_pinned_commit_git_would_read_as_an_option_never_reaches_git() {
    let (site, widget) = super::fixture();
    let note = "content/research/widget-picks-streamable-http.md";
    for commit in ["--output=written.txt", "-owritten.txt"] {
        edit(
            &site,
            note,
            "commit: 457c9c41",
            &format!("commit: \"{commit}\""),
        );
        for command in [
            &["verify"][..],
            &["drift"],
            &["queue", "--today", "2026-11-30"],
        ] {
            let out = sources_offline(&site, &widget, command);
            assert!(
                out.status.code().is_some_and(|c| c < 2),
                "{command:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            for folder in [site.root(), widget.repo.path()] {
                assert!(
                    !folder.join("written.txt").exists(),
                    "{commit} wrote a file ({command:?})"
                );
            }
        }
        edit(
            &site,
            note,
            &format!("commit: \"{commit}\""),
            "commit: 457c9c41",
        );
    }
}
