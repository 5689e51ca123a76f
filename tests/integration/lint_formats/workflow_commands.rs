//! Tests: every `fieldnotes …` command line of the Action (`action.yml`), this repository's
//! workflows (`.github/workflows/`) and the example workflows (`examples/workflows/`) is one
//! the real command line (clap) takes.

use std::path::{Path, PathBuf};

/// Every `fieldnotes …` command line in `text` (a workflow or action): lines continued with
/// `\` joined, the command cut at the first redirection, pipe or `||`, its words split as the
/// shell splits them, each `$VARIABLE` word a placeholder and each `"${array[@]}"` left out.
fn fieldnotes_commands(text: &str) -> Vec<(String, Vec<String>)> {
    let mut lines = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let line = line.trim();
        match line.strip_suffix('\\') {
            Some(start) => pending.push_str(start),
            None => {
                pending.push_str(line);
                lines.push(std::mem::take(&mut pending));
            }
        }
    }
    let is_command = |l: &str| l == "fieldnotes" || l.starts_with("fieldnotes ");
    (lines.into_iter().filter(|l| is_command(l)))
        .map(|line| {
            let words = shell_words(&line)
                .into_iter()
                .take_while(|w| !matches!(w.as_str(), "|" | "||" | "&&" | ";" | ">" | "2>&1"))
                .filter(|w| !(w.starts_with("${") && w.ends_with("[@]}")))
                .map(|w| match w.starts_with('$') {
                    true => "placeholder".to_string(),
                    false => w,
                })
                .collect();
            (line, words)
        })
        .collect()
}

/// `line` split into words as the shell splits them (quotes removed); `>`, `|`, `||`, `&&`
/// and `;` outside quotes are words of their own.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut chars = line.chars().peekable();
    let mut started = false;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, '>' | '|' | ';' | '&') => {
                if !word.is_empty() && word != "2" {
                    words.push(std::mem::take(&mut word));
                }
                word.clear();
                let mut op = c.to_string();
                while chars.peek().is_some_and(|n| matches!(n, '>' | '|' | '&')) {
                    op.push(chars.next().expect("peeked"));
                }
                words.push(if op == ">&" { "2>&1".to_string() } else { op });
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn every_fieldnotes_command_in_the_action_and_the_workflows_parses_with_the_cli() {
    use clap::Parser;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("action.yml")];
    for folder in [".github/workflows", "examples/workflows"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .expect(folder)
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
            .collect();
        found.sort();
        files.extend(found);
    }
    let mut checked = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a workflow");
        for (line, words) in fieldnotes_commands(&text) {
            let parsed = fieldnotes::cli::Cli::try_parse_from(&words);
            let fine = match &parsed {
                Ok(_) => true,
                Err(e) => e.kind() == clap::error::ErrorKind::DisplayVersion,
            };
            assert!(
                fine,
                "{}: `{line}` is not a command fieldnotes takes: {}",
                file.display(),
                parsed.err().map(|e| e.to_string()).unwrap_or_default()
            );
            checked.push(words.join(" "));
        }
    }
    for wanted in [
        "fieldnotes lint --format github",
        "fieldnotes diff --base placeholder --format markdown",
        "fieldnotes --version",
        "fieldnotes lint --format concise",
        "fieldnotes sources queue --root placeholder --partial --timeout 300 --format json",
        "fieldnotes sources drift --root placeholder --offline --format github",
    ] {
        assert!(
            checked.iter().any(|c| c == wanted),
            "{wanted} in {checked:#?}"
        );
    }
    // The check itself: a command the CLI does not take is caught.
    let (_, words) = fieldnotes_commands("fieldnotes lint --format nope > x.txt\n").remove(0);
    assert_eq!(words, ["fieldnotes", "lint", "--format", "nope"]);
    assert!(fieldnotes::cli::Cli::try_parse_from(&words).is_err());
}
