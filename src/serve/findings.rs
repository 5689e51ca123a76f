//! What `serve` prints of each rebuild's findings: after the first build, the first findings
//! and the counts by rule (as `build` prints them); after each later one, only the findings
//! that are new and those that were fixed since the rebuild before, then a one-line summary —
//! never the whole list again.

use crate::diagnostic::{Diagnostic, Summary};
use crate::lint::format::{self, Format, Options, Report};
use crate::terminal;
use crate::text_file::TextFile;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A finding as it is matched across rebuilds: by rule, file and message, not by line, so a
/// finding that moved down a line when text was added above it is the same finding.
type Key = (&'static str, String, String);

/// The findings of the last rebuild, counted by [`Key`].
#[derive(Debug, Default)]
pub struct Findings {
    last: Option<HashMap<Key, usize>>,
}

impl Findings {
    /// The text to print for a rebuild with `diagnostics` (empty when nothing changed), and
    /// remembers them for the next one.
    pub fn report(
        &mut self,
        diagnostics: &[Diagnostic],
        files: &[TextFile],
        color: bool,
    ) -> String {
        let mut now: HashMap<Key, usize> = HashMap::new();
        for d in diagnostics {
            *now.entry(key(d)).or_default() += 1;
        }
        let summary = Summary::of(diagnostics, files.len());
        let Some(mut before) = self.last.replace(now) else {
            return first(diagnostics, files, summary, color);
        };
        let mut new = Vec::new();
        for d in diagnostics {
            match before.get_mut(&key(d)) {
                Some(n) if *n > 0 => *n -= 1,
                _ => new.push(d.clone()),
            }
        }
        let fixed: Vec<(Key, usize)> = before.into_iter().filter(|(_, n)| *n > 0).collect();
        if new.is_empty() && fixed.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        if !new.is_empty() {
            let report = Report {
                diagnostics: &new,
                files,
                summary,
            };
            let options = Options {
                color,
                quiet: true,
                limit: Some(format::FIRST_FINDINGS),
                ..Options::default()
            };
            let _ = writeln!(out, "new findings:");
            out.push_str(&format::render_with(&report, Format::Human, &options));
        }
        let fixed_count: usize = fixed.iter().map(|(_, n)| n).sum();
        for ((code, file, message), _) in fixed.iter().take(format::FIRST_FINDINGS) {
            let _ = writeln!(
                out,
                "fixed: {}: {code} {}",
                terminal::escape(file),
                terminal::escape(message)
            );
        }
        let _ = writeln!(
            out,
            "{} new, {fixed_count} fixed; now {}",
            new.len(),
            format::summary_line(&summary)
        );
        out
    }
}

fn key(d: &Diagnostic) -> Key {
    (d.code, d.file.clone(), d.message.clone())
}

/// After the first build: the first findings and the counts by rule.
fn first(diagnostics: &[Diagnostic], files: &[TextFile], summary: Summary, color: bool) -> String {
    if diagnostics.is_empty() {
        return String::new();
    }
    let report = Report {
        diagnostics,
        files,
        summary,
    };
    let options = Options {
        color,
        limit: Some(format::FIRST_FINDINGS),
        ..Options::default()
    };
    format::render_with(&report, Format::Human, &options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::text_file::Span;

    fn finding(file: &str, line: usize, message: &str) -> Diagnostic {
        Diagnostic {
            code: "FN304",
            name: "stale-verification",
            severity: Severity::Warning,
            file: file.to_string(),
            line,
            column: 1,
            end_line: line,
            end_column: 1,
            message: message.to_string(),
            help: None,
            span: Span::new(0, 0, 0),
        }
    }

    #[test]
    fn later_rebuilds_print_only_what_changed() {
        let mut findings = Findings::default();
        let many: Vec<Diagnostic> = (0..500)
            .map(|i| finding(&format!("content/research/n{i}.md"), 3, "stale"))
            .collect();
        let first = findings.report(&many, &[], false);
        assert!(first.contains("… and 480 more findings"), "{first}");
        assert!(first.contains("FN304 stale-verification"), "{first}");
        let mut moved = many.clone();
        moved[7].line = 9; // text added above it: the same finding
        assert_eq!(findings.report(&moved, &[], false), "");
        let mut changed = moved.clone();
        changed.remove(3);
        changed.push(finding("content/research/new.md", 2, "stale"));
        let text = findings.report(&changed, &[], false);
        assert!(text.starts_with("new findings:\n"), "{text}");
        assert!(text.contains("content/research/new.md"), "{text}");
        assert!(
            text.contains("fixed: content/research/n3.md: FN304 stale"),
            "{text}"
        );
        assert!(
            text.ends_with("1 new, 1 fixed; now 0 errors, 500 warnings in 0 files\n"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 6, "only what changed: {text}");
    }
}
