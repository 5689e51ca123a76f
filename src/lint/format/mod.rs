//! Printing findings: one module per output format, all reading the same [`Diagnostic`]s.

mod github;
mod human;
mod json;
mod junit;
mod sarif;

use crate::cli::Format;
use crate::diagnostic::{Diagnostic, Summary};
use crate::source::SourceFile;

/// Everything a printer needs: the findings, the files they point into, the counts.
pub struct Report<'a> {
    pub diagnostics: &'a [Diagnostic],
    pub files: &'a [SourceFile],
    pub summary: Summary,
}

/// How findings are printed, beyond the format.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Colour (the human format only).
    pub color: bool,
    /// Put before each file path (`site/` when the site is in a subfolder of the repository),
    /// so that CI annotations land on the right file. Empty or ending with `/`.
    pub path_prefix: String,
}

impl Options {
    /// A finding's file as printed: the prefix, then the path relative to the site root.
    pub fn path(&self, diagnostic: &Diagnostic) -> String {
        format!("{}{}", self.path_prefix, diagnostic.file)
    }
}

/// Renders `report` in `format`. `color` only affects the human format.
pub fn render(report: &Report<'_>, format: Format, color: bool) -> String {
    let options = Options {
        color,
        ..Options::default()
    };
    render_with(report, format, &options)
}

/// Renders `report` in `format` with `options`.
pub fn render_with(report: &Report<'_>, format: Format, options: &Options) -> String {
    match format {
        Format::Human => human::render(report, options),
        Format::Json => json::render(report, options),
        Format::Github => github::render(report, options),
        Format::Sarif => sarif::render(report, options),
        Format::Junit => junit::render(report, options),
    }
}

pub use human::summary_line;

/// A finding's message followed by its help on a new line, for formats with one text field.
fn message_and_help(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    }
}
