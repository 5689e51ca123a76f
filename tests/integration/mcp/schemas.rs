//! Every tool's schemas as the strictest clients read them: each compiles with unknown
//! formats refused (as strict ajv does), no `format` outside JSON Schema's vocabulary, every
//! property typed, no `null` among an input property's types (Gemini's function declarations
//! take one type), and every tool annotated read-only with a title.

use super::{example_site, runtime, stdio_command};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::Value;

/// The `format` values of JSON Schema 2020-12's format vocabulary.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// What is wrong with `schema` (at `path`) and every schema inside it.
fn problems(schema: &Value, path: &str, input: bool, found: &mut Vec<String>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(format) = object.get("format").and_then(Value::as_str) {
        if !STANDARD_FORMATS.contains(&format) {
            found.push(format!("{path}: non-standard format `{format}`"));
        }
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (name, property) in properties {
            let at = format!("{path}.{name}");
            if !typed(property) {
                found.push(format!("{at}: no type"));
            }
            if input && (property.get("type").is_some_and(|t| !t.is_string())) {
                found.push(format!("{at}: more than one type ({})", property["type"]));
            }
            if input && property.get("anyOf").is_some() {
                found.push(format!("{at}: anyOf in an input property"));
            }
        }
    }
    for (key, value) in object {
        let at = format!("{path}/{key}");
        match (key.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                for (name, child) in children {
                    problems(child, &format!("{at}/{name}"), input, found);
                }
            }
            ("items" | "additionalProperties", child) => problems(child, &at, input, found),
            ("anyOf" | "oneOf" | "allOf", Value::Array(children)) => {
                for (i, child) in children.iter().enumerate() {
                    problems(child, &format!("{at}/{i}"), input, found);
                }
            }
            _ => {}
        }
    }
}

/// Whether a schema says what type its value is (itself, by reference, or in each branch).
fn typed(schema: &Value) -> bool {
    let branches = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|all| !all.is_empty() && all.iter().all(typed))
    };
    schema.get("type").is_some()
        || schema.get("$ref").is_some()
        || schema.get("enum").is_some()
        || schema.get("const").is_some()
        || branches("anyOf")
        || branches("oneOf")
}

#[test]
fn every_tool_schema_is_standard_typed_and_every_tool_annotated() {
    let site = example_site();
    let tools = runtime().block_on(async {
        let transport = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let client = ().serve(transport).await.expect("initialize");
        let tools = client.list_all_tools().await.expect("tools/list");
        client.cancel().await.expect("close");
        tools
    });
    assert!(!tools.is_empty());
    let mut found = Vec::new();
    for tool in &tools {
        let name = &tool.name;
        let input = Value::Object((*tool.input_schema).clone());
        problems(&input, &format!("{name} input"), true, &mut found);
        let mut schemas = vec![input];
        match &tool.output_schema {
            Some(output) => {
                let output = Value::Object((**output).clone());
                problems(&output, &format!("{name} output"), false, &mut found);
                schemas.push(output);
            }
            None => found.push(format!("{name}: no output schema")),
        }
        for schema in &schemas {
            if let Err(error) = jsonschema::options()
                .should_validate_formats(true)
                .should_ignore_unknown_formats(false)
                .build(schema)
            {
                found.push(format!(
                    "{name}: a strict validator refuses its schema: {error}"
                ));
            }
        }
        if tool.title.as_deref().is_none_or(str::is_empty) {
            found.push(format!("{name}: no title"));
        }
        match &tool.annotations {
            None => found.push(format!("{name}: no annotations")),
            Some(annotations) => {
                if annotations.read_only_hint != Some(true) {
                    found.push(format!("{name}: not annotated readOnlyHint: true"));
                }
                if annotations.title.as_deref().is_none_or(str::is_empty) {
                    found.push(format!("{name}: its annotations have no title"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
