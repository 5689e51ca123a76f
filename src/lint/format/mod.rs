//! Printing findings: one module per output format, all reading the same [`Diagnostic`]s.

mod human;
mod json;

use crate::cli::Format;
use crate::diagnostic::{Diagnostic, Summary};
use crate::source::SourceFile;

/// Everything a printer needs: the findings, the files they point into, the counts.
pub struct Report<'a> {
    pub diagnostics: &'a [Diagnostic],
    pub files: &'a [SourceFile],
    pub summary: Summary,
}

/// Renders `report` in `format`. `color` only affects the human format.
pub fn render(report: &Report<'_>, format: Format, color: bool) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Json => json::render(report),
        Format::Github | Format::Sarif | Format::Junit => json::render(report),
    }
}

pub use human::summary_line;
