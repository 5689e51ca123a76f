//! The GitHub Actions format: one workflow command per finding (`::error file=…::message`),
//! which GitHub shows as an annotation at the line, then the summary line.

use super::{message_and_help, summary_line, Options, Report};
use crate::diagnostic::Severity;

pub fn render(report: &Report<'_>, options: &Options) -> String {
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
