//! The JSON format: `{"diagnostics": [...], "summary": {...}}`.

use super::{Options, Printed};

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let mut diagnostics = serde_json::to_value(report.diagnostics).expect("findings serialize");
    if let Some(list) = diagnostics.as_array_mut() {
        for (value, d) in list.iter_mut().zip(report.diagnostics) {
            value["file"] = options.path(d).into();
        }
    }
    let value = serde_json::json!({
        "diagnostics": diagnostics,
        "summary": report.summary,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("findings serialize");
    text.push('\n');
    text
}
