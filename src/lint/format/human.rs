//! The human format: a code frame per finding (annotate-snippets), then a summary line.

use super::{Options, Report};
use crate::diagnostic::{Diagnostic, Severity, Summary};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

pub fn render(report: &Report<'_>, options: &Options) -> String {
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in report.diagnostics {
        out.push_str(&frame(d, report, options, &renderer));
        out.push_str("\n\n");
    }
    out.push_str(&summary_line(&report.summary));
    out.push('\n');
    out
}

fn frame(d: &Diagnostic, report: &Report<'_>, options: &Options, renderer: &Renderer) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let title = format!("{} [{}]", d.message, d.name);
    let path = options.path(d);
    let source = report
        .files
        .iter()
        .find(|f| f.display_path() == d.file)
        .map(|f| f.text.as_str());
    let mut groups = Vec::new();
    let head = level.primary_title(title.as_str()).id(d.code);
    match source {
        Some(text) if !text.is_empty() => {
            let end = d.span.end.max(d.span.start).min(text.len());
            let start = d.span.start.min(end);
            groups.push(
                head.element(
                    Snippet::source(text)
                        .path(path.as_str())
                        .annotation(AnnotationKind::Primary.span(start..end)),
                ),
            );
        }
        _ => groups.push(Group::with_title(head)),
    }
    let location = format!("{path}:{}:{}", d.line, d.column);
    let mut rendered = renderer.render(&groups).to_string();
    if source.is_none_or(str::is_empty) {
        rendered.push_str(&format!("\n  --> {location}"));
    }
    if let Some(help) = &d.help {
        rendered.push_str(&format!("\n  = help: {help}"));
    }
    rendered
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
