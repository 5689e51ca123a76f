//! The Anthropic Messages API (`POST /v1/messages`, Claude Code): tools by `name` (deferred
//! ones marked `defer_loading`), results as `tool_result` blocks naming their `tool_use`;
//! answered as one message or as its event stream. `count_tokens` gets a count.

use super::script::{call_id, Offered, Ran, Step, Turn};
use super::{sse, Reply};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub(super) fn read(body: &Value) -> Turn {
    let tools = list(body, "tools")
        .filter_map(|t| {
            Some(Offered {
                name: t.get("name")?.as_str()?.to_string(),
                namespace: None,
                schema: t.get("input_schema").cloned().unwrap_or(Value::Null),
                deferred: t.get("defer_loading") == Some(&Value::Bool(true)),
            })
        })
        .collect();
    let mut names = BTreeMap::new();
    let mut results = Vec::new();
    let mut calls = 0;
    for message in list(body, "messages") {
        for block in list(message, "content") {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    calls += 1;
                    let id = text(block, "id");
                    names.insert(id, text(block, "name"));
                }
                Some("tool_result") => results.push(Ran {
                    name: names
                        .get(&text(block, "tool_use_id"))
                        .cloned()
                        .unwrap_or_default(),
                    output: block.get("content").cloned().unwrap_or(Value::Null),
                }),
                _ => {}
            }
        }
    }
    Turn::of_body(body, tools, results, calls)
}

pub(super) fn list<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

pub(super) fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// `POST /v1/messages/count_tokens`.
pub(super) fn count_tokens() -> Reply {
    Reply::json(json!({"input_tokens": 1}))
}

pub(super) fn respond(turn: &Turn, step: &Step) -> Reply {
    let id = call_id("toolu", turn);
    let usage = json!({"input_tokens": 1, "output_tokens": 1});
    let (block, stop) = match step {
        Step::Call {
            name, arguments, ..
        } => (
            json!({"type": "tool_use", "id": id, "name": name, "input": arguments}),
            "tool_use",
        ),
        Step::Say(words) => (json!({"type": "text", "text": words}), "end_turn"),
    };
    let message = |content: Value, stop: Value| {
        json!({"id": "msg_fieldnotes", "type": "message", "role": "assistant",
            "model": turn.model, "content": content, "stop_reason": stop,
            "stop_sequence": null, "usage": usage})
    };
    if !turn.stream {
        return Reply::json(message(json!([block]), json!(stop)));
    }
    let (start, delta) = match step {
        Step::Call {
            name, arguments, ..
        } => (
            json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": arguments.to_string()}),
        ),
        Step::Say(words) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": words}),
        ),
    };
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": message(json!([]), Value::Null)}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": start}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": 1}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    Reply::events(sse(events.iter().map(|(n, v)| (Some(*n), v))))
}
