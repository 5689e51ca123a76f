//! The SARIF 2.1.0 format, as GitHub code scanning takes it: the tool with every rule (each
//! with a `helpUri`, its page in `docs/rules/`), and one result per finding with its rule,
//! level, message, region and a fingerprint that survives edits above it.

use super::fingerprint::fingerprints;
use super::help::{self, INFORMATION_URI};
use super::{message_and_help, Options, Printed};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::rules;
use serde_json::{json, Value};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key of fieldnotes' own fingerprint in `partialFingerprints` (SARIF §3.27.17: a name,
/// then `/v` and the version of how it is computed).
const FINGERPRINT_KEY: &str = "fieldnotes/v1";

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let rules: Vec<Value> = rules::ALL.iter().map(|r| rule(r.meta)).collect();
    let fingerprints = fingerprints(report.diagnostics, options);
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .zip(&fingerprints)
        .map(|(d, fingerprint)| result(d, fingerprint, options))
        .collect();
    let sarif = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "fieldnotes",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": INFORMATION_URI,
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&sarif).expect("SARIF serializes");
    text.push('\n');
    text
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule(meta: &crate::lint::RuleMeta) -> Value {
    let flags = meta
        .doc
        .split("## ")
        .find_map(|section| section.strip_prefix("What it flags"))
        .map_or(meta.summary, str::trim);
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": { "text": meta.summary },
        "fullDescription": { "text": flags },
        "help": { "text": meta.doc, "markdown": meta.doc },
        "helpUri": help::uri(meta.code),
        "defaultConfiguration": { "level": level(meta.severity) },
    })
}

fn result(d: &Diagnostic, fingerprint: &str, options: &Options) -> Value {
    // An empty span still marks one character, so that viewers have something to underline.
    let end_column = if d.end_line == d.line && d.end_column <= d.column {
        d.column + 1
    } else {
        d.end_column
    };
    let index = rules::position(d.code);
    let mut result = json!({
        "ruleId": d.code,
        "ruleIndex": index,
        "level": level(d.severity),
        "message": { "text": message_and_help(d) },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": uri(&options.path(d)) },
                "region": {
                    "startLine": d.line,
                    "startColumn": d.column,
                    "endLine": d.end_line,
                    "endColumn": end_column,
                },
            }
        }],
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint },
    });
    // A finding of no rule in the table has no index; SARIF takes its ruleId alone.
    if let (None, Some(fields)) = (index, result.as_object_mut()) {
        fields.remove("ruleIndex");
    }
    result
}

/// A relative path as a URI reference: `/`-separated, other reserved bytes percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn encodes_paths_as_uris() {
        assert_eq!(uri("content/research/a b.md"), "content/research/a%20b.md");
        assert_eq!(uri("content/é.md"), "content/%C3%A9.md");
    }
}
