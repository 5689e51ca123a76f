//! reviewdog's Diagnostic Format (rdjson): `{"source", "diagnostics": [...]}`, for
//! `reviewdog -f=rdjson`, which comments on pull and merge requests on several hosts.
//! Columns count UTF-8 bytes, as rdjson asks; ranges end after the span (exclusive).

use super::{help, message_and_help, Options, Printed};
use crate::diagnostic::{Diagnostic, Severity};
use crate::text_file::TextFile;
use serde_json::{json, Value};
use std::collections::HashMap;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let files: HashMap<String, &TextFile> =
        report.files.iter().map(|f| (f.display_path(), f)).collect();
    let diagnostics: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| diagnostic(d, files.get(d.file.as_str()).copied(), options))
        .collect();
    let value = json!({
        "source": { "name": "fieldnotes", "url": help::INFORMATION_URI },
        "diagnostics": diagnostics,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("findings serialize");
    text.push('\n');
    text
}

fn diagnostic(d: &Diagnostic, file: Option<&TextFile>, options: &Options) -> Value {
    let (start, end) = match file {
        Some(file) => (
            byte_column(file, d.line, d.span.start),
            byte_column(file, d.end_line, d.span.end.max(d.span.start)),
        ),
        // No text to count bytes in (a finding about the file as a whole): characters.
        None => (d.column, d.end_column),
    };
    json!({
        "message": message_and_help(d),
        "location": {
            "path": options.path(d),
            "range": {
                "start": { "line": d.line, "column": start },
                "end": { "line": d.end_line, "column": end },
            },
        },
        "severity": severity(d.severity),
        "code": { "value": d.code, "url": help::uri(d.code) },
    })
}

/// The 1-based UTF-8 byte column of `offset`, which is on line `line` of `file` (a BOM on
/// the first line takes no column, as in the other formats).
fn byte_column(file: &TextFile, line: usize, offset: usize) -> usize {
    let mut start = file.line_start(line);
    if line == 1 && file.text.starts_with('\u{feff}') {
        start += '\u{feff}'.len_utf8();
    }
    offset.min(file.text.len()).saturating_sub(start) + 1
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "ERROR",
        Severity::Warning => "WARNING",
        Severity::Info => "INFO",
    }
}
