//! The JSON format: `{"diagnostics": [...], "summary": {...}}`.

use super::Report;

pub fn render(report: &Report<'_>) -> String {
    let value = serde_json::json!({
        "diagnostics": report.diagnostics,
        "summary": report.summary,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("findings serialize");
    text.push('\n');
    text
}
