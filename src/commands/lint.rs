//! `fieldnotes lint`: check the whole site, report findings in the chosen format.

use crate::cli::LintArgs;
use crate::diagnostic::{Severity, Summary};
use crate::error::{Error, Result};
use crate::lint::format::{self, Report};
use crate::today;
use std::path::Path;

pub fn lint(root: &Path, args: LintArgs) -> Result<u8> {
    if let Some(code) = &args.explain {
        let rule = crate::lint::rules::find(code).ok_or_else(|| Error::Usage {
            message: format!(
                "--explain {code}: no such rule; `fieldnotes lint --explain list` lists them"
            ),
        })?;
        println!(
            "{} {}: {}\n\n{}",
            rule.meta.code, rule.meta.name, rule.meta.summary, rule.meta.doc
        );
        return Ok(0);
    }
    let (index, diagnostics) = crate::check(root, today::today(args.today.as_deref())?)?;
    let summary = Summary::of(&diagnostics, index.files.len());
    let report = Report {
        diagnostics: &diagnostics,
        files: &index.files,
        summary,
    };
    print!("{}", format::render(&report, args.format, false));
    let fails = summary.errors > 0 || (args.deny_warnings && summary.warnings > 0);
    let _ = Severity::Error;
    Ok(u8::from(fails))
}
