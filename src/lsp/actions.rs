//! Quick fixes: take lint's "did you mean `x`?" (replace the misspelt value with `x`), and
//! clear a `TODO` placeholder (FN705) with the hint written after it.

use super::diagnostics::to_lsp;
use super::text::{uri_of, LineIndex};
use crate::diagnostic::Diagnostic;
use crate::index::SiteIndex;
use crate::text_file::FileId;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, WorkspaceEdit};
use std::collections::HashMap;

/// The quick fixes for the findings on document `file` that touch `range`.
pub fn code_actions(
    index: &SiteIndex,
    findings: &[Diagnostic],
    file: FileId,
    range: Range,
) -> Vec<CodeActionOrCommand> {
    let Some(source) = index.files.get(file) else {
        return Vec::new();
    };
    let lines = LineIndex::new(&source.text);
    let (start, end) = (lines.offset(range.start), lines.offset(range.end));
    let uri = uri_of(&index.root.join(&source.path));
    let mut out = Vec::new();
    for finding in findings.iter().filter(|d| d.span.file == file) {
        if finding.span.start > end || finding.span.end < start {
            continue;
        }
        let fix = suggestion(&source.text, finding).or_else(|| placeholder(&source.text, finding));
        let Some((title, from, to, new_text)) = fix else {
            continue;
        };
        let edit = TextEdit::new(lines.range(from, to), new_text);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![to_lsp(&lines, finding)]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    out
}

/// A fix as (title, byte range to replace, replacement).
type Fix = (String, usize, usize, String);

/// "did you mean `x`?": the first `quoted` word of the message (what was written), found in
/// the finding's span, replaced with `x`.
fn suggestion(text: &str, finding: &Diagnostic) -> Option<Fix> {
    let help = finding.help.as_deref()?;
    let wanted = help.strip_prefix("did you mean `")?.split('`').next()?;
    let written = finding.message.split('`').nth(1)?;
    let span = text.get(finding.span.start..finding.span.end)?;
    let at = finding.span.start + span.find(written)?;
    let title = format!("Replace `{written}` with `{wanted}`");
    Some((title, at, at + written.len(), wanted.to_string()))
}

/// FN705: the `TODO` marker, and the `: hint` after it up to the end of its quoted value or
/// line, cleared; a marker inside a word (a URL's path) alone.
fn placeholder(text: &str, finding: &Diagnostic) -> Option<Fix> {
    if finding.code != "FN705" {
        return None;
    }
    let (start, marker_end) = (finding.span.start, finding.span.end);
    let rest = text.get(marker_end..)?;
    let end = match rest.strip_prefix(':') {
        Some(hint) => {
            let line_end = hint.find(['\n', '\r']).unwrap_or(hint.len());
            let quote = text[..start]
                .chars()
                .next_back()
                .filter(|c| matches!(c, '"' | '\''));
            let stop = quote
                .and_then(|q| hint[..line_end].find(q))
                .unwrap_or(line_end);
            marker_end + 1 + stop
        }
        None => marker_end,
    };
    let title = format!("Clear the `{}` placeholder", crate::model::PLACEHOLDER);
    Some((title, start, end, String::new()))
}
