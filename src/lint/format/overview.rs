//! What people see of a long report: the first findings, then how many were left out and the
//! counts by rule, so that ten thousand findings print as a screenful (`--all-findings` prints
//! them all; the machine formats always do).

use super::Printed;
use crate::diagnostic::{Diagnostic, Severity};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How many findings `build` and `lint` print in the human formats unless asked for all.
pub const FIRST_FINDINGS: usize = 20;

/// The findings to print: all of them, or the first `limit` in print order.
pub fn shown<'a>(report: &Printed<'a>, limit: Option<usize>) -> &'a [&'a Diagnostic] {
    let all = report.diagnostics;
    &all[..limit.map_or(all.len(), |n| n.min(all.len()))]
}

/// When findings were left out: a line saying how many and how to see them, then the count of
/// each rule's findings (most severe rule first, then by count). Empty otherwise.
pub fn left_out(report: &Printed<'_>, shown: usize) -> String {
    let total = report.diagnostics.len();
    if shown >= total {
        return String::new();
    }
    let mut out = format!(
        "… and {} more findings (--all-findings prints them all; --format concise one per line)\n",
        total - shown
    );
    out.push_str(&by_rule(report.diagnostics));
    out
}

/// `  FN304 stale-verification  2,013 warnings`, one line per rule with findings.
pub fn by_rule(diagnostics: &[&Diagnostic]) -> String {
    let mut counts: BTreeMap<&str, (&str, Severity, usize)> = BTreeMap::new();
    for d in diagnostics {
        counts.entry(d.code).or_insert((d.name, d.severity, 0)).2 += 1;
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by_key(|(code, (_, severity, count))| {
        (
            std::cmp::Reverse(*severity),
            std::cmp::Reverse(*count),
            *code,
        )
    });
    let width = rows
        .iter()
        .map(|(_, (name, ..))| name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::from("by rule:\n");
    for (code, (name, severity, count)) in rows {
        let kind = match (severity, count) {
            (Severity::Info, _) => "info",
            (Severity::Error, 1) => "error",
            (Severity::Error, _) => "errors",
            (Severity::Warning, 1) => "warning",
            (Severity::Warning, _) => "warnings",
        };
        let _ = writeln!(out, "  {code} {name:<width$}  {count:>6} {kind}");
    }
    out
}
