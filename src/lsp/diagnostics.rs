//! Lint findings as LSP diagnostics: the same ranges, codes, messages and help as `lint`,
//! published per file, and only for the files whose findings changed since the last publish
//! (so a finding an edit causes in another file appears there, and goes when fixed).

use super::documents::Workspace;
use super::text::{uri_of, LineIndex};
use crate::diagnostic::{Diagnostic, Severity};
use crate::index::SiteIndex;
use lsp_types::{DiagnosticSeverity, NumberOrString, PublishDiagnosticsParams, Range};
use std::collections::BTreeMap;

/// What was last published, per file (path relative to the root, as findings name it).
#[derive(Default)]
pub struct Published {
    by_file: BTreeMap<String, Vec<Diagnostic>>,
}

impl Published {
    /// The publications that bring the editor up to date with `workspace`'s findings: one per
    /// file whose findings changed, an empty one for a file that has none any more.
    pub fn update(&mut self, workspace: &Workspace) -> Vec<PublishDiagnosticsParams> {
        let mut now: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        for finding in workspace.findings() {
            now.entry(finding.file.clone())
                .or_default()
                .push(finding.clone());
        }
        let index = workspace.index();
        let mut out = Vec::new();
        for (file, findings) in &now {
            if self.by_file.get(file) != Some(findings) {
                out.push(publication(workspace, index, file, findings));
            }
        }
        for file in self.by_file.keys().filter(|f| !now.contains_key(*f)) {
            out.push(publication(workspace, index, file, &[]));
        }
        self.by_file = now;
        out
    }
}

fn publication(
    workspace: &Workspace,
    index: &SiteIndex,
    file: &str,
    findings: &[Diagnostic],
) -> PublishDiagnosticsParams {
    // Every finding on a text file has its file id in its span.
    let text = (findings.iter())
        .find_map(|d| index.files.get(d.span.file))
        .map_or("", |f| f.text.as_str());
    let lines = LineIndex::new(text);
    PublishDiagnosticsParams {
        uri: uri_of(&workspace.root().join(file)),
        diagnostics: findings.iter().map(|d| to_lsp(&lines, d)).collect(),
        version: None,
    }
}

/// A finding as an LSP diagnostic; `lines` indexes the text of the finding's file.
pub fn to_lsp(lines: &LineIndex<'_>, finding: &Diagnostic) -> lsp_types::Diagnostic {
    let mut message = finding.message.clone();
    if let Some(help) = &finding.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    lsp_types::Diagnostic {
        range: range_of(lines, finding),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(finding.code.to_string())),
        source: Some("fieldnotes".to_string()),
        message,
        ..lsp_types::Diagnostic::default()
    }
}

/// The range of a finding: its byte span, converted; the start of the file for a finding
/// about no text (a folder, a template).
pub fn range_of(lines: &LineIndex<'_>, finding: &Diagnostic) -> Range {
    if finding.span.file == crate::text_file::FileId::MAX {
        return Range::default();
    }
    lines.range(finding.span.start, finding.span.end)
}
