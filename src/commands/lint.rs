//! `fieldnotes lint`: check the whole site, report findings in the chosen format.

use super::report::{print_findings, Printing};
use super::Invocation;
use crate::cli::LintArgs;
use crate::config::{trust, SiteConfig, CONFIG_FILE};
use crate::dates;
use crate::diagnostic::{Diagnostic, Severity};
use crate::error::{Error, Result};
use crate::lint::focus::Focus;
use crate::lint::rules;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

pub fn lint(run: &Invocation, args: LintArgs) -> Result<u8> {
    if let Some(code) = &args.explain {
        // A closed pipe (`| head`) is not an error worth a panic.
        // In a site, in its words (an editor, a property); elsewhere in neutral ones.
        let words = (run.root().ok())
            .and_then(|root| SiteConfig::load(root).ok())
            .map(|config| config.vocabulary)
            .unwrap_or_default();
        let _ = writeln!(std::io::stdout().lock(), "{}", explain(code, &words)?);
        return Ok(0);
    }
    let root = run.root()?;
    let started = Instant::now();
    let today = dates::today(args.today.as_deref())?;
    let focus = focus(root, &args)?;
    let loosened = match &args.config_from {
        Some(rev) => trusted_config(root, rev)?,
        None => Vec::new(),
    };
    let (index, mut diagnostics) = crate::check(root, today)?;
    let found = diagnostics.len();
    if let Some(focus) = &focus {
        diagnostics.retain(|d| focus.keeps(d, &index));
    }
    run.detail(&format!(
        "checked {} files in {:.0?}; {} findings, {} of them outside the files asked about",
        index.files.len(),
        started.elapsed(),
        found,
        found - diagnostics.len()
    ));
    // A loosened setting is reported whatever the focus: it changes how all of it is checked.
    diagnostics.extend(loosened);
    let printing = Printing {
        format: args.format,
        deny_warnings: args.deny_warnings,
        reports: &args.report,
        all_findings: args.all_findings,
    };
    let status = print_findings(run, root, &diagnostics, &index.files, &printing)?;
    // The process exits next: freeing every document one by one would only add time.
    std::mem::forget(index);
    Ok(status)
}

/// The text of `--explain CODE` (a code or name), or the rule table for `--explain list`.
fn explain(code: &str, words: &crate::config::Vocabulary) -> Result<String> {
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
                    words.reword_markdown(m.summary)
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
        words.reword_markdown(m.summary),
        words.reword_markdown(m.doc)
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

/// `--config-from REV` (of `lint` and `build`): `site.yaml` at REV installed as the settings
/// the work tree's are held to (`config::trust`); what the work tree's would loosen, as FN013
/// findings at its lines.
pub(crate) fn trusted_config(root: &Path, rev: &str) -> Result<Vec<Diagnostic>> {
    let base = crate::diff::trusted_config(root, rev)?;
    let trusted = SiteConfig::parse(&base.text, Path::new(&base.shown))?;
    let (text, mut head) = SiteConfig::load_untrusted(root)?;
    let loosened = trust::merge(&trusted, &mut head, &text, rule);
    trust::install(trusted, rule);
    Ok(loosened
        .into_iter()
        .map(|l| {
            let mut finding = Diagnostic::on_path(
                CONFIG_FILE,
                trust::LOOSENED_CODE,
                trust::LOOSENED_NAME,
                Severity::Error,
                l.message,
                Some(format!(
                    "a pull request may tighten the settings of {}, not loosen them: take the \
                     change back, or make it in a change of its own that a maintainer merges",
                    base.shown
                )),
            );
            (finding.line, finding.column) = (l.line, l.column);
            (finding.end_line, finding.end_column) = (l.line, l.column);
            finding
        })
        .collect())
}

/// A rule's code and default severity by code or name, for `config::trust`.
pub(crate) fn rule(code_or_name: &str) -> Option<(&'static str, Severity)> {
    rules::find(code_or_name).map(|r| (r.meta.code, r.meta.severity))
}
