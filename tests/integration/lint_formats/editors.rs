//! Tests: what editors read. Front-matter schemas name themselves (`$id`) and take capability
//! aliases; the concise format is what README's editor recipes parse.

use super::run;
use crate::lint_rules::lint_site;
use serde_json::{json, Value};

fn schema(site: &crate::support::TestSite, kind: &str) -> Value {
    let out = run(site.root(), &["schema", kind]);
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn schemas_have_an_id_and_capability_enums_take_aliases() {
    let site = lint_site("_base");
    for kind in ["note", "client", "capability"] {
        assert_eq!(
            schema(&site, kind)["$id"],
            format!("https://canimcp.io/schemas/{kind}.schema.json")
        );
    }
    let note = schema(&site, "note");
    let capabilities = &note["properties"]["capabilities"];
    assert_eq!(
        capabilities["items"]["enum"],
        json!([
            "transports.sse",
            "transports.streamableHttp",
            "transport.sse",
            "transport.streamable_http"
        ])
    );
    assert!(capabilities["description"]
        .as_str()
        .expect("description")
        .contains("aliases"));
    let client = schema(&site, "client");
    let support = &client["properties"]["support"]["propertyNames"]["enum"];
    assert!(support
        .as_array()
        .expect("enum")
        .contains(&json!("transport.streamable_http")));
    // A note naming a capability by its alias validates, as lint accepts it (with FN206).
    let validator = jsonschema::draft7::new(&note).expect("draft-07");
    let front = json!({ "capabilities": ["transport.sse"] });
    let errors: Vec<String> = validator
        .iter_errors(&front)
        .map(|e| e.instance_path().to_string())
        .collect();
    assert!(
        errors.iter().all(|path| !path.starts_with("/capabilities")),
        "{errors:?}"
    );
}

/// README's editor recipes read `path:line:col: severity CODE message` (VS Code's problem
/// matcher, Vim's `errorformat`): the concise format's lines must keep that shape.
#[test]
fn concise_lines_fit_the_editor_recipes() {
    let site = lint_site("_formats");
    let out = run(site.root(), &["lint", "--format", "concise"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let findings: Vec<&str> = text.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(findings.len(), 3);
    for line in findings {
        let (place, rest) = line.split_once(": ").expect("place: rest");
        let mut parts = place.rsplitn(3, ':');
        let column = parts.next().expect("column");
        let line_no = parts.next().expect("line");
        assert!(parts.next().expect("path").ends_with(".md"));
        assert!(column.parse::<usize>().is_ok() && line_no.parse::<usize>().is_ok());
        let mut words = rest.splitn(3, ' ');
        assert!(["error", "warning", "info"].contains(&words.next().expect("severity")));
        assert!(words.next().expect("code").starts_with("FN"));
        assert!(!words.next().expect("message").is_empty());
    }
}
