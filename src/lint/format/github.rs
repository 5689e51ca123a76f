//! The GitHub Actions format: one workflow command per finding (`::error file=…::message`),
//! which GitHub shows as an annotation at the line, then the summary line.
//!
//! GitHub shows at most [`ANNOTATIONS_SHOWN`] annotations of each kind per step: findings
//! come most severe first, so errors are the ones shown, and a last line says when some were
//! left out (they are still in the log; the action's job summary lists them too).

use super::{message_and_help, summary_line, Options, Printed};
use crate::diagnostic::Severity;

/// How many annotations of one kind (error, warning, notice) GitHub shows for one step.
pub const ANNOTATIONS_SHOWN: usize = 10;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let mut out = String::new();
    for d in report.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            property(&options.path(d)),
            d.line,
            d.column,
            d.end_line,
            d.end_column,
            property(&format!("{} {}", d.code, d.name)),
            data(&message_and_help(d)),
        ));
    }
    out.push_str(&summary_line(&report.summary));
    out.push('\n');
    let summary = &report.summary;
    let hidden: usize = [summary.errors, summary.warnings, summary.infos]
        .iter()
        .map(|n| n.saturating_sub(ANNOTATIONS_SHOWN))
        .sum();
    if hidden > 0 {
        out.push_str(&format!(
            "GitHub shows the first {ANNOTATIONS_SHOWN} annotations of each kind: {hidden} more \
             findings are in this log above, and in the job summary\n"
        ));
    }
    out
}

/// Escapes a command's message as GitHub specifies.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property's value: as data, and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_github_specifies() {
        assert_eq!(data("50%\r\nnext: a,b"), "50%25%0D%0Anext: a,b");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
