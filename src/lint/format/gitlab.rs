//! The GitLab Code Quality format: a JSON array of issues (a subset of Code Climate's), which
//! GitLab shows in the merge request widget and diff (`artifacts: reports: codequality`).
//! Errors are `major`, warnings `minor`, infos `info`.

use super::fingerprint::fingerprints;
use super::{message_and_help, Options, Printed};
use crate::diagnostic::Severity;
use serde_json::{json, Value};

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let fingerprints = fingerprints(report.diagnostics, options);
    let issues: Vec<Value> = report
        .diagnostics
        .iter()
        .zip(fingerprints)
        .map(|(d, fingerprint)| {
            json!({
                "type": "issue",
                "check_name": d.code,
                "description": format!("{} {}: {}", d.code, d.name, message_and_help(d)),
                "fingerprint": fingerprint,
                "severity": severity(d.severity),
                "location": {
                    "path": options.path(d),
                    "lines": { "begin": d.line, "end": d.end_line },
                },
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&issues).expect("issues serialize");
    text.push('\n');
    text
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}
