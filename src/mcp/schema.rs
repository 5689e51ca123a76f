//! Tool schemas in the subset of JSON Schema every client takes: no `format` outside the
//! standard vocabulary (schemars writes `uint`, `int64`, `double`, which strict ajv refuses),
//! and in input schemas no `null` in an optional property's type (Gemini's function
//! declarations take one type per property; leaving the property out says the same).
//! Output schemas keep `"type": [T, "null"]`: their values are null at times, and clients
//! validate structured output against them.

use rmcp::model::{JsonObject, Tool};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The `format` values of JSON Schema 2020-12's format vocabulary.
pub(crate) const STANDARD_FORMATS: [&str; 19] = [
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

/// Rewrites a tool's schemas into the portable subset.
pub(super) fn portable(tool: &mut Tool) {
    let mut input = Value::Object((*tool.input_schema).clone());
    rewrite(&mut input, Side::Input);
    if let Value::Object(input) = input {
        tool.input_schema = Arc::new(input);
    }
    if let Some(output) = &tool.output_schema {
        let mut output = Value::Object((**output).clone());
        rewrite(&mut output, Side::Output);
        if let Value::Object(output) = output {
            tool.output_schema = Some(Arc::new(output));
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Input,
    Output,
}

/// Rewrites one schema and every schema inside it.
fn rewrite(schema: &mut Value, side: Side) {
    let Value::Object(object) = schema else {
        return;
    };
    if object
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|format| !STANDARD_FORMATS.contains(&format))
    {
        object.remove("format");
    }
    if side == Side::Input {
        let required = required(object);
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    drop_null(property);
                }
            }
        }
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                if let Value::Object(children) = value {
                    children.values_mut().for_each(|c| rewrite(c, side));
                }
            }
            "items" | "additionalProperties" | "not" | "contains" => rewrite(value, side),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(children) = value {
                    children.iter_mut().for_each(|c| rewrite(c, side));
                }
            }
            _ => {}
        }
    }
}

/// The names an object schema lists as `required`.
fn required(object: &JsonObject) -> Vec<String> {
    (object.get("required").and_then(Value::as_array).into_iter())
        .flatten()
        .filter_map(|name| name.as_str().map(str::to_string))
        .collect()
}

/// `"type": [T, "null"]` becomes `"type": T`; `anyOf: [S, {"type": "null"}]` becomes `S`.
fn drop_null(property: &mut Value) {
    let Value::Object(object) = property else {
        return;
    };
    if let Some(Value::Array(types)) = object.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let single = match kept.as_slice() {
            [only] => only.clone(),
            _ => Value::Array(kept),
        };
        object.insert("type".to_string(), single);
    }
    let Some(Value::Array(branches)) = object.get("anyOf") else {
        return;
    };
    let kept: Vec<Value> = (branches.iter())
        .filter(|b| b.get("type").is_none_or(|t| t != "null"))
        .cloned()
        .collect();
    if let [Value::Object(only)] = kept.as_slice() {
        let only: Map<String, Value> = only.clone();
        object.remove("anyOf");
        for (key, value) in only {
            object.entry(key).or_insert(value);
        }
    }
}
