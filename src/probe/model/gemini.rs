//! Gemini `generateContent` and `streamGenerateContent` (`POST
//! /v1beta/models/<model>:<method>`, Gemini CLI): tools as `functionDeclarations`, calls
//! and results as `functionCall` / `functionResponse` parts; a stream as server-sent events
//! (`alt=sse`) or a JSON array. `countTokens` gets a count.

use super::anthropic::list;
use super::script::{Offered, Ran, Step, Turn};
use super::{sse, Reply};
use serde_json::{json, Value};

pub(super) fn read(body: &Value, model: &str, stream: bool) -> Turn {
    let mut tools = Vec::new();
    for group in list(body, "tools") {
        for declaration in list(group, "functionDeclarations") {
            if let Some(name) = declaration.get("name").and_then(Value::as_str) {
                let schema = (declaration.get("parametersJsonSchema"))
                    .or_else(|| declaration.get("parameters"));
                tools.push(Offered {
                    name: name.to_string(),
                    namespace: None,
                    schema: schema.cloned().unwrap_or(Value::Null),
                    deferred: false,
                });
            }
        }
    }
    let calls = list(body, "contents")
        .flat_map(|c| list(c, "parts"))
        .filter(|part| part.get("functionCall").is_some())
        .count();
    let results = list(body, "contents")
        .flat_map(|c| list(c, "parts"))
        .filter_map(|part| {
            let response = part.get("functionResponse")?;
            Some(Ran {
                name: super::anthropic::text(response, "name"),
                output: response.get("response").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    Turn {
        model: model.to_string(),
        stream,
        tools,
        results,
        calls,
        text: String::new(),
    }
}

/// `POST …:countTokens`.
pub(super) fn count_tokens() -> Reply {
    Reply::json(json!({"totalTokens": 1}))
}

/// A side request that asks for JSON (Gemini CLI's routing: `responseJsonSchema`) gets the
/// least instance of its schema as its text, so the client need not retry.
pub(super) fn side_json(body: &Value) -> Option<String> {
    let config = body.get("generationConfig")?;
    let schema = (config.get("responseJsonSchema")).or_else(|| config.get("responseSchema"));
    match schema {
        Some(schema) => Some(instance(schema).to_string()),
        None if config.get("responseMimeType") == Some(&json!("application/json")) => {
            Some("{}".to_string())
        }
        None => None,
    }
}

/// The least value of a JSON schema: each property, an enum's first value, a string.
fn instance(schema: &Value) -> Value {
    if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        return first.clone();
    }
    let kind = schema
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_lowercase);
    match kind.as_deref() {
        Some("object") => {
            let fields = (schema.get("properties").and_then(Value::as_object))
                .map(|p| p.iter().map(|(k, v)| (k.clone(), instance(v))).collect())
                .unwrap_or_default();
            Value::Object(fields)
        }
        Some("array") => json!([]),
        Some("number" | "integer") => json!(0),
        Some("boolean") => json!(false),
        _ => json!("fieldnotes probe model"),
    }
}

pub(super) fn respond(turn: &Turn, step: &Step, alt_sse: bool) -> Reply {
    let part = match step {
        Step::Call {
            name, arguments, ..
        } => json!({"functionCall": {"name": name, "args": arguments}}),
        Step::Say(words) => json!({"text": words}),
    };
    let answer = json!({
        "candidates": [{"content": {"role": "model", "parts": [part]},
            "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
            "totalTokenCount": 2},
        "modelVersion": turn.model,
    });
    match (turn.stream, alt_sse) {
        (false, _) => Reply::json(answer),
        (true, true) => Reply::events(sse([(None, &answer)])),
        (true, false) => Reply::json(json!([answer])),
    }
}
