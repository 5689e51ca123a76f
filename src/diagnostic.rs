//! Findings as data: code, severity, file, span, message, help. One printer per output
//! format reads them (see [`crate::lint::format`]).

use crate::text_file::{LineCol, Span, TextFile};
use serde::Serialize;

/// The file id of a finding's span when the finding is about no text file
/// ([`Diagnostic::on_path`]).
const NO_TEXT: crate::text_file::FileId = crate::text_file::FileId::MAX;

/// How bad a finding is. Ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// One finding, at one place in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// Path relative to the site root, `/`-separated.
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The byte span in the file (for code frames); not part of the output data.
    #[serde(skip)]
    pub span: Span,
}

impl Diagnostic {
    /// A finding at `span` of `source`, lines and columns computed from the span.
    pub fn at(
        source: &TextFile,
        span: Span,
        code: &'static str,
        name: &'static str,
        severity: Severity,
        message: String,
        help: Option<String>,
    ) -> Diagnostic {
        let LineCol { line, column } = source.line_col(span.start);
        let end = source.line_col(span.end);
        Diagnostic {
            code,
            name,
            severity,
            file: source.display_path(),
            line,
            column,
            end_line: end.line,
            end_column: end.column,
            message,
            help,
            span,
        }
    }

    /// A finding about a file or folder that is not one of the site's text files (a template,
    /// a static file, an input folder): at line 1, column 1 of `path` (relative to the site
    /// root, `/`-separated), with a span into no file, so no code frame.
    pub fn on_path(
        path: &str,
        code: &'static str,
        name: &'static str,
        severity: Severity,
        message: String,
        help: Option<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            name,
            severity,
            file: path.to_string(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            message,
            help,
            span: Span::new(NO_TEXT, 0, 0),
        }
    }

    /// The order findings are reported in: file, position, code.
    pub fn sort_key(&self) -> (&str, usize, usize, &str, &str) {
        (&self.file, self.line, self.column, self.code, &self.message)
    }
}

/// Counts of findings by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// How many content files were checked.
    pub files: usize,
}

impl Summary {
    pub fn of(diagnostics: &[Diagnostic], files: usize) -> Summary {
        let count = |s| diagnostics.iter().filter(|d| d.severity == s).count();
        Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            files,
        }
    }
}
