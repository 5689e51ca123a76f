//! The Markdown format: a heading with the counts, then a table of the first findings (most
//! severe first). Made for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`) or a merge
//! request comment, where the annotations alone may not show every finding.

use super::{one_line, summary_line, Options, Printed};
use crate::diagnostic::Severity;

/// How many findings the table lists; the heading counts them all.
pub const MAX_ROWS: usize = 50;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let mut out = format!("### fieldnotes lint: {}\n", summary_line(&report.summary));
    if report.diagnostics.is_empty() {
        return out;
    }
    out.push_str("\n| severity | rule | where | message |\n| --- | --- | --- | --- |\n");
    for d in report.diagnostics.iter().take(MAX_ROWS) {
        let mark = match d.severity {
            Severity::Error => "🔴 error",
            Severity::Warning => "🟡 warning",
            Severity::Info => "🔵 info",
        };
        out.push_str(&format!(
            "| {mark} | {} {} | {} | {} |\n",
            d.code,
            d.name,
            code_span(&format!("{}:{}:{}", options.path(d), d.line, d.column)),
            cell(&d.message)
        ));
    }
    let more = report.diagnostics.len().saturating_sub(MAX_ROWS);
    if more > 0 {
        out.push_str(&format!(
            "\n…and {more} more: `fieldnotes lint` lists them all.\n"
        ));
    }
    out
}

/// Text for a table cell: one line, `|` escaped, and `<` so that no tag is opened.
fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|").replace('<', "&lt;")
}

/// `text` as a code span in a table cell (a backtick in it becomes `'`).
fn code_span(text: &str) -> String {
    format!("`{}`", cell(text).replace('`', "'").replace("&lt;", "<"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_in_their_column_and_open_no_tag() {
        assert_eq!(cell("a|b\nc <script>"), "a\\|b c &lt;script>");
        assert_eq!(code_span("x`y|<z>"), "`x'y\\|<z>`");
    }
}
