//! The OpenAI Responses API (`POST /v1/responses`, Codex): tools as `function`s, MCP tools
//! inside a `namespace` tool; calls as `function_call` items (with their `namespace`),
//! results as `function_call_output`; answered as one response or as its event stream.

use super::anthropic::{list, text};
use super::script::{arguments_text, call_id, Offered, Ran, Step, Turn};
use super::{sse, Reply};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn offered(tool: &Value, namespace: Option<&str>, into: &mut Vec<Offered>) {
    if tool.get("type").and_then(Value::as_str) == Some("namespace") {
        let name = tool.get("name").and_then(Value::as_str);
        for inner in list(tool, "tools") {
            offered(inner, name, into);
        }
        return;
    }
    if let Some(name) = tool.get("name").and_then(Value::as_str) {
        into.push(Offered {
            name: name.to_string(),
            namespace: namespace.map(str::to_string),
            schema: tool.get("parameters").cloned().unwrap_or(Value::Null),
            deferred: false,
        });
    }
}

pub(super) fn read(body: &Value) -> Turn {
    let mut tools = Vec::new();
    for tool in list(body, "tools") {
        offered(tool, None, &mut tools);
    }
    let mut names = BTreeMap::new();
    let mut results = Vec::new();
    let mut calls = 0;
    for item in list(body, "input") {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call" | "custom_tool_call") => {
                calls += 1;
                names.insert(text(item, "call_id"), text(item, "name"));
            }
            Some("function_call_output" | "custom_tool_call_output") => results.push(Ran {
                name: names
                    .get(&text(item, "call_id"))
                    .cloned()
                    .unwrap_or_default(),
                output: item.get("output").cloned().unwrap_or(Value::Null),
            }),
            _ => {}
        }
    }
    Turn::of_body(body, tools, results, calls)
}

pub(super) fn respond(turn: &Turn, step: &Step) -> Reply {
    let item = match step {
        Step::Call {
            name,
            namespace,
            arguments,
        } => {
            let mut item = json!({"type": "function_call", "id": call_id("fc", turn),
                "call_id": call_id("call", turn), "name": name,
                "arguments": arguments_text(arguments), "status": "completed"});
            if let Some(namespace) = namespace {
                item["namespace"] = json!(namespace);
            }
            item
        }
        Step::Say(words) => json!({"type": "message", "id": "msg_fieldnotes_1",
            "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": words, "annotations": []}]}),
    };
    let response = |status: &str, output: Value| {
        json!({"id": "resp_fieldnotes", "object": "response", "created_at": 0,
            "status": status, "model": turn.model, "output": output,
            "usage": {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 2}})
    };
    if !turn.stream {
        return Reply::json(response("completed", json!([item])));
    }
    let mut events = vec![
        json!({"type": "response.created", "sequence_number": 0,
            "response": response("in_progress", json!([]))}),
        json!({"type": "response.output_item.added", "sequence_number": 1,
            "output_index": 0, "item": item}),
    ];
    if let Step::Say(words) = step {
        events.push(
            json!({"type": "response.output_text.delta", "sequence_number": 2,
            "item_id": "msg_fieldnotes_1", "output_index": 0, "content_index": 0,
            "delta": words}),
        );
    }
    events.push(
        json!({"type": "response.output_item.done", "sequence_number": 3,
        "output_index": 0, "item": item}),
    );
    events.push(json!({"type": "response.completed", "sequence_number": 4,
        "response": response("completed", json!([item]))}));
    let named: Vec<(String, Value)> = events.into_iter().map(|e| (text(&e, "type"), e)).collect();
    Reply::events(sse(named.iter().map(|(n, v)| (Some(n.as_str()), v))))
}
