//! The JSON format: `{"diagnostics": [...], "summary": {...}}`, every object's keys in
//! alphabetical order.
//!
//! Written straight from the findings, not through a `serde_json::Value` tree: at 20,000
//! findings the tree held 150 MB and took a tenth of `lint`'s time (BENCHMARKS.md, issue 33).

use super::{Options, Printed};
use crate::diagnostic::{Diagnostic, Severity, Summary};
use serde::Serialize;

/// The whole output, as printed.
#[derive(Serialize)]
struct Output<'a> {
    diagnostics: Vec<Finding<'a>>,
    summary: Counts,
}

/// One finding: [`Diagnostic`]'s fields, keys sorted, `file` as [`Options::path`] prints it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Finding<'a> {
    code: &'a str,
    column: usize,
    end_column: usize,
    end_line: usize,
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    line: usize,
    message: &'a str,
    name: &'a str,
    severity: Severity,
}

/// [`Summary`]'s counts, keys sorted.
#[derive(Serialize)]
struct Counts {
    errors: usize,
    files: usize,
    infos: usize,
    warnings: usize,
}

impl<'a> Finding<'a> {
    fn of(d: &'a Diagnostic, options: &Options) -> Finding<'a> {
        Finding {
            code: d.code,
            column: d.column,
            end_column: d.end_column,
            end_line: d.end_line,
            file: options.path(d),
            help: d.help.as_deref(),
            line: d.line,
            message: &d.message,
            name: d.name,
            severity: d.severity,
        }
    }
}

impl From<Summary> for Counts {
    fn from(s: Summary) -> Counts {
        Counts {
            errors: s.errors,
            files: s.files,
            infos: s.infos,
            warnings: s.warnings,
        }
    }
}

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let output = Output {
        diagnostics: (report.diagnostics.iter())
            .map(|d| Finding::of(d, options))
            .collect(),
        summary: report.summary.into(),
    };
    let mut text = serde_json::to_string_pretty(&output).expect("findings serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_file::Span;

    /// The output is what the `serde_json::Value` tree the format used to build printed:
    /// the same keys, sorted, the same values.
    #[test]
    fn keys_are_sorted_as_a_json_value_sorts_them() {
        let finding = Diagnostic {
            code: "FN101",
            name: "id-not-kebab-case",
            severity: Severity::Warning,
            file: "content/research/a \"b\".md".into(),
            line: 3,
            column: 5,
            end_line: 3,
            end_column: 9,
            message: "tab\there, quote \" and é".into(),
            help: Some("rename it".into()),
            span: Span::new(0, 0, 0),
        };
        let without_help = Diagnostic {
            help: None,
            ..finding.clone()
        };
        let diagnostics = [&finding, &without_help];
        let printed = Printed {
            diagnostics: &diagnostics,
            files: &[],
            summary: Summary::of(&[finding.clone(), without_help.clone()], 7),
        };
        let options = Options::default();
        let mut tree = serde_json::to_value([&finding, &without_help]).unwrap();
        for value in tree.as_array_mut().unwrap() {
            value["file"] = options.path(&finding).into();
        }
        let tree = serde_json::json!({"diagnostics": tree, "summary": printed.summary});
        let expected = serde_json::to_string_pretty(&tree).unwrap() + "\n";
        assert_eq!(render(&printed, &options), expected);
    }
}
