//! The JUnit XML format, for CI systems that show test reports (GitLab, Jenkins, Azure), valid
//! against the common `junit-10.xsd`: a test suite per file with findings (its `file`
//! attribute the path), a test case per finding. Errors and warnings are failures; infos are
//! passing cases that carry their text. A clean run is one passing case.

use super::{message_and_help, Options, Printed};
use crate::diagnostic::{Diagnostic, Severity};
use std::collections::HashMap;
use std::fmt::Write;

const SUITE: &str = "fieldnotes lint";

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let by_file = by_file(report.diagnostics, options);
    let failures = |ds: &[&Diagnostic]| ds.iter().filter(|d| d.severity != Severity::Info).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{SUITE}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
        report.diagnostics.len().max(1),
        failures(report.diagnostics)
    );
    if by_file.is_empty() {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{SUITE}\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    \
             <testcase name=\"no problems in {} files\" classname=\"{SUITE}\"/>\n  </testsuite>",
            report.summary.files
        );
    }
    for (file, ds) in &by_file {
        let file = escape(file);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{file}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" file=\"{file}\">",
            ds.len(),
            failures(ds)
        );
        for d in ds {
            let name = escape(&format!("{} {} at {}:{}", d.code, d.name, d.line, d.column));
            let _ = writeln!(out, "    <testcase name=\"{name}\" classname=\"{file}\">");
            let text = escape(&format!(
                "{file}:{}:{}: {} {} [{}]: {}",
                d.line,
                d.column,
                d.severity.as_str(),
                d.code,
                d.name,
                message_and_help(d)
            ));
            if d.severity == Severity::Info {
                let _ = writeln!(out, "      <system-out>{text}</system-out>");
            } else {
                let _ = writeln!(
                    out,
                    "      <failure type=\"{}\" message=\"{}\">{text}</failure>",
                    d.severity.as_str(),
                    escape(&d.message)
                );
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// The findings grouped by printed path, each group and the groups in print order: the file
/// with the most severe finding first.
fn by_file<'a>(
    diagnostics: &[&'a Diagnostic],
    options: &Options,
) -> Vec<(String, Vec<&'a Diagnostic>)> {
    let mut groups: Vec<(String, Vec<&Diagnostic>)> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for d in diagnostics {
        let path = options.path(d);
        let at = *position.entry(path.clone()).or_insert_with(|| {
            groups.push((path, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(d);
    }
    groups
}

/// Escapes text for XML content and attributes; drops characters XML 1.0 cannot hold.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_xml() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>\u{1}"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
        );
    }
}
