//! `fieldnotes lint`: check the whole site, report findings in the chosen format.

use crate::cli::{Format, LintArgs};
use crate::diagnostic::{Diagnostic, Summary};
use crate::error::{Error, Result};
use crate::lint::focus::Focus;
use crate::lint::format::{self, Options, Report};
use crate::lint::rules;
use crate::source::{display_path, SourceFile};
use crate::today;
use std::io::{IsTerminal, Write};
use std::path::{Component, Path};

pub fn lint(root: &Path, args: LintArgs) -> Result<u8> {
    if let Some(code) = &args.explain {
        // A closed pipe (`| head`) is not an error worth a panic.
        let _ = writeln!(std::io::stdout().lock(), "{}", explain(code)?);
        return Ok(0);
    }
    let today = today::today(args.today.as_deref())?;
    let focus = focus(root, &args)?;
    let (index, mut diagnostics) = crate::check(root, today)?;
    if let Some(focus) = &focus {
        diagnostics.retain(|d| focus.keeps(d, &index));
    }
    let status = print_findings(
        root,
        &diagnostics,
        &index.files,
        args.format,
        args.deny_warnings,
    );
    // The process exits next: freeing every document one by one would only add time.
    std::mem::forget(index);
    Ok(status)
}

/// Prints findings to standard output in `format` (colour on a terminal, paths as CI expects
/// them) and returns the exit status: 1 on errors, or on warnings with `deny_warnings`.
pub(super) fn print_findings(
    root: &Path,
    diagnostics: &[Diagnostic],
    files: &[SourceFile],
    format: Format,
    deny_warnings: bool,
) -> u8 {
    let summary = Summary::of(diagnostics, files.len());
    let report = Report {
        diagnostics,
        files,
        summary,
    };
    let options = Options {
        color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        path_prefix: path_prefix(root),
    };
    let text = format::render_with(&report, format, &options);
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    u8::from(summary.errors > 0 || (deny_warnings && summary.warnings > 0))
}

/// The text of `--explain CODE` (a code or name), or the rule table for `--explain list`.
fn explain(code: &str) -> Result<String> {
    if code == "list" {
        let rows: Vec<String> = rules::ALL
            .iter()
            .map(|r| {
                let m = r.meta;
                format!(
                    "{}  {:<30} {:<8} {}",
                    m.code,
                    m.name,
                    m.severity.as_str(),
                    m.summary
                )
            })
            .collect();
        return Ok(rows.join("\n"));
    }
    let rule = rules::find(code).ok_or_else(|| Error::Usage {
        message: format!(
            "--explain {code}: no such rule; `fieldnotes lint --explain list` lists them"
        ),
    })?;
    let m = rule.meta;
    Ok(format!(
        "{} {} ({}): {}\n\n{}",
        m.code,
        m.name,
        m.severity.as_str(),
        m.summary,
        m.doc
    ))
}

/// What to report, when PATHs or `--changed-since` narrow it.
fn focus(root: &Path, args: &LintArgs) -> Result<Option<Focus>> {
    if args.paths.is_empty() && args.changed_since.is_none() {
        return Ok(None);
    }
    let mut focus = Focus::default();
    for path in &args.paths {
        focus.add_path(root, path)?;
    }
    if let Some(rev) = &args.changed_since {
        focus.add_changes_since(root, rev)?;
    }
    Ok(Some(focus))
}

/// `site/` when the site root is given as a relative folder below the working directory, so
/// that printed paths are relative to where fieldnotes runs (the repository root in CI).
pub(super) fn path_prefix(root: &Path) -> String {
    let plain = root
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    let shown = display_path(root);
    let shown = shown.trim_start_matches("./").trim_end_matches('/');
    if !plain || shown.is_empty() || shown == "." {
        return String::new();
    }
    format!("{shown}/")
}
