//! Printing findings: one module per output format, all reading the same [`Diagnostic`]s in
//! one order, the print order: errors first, then warnings, then infos; by file, line and
//! column within each.

mod concise;
mod fingerprint;
mod github;
mod gitlab;
pub mod help;
mod human;
mod json;
mod junit;
mod markdown;
mod overview;
mod paths;
mod rdjson;
mod sarif;

use crate::diagnostic::{Diagnostic, Summary};
pub use crate::diff::inert::problems as review_markdown_problems;
use crate::text_file::TextFile;
pub use paths::PathStyle;
use std::cmp::Reverse;

/// An output format. The command line takes these by name (`--format sarif`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A code frame per finding, then a summary line.
    Human,
    /// One line per finding: `path:line:col: severity CODE message` (editors, grep).
    Concise,
    /// `{"diagnostics": [...], "summary": {...}}`.
    Json,
    /// GitHub Actions workflow commands: annotations at each line.
    Github,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// JUnit XML (junit-10.xsd), for CI test reports.
    Junit,
    /// GitLab Code Quality (a Code Climate subset), for merge request widgets.
    Gitlab,
    /// reviewdog's Diagnostic Format (rdjson).
    Rdjson,
    /// A Markdown table of counts and the first findings (a CI job summary).
    Markdown,
}

/// Everything a printer needs: the findings, the files they point into, the counts.
pub struct Report<'a> {
    pub diagnostics: &'a [Diagnostic],
    pub files: &'a [TextFile],
    pub summary: Summary,
}

/// A [`Report`] with its findings in print order: what every printer reads.
struct Printed<'a> {
    diagnostics: &'a [&'a Diagnostic],
    files: &'a [TextFile],
    summary: Summary,
}

/// How findings are printed, beyond the format.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Colour (the human format only).
    pub color: bool,
    /// Where printed paths start from: the site (the default), or the repository's top level
    /// or the current folder, so that they lead to their files from where they are read.
    pub paths: PathStyle,
    /// No summary line (`-q`; the human and concise formats).
    pub quiet: bool,
    /// Print only this many findings, then the counts by rule (the human format; `build` and
    /// `lint` set [`FIRST_FINDINGS`] unless `--all-findings`). The other formats print all.
    pub limit: Option<usize>,
}

impl Options {
    /// A finding's file as printed.
    pub fn path(&self, diagnostic: &Diagnostic) -> String {
        self.paths.show(&diagnostic.file)
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

/// Renders `report` in `format` with `options`, its findings in print order.
pub fn render_with(report: &Report<'_>, format: Format, options: &Options) -> String {
    let ordered = in_print_order(report.diagnostics);
    let printed = Printed {
        diagnostics: &ordered,
        files: report.files,
        summary: report.summary,
    };
    let report = &printed;
    match format {
        Format::Human => human::render(report, options),
        Format::Concise => concise::render(report, options),
        Format::Json => json::render(report, options),
        Format::Github => github::render(report, options),
        Format::Sarif => sarif::render(report, options),
        Format::Junit => junit::render(report, options),
        Format::Gitlab => gitlab::render(report, options),
        Format::Rdjson => rdjson::render(report, options),
        Format::Markdown => markdown::render(report, options),
    }
}

/// `diagnostics` in print order: by severity, most severe first, then by file, line, column,
/// code and message (a stable sort: equal findings keep their order).
pub fn in_print_order(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    let mut ordered: Vec<&Diagnostic> = diagnostics.iter().collect();
    ordered.sort_by(|a, b| print_key(a).cmp(&print_key(b)));
    ordered
}

type PrintKey<'a> = (
    Reverse<crate::Severity>,
    &'a str,
    usize,
    usize,
    &'a str,
    &'a str,
);

fn print_key(d: &Diagnostic) -> PrintKey<'_> {
    (
        Reverse(d.severity),
        &d.file,
        d.line,
        d.column,
        d.code,
        &d.message,
    )
}

pub use human::summary_line;
pub use overview::{by_rule, FIRST_FINDINGS};

/// Where a format's readers open paths from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathBase {
    /// The repository's top level: CI servers read annotations and reports from there.
    Repository,
    /// The current folder: people, editors, scripts and reviewdog open paths from there.
    CurrentFolder,
}

impl Format {
    /// Where this format's readers open its paths from.
    pub fn path_base(self) -> PathBase {
        match self {
            Format::Github | Format::Sarif | Format::Junit | Format::Gitlab | Format::Markdown => {
                PathBase::Repository
            }
            Format::Human | Format::Concise | Format::Json | Format::Rdjson => {
                PathBase::CurrentFolder
            }
        }
    }
}

/// The summary line and its line break, unless `options` are quiet.
fn closing_summary(report: &Printed<'_>, options: &Options) -> String {
    match options.quiet {
        true => String::new(),
        false => format!("{}\n", summary_line(&report.summary)),
    }
}

/// A finding's message followed by its help on a new line, for formats with one text field.
fn message_and_help(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    }
}
