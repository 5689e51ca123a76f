//! The Markdown format: a heading with the counts, then a table of the first findings (most
//! severe first). Made for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`) or a merge
//! request comment, where the annotations alone may not show every finding.
//!
//! A finding's message quotes the pull request (a link target, a value, a title): each cell
//! is an inert code span (`diff::inert`, shared with `fieldnotes diff`) so that nothing in it renders as a link, image,
//! mention or tag, and the whole keeps within [`inert::COMMENT_BYTES`] (rows past it are
//! counted), far under GitHub's 1 MiB job summary beside the diff.

use super::{summary_line, Options, Printed};
use crate::diagnostic::Severity;
use crate::diff::inert::{self, Budget};

/// How many findings the table lists; the heading counts them all.
pub const MAX_ROWS: usize = 50;

/// Most characters of a message shown in its cell.
const MESSAGE_CHARS: usize = 400;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let mut out = Budget::new(inert::COMMENT_BYTES);
    out.push(&format!(
        "### fieldnotes lint: {}\n",
        summary_line(&report.summary)
    ));
    if report.diagnostics.is_empty() {
        return out.finish("rows", "`fieldnotes lint` lists them all");
    }
    out.push("\n| severity | rule | where | message |\n| --- | --- | --- | --- |\n");
    for d in report.diagnostics.iter().take(MAX_ROWS) {
        let mark = match d.severity {
            Severity::Error => "🔴 error",
            Severity::Warning => "🟡 warning",
            Severity::Info => "🔵 info",
        };
        let place = format!("{}:{}:{}", options.path(d), d.line, d.column);
        out.push(&format!(
            "| {mark} | {} {} | {} | {} |\n",
            d.code,
            d.name,
            inert::cell(&place, 200),
            inert::cell(&d.message, MESSAGE_CHARS)
        ));
    }
    let more = report.diagnostics.len().saturating_sub(MAX_ROWS);
    if more > 0 {
        out.close(&format!(
            "\n…and {more} more: `fieldnotes lint` lists them all.\n"
        ));
    }
    out.finish("rows", "`fieldnotes lint` lists them all")
}
