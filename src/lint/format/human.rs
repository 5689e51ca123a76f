//! The human format: a code frame per finding (annotate-snippets; the first
//! [`Options::limit`] only, then the counts by rule), then a summary line.
//!
//! Linear in findings and files: each finding's file is found in a map built once, and only
//! the lines its span covers are handed to the frame renderer, never the whole file.
//! File names, messages and the quoted lines come from content: their control characters are
//! shown escaped ([`terminal`]).

use super::{overview, Options, Printed};
use crate::diagnostic::{Diagnostic, Severity, Summary};
use crate::terminal;
use crate::text_file::TextFile;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::borrow::Cow;
use std::collections::HashMap;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let files: HashMap<String, &TextFile> =
        report.files.iter().map(|f| (f.display_path(), f)).collect();
    let mut out = String::new();
    let shown = overview::shown(report, options.limit);
    for d in shown {
        let file = files.get(d.file.as_str()).copied();
        out.push_str(&frame(d, file, options, &renderer));
        out.push_str("\n\n");
    }
    out.push_str(&overview::left_out(report, shown.len()));
    out.push_str(&super::closing_summary(report, options));
    out
}

fn frame(
    d: &Diagnostic,
    file: Option<&TextFile>,
    options: &Options,
    renderer: &Renderer,
) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let title = format!("{} [{}]", terminal::escape(&d.message), d.name);
    let path = options.path(d);
    let path = terminal::escape(&path);
    let excerpt = file.and_then(|f| Excerpt::around(f, d));
    let shown = excerpt.as_ref().map(|e| terminal::escape_source(e.text));
    let mut groups = Vec::new();
    let head = level.primary_title(title.as_str()).id(d.code);
    match (&excerpt, &shown) {
        (Some(excerpt), Some(shown)) => {
            let span = match shown {
                Cow::Borrowed(_) => excerpt.span.clone(),
                Cow::Owned(_) => {
                    let at = |offset| terminal::source_offset(excerpt.text, offset);
                    at(excerpt.span.start)..at(excerpt.span.end)
                }
            };
            groups.push(
                head.element(
                    Snippet::source(shown.as_ref())
                        .line_start(excerpt.first_line)
                        .path(path.as_ref())
                        .annotation(AnnotationKind::Primary.span(span)),
                ),
            )
        }
        _ => groups.push(Group::with_title(head)),
    }
    let location = format!("{path}:{}:{}", d.line, d.column);
    let mut rendered = renderer.render(&groups).to_string();
    if matches!(shown, Some(Cow::Owned(_))) {
        restore_column(&mut rendered, &path, d);
    }
    if excerpt.is_none() {
        rendered.push_str(&format!("\n  --> {location}"));
    }
    if let Some(help) = &d.help {
        rendered.push_str(&format!("\n  = help: {}", terminal::escape(help)));
    }
    rendered
}

/// Puts the finding's column back in the `--> file:line:column` line of a frame whose text was
/// escaped: the renderer counts columns in the text it was given.
fn restore_column(rendered: &mut String, path: &str, d: &Diagnostic) {
    let origin = format!("{path}:{}:", d.line);
    let title_end = rendered.find('\n').unwrap_or(rendered.len());
    let Some(at) = rendered[title_end..].find(&origin) else {
        return;
    };
    let column = title_end + at + origin.len();
    let digits = rendered[column..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rendered.len() - column);
    rendered.replace_range(column..column + digits, &d.column.to_string());
}

/// The whole lines a finding's span covers, and the span within them.
struct Excerpt<'a> {
    text: &'a str,
    first_line: usize,
    span: std::ops::Range<usize>,
}

impl<'a> Excerpt<'a> {
    /// `None` when the file is empty (nothing to frame).
    fn around(file: &'a TextFile, d: &Diagnostic) -> Option<Excerpt<'a>> {
        let text = file.text.as_str();
        if text.is_empty() {
            return None;
        }
        let end = d.span.end.max(d.span.start).min(text.len());
        let start = floor_boundary(text, d.span.start.min(end));
        let end = floor_boundary(text, end);
        let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let mut to = text[end..].find('\n').map_or(text.len(), |i| end + i);
        if to > end && text[..to].ends_with('\r') {
            to -= 1;
        }
        let first_line = file.line_of(start);
        Some(Excerpt {
            text: &text[from..to],
            first_line,
            span: start - from..end - from,
        })
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// "2 errors, 1 warning in 14 files" (or "no problems in 14 files").
pub fn summary_line(summary: &Summary) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let files = plural(summary.files, "file");
    if summary.errors + summary.warnings + summary.infos == 0 {
        return format!("no problems in {files}");
    }
    let mut parts = vec![
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
    ];
    if summary.infos > 0 {
        parts.push(format!("{} info", summary.infos));
    }
    format!("{} in {files}", parts.join(", "))
}
