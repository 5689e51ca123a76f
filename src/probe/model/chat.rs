//! OpenAI Chat Completions (`POST /v1/chat/completions`: opencode, Qwen Code, Cline…):
//! tools as `function`s, calls as an assistant message's `tool_calls`, results as `tool`
//! messages; answered as one completion or as chunks ending in `[DONE]`.

use super::anthropic::{list, text};
use super::script::{arguments_text, call_id, Offered, Ran, Step, Turn};
use super::{sse, Reply};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub(super) fn read(body: &Value) -> Turn {
    let tools = list(body, "tools")
        .filter_map(|t| {
            let function = t.get("function")?;
            Some(Offered {
                name: function.get("name")?.as_str()?.to_string(),
                namespace: None,
                schema: function.get("parameters").cloned().unwrap_or(Value::Null),
                deferred: false,
            })
        })
        .collect();
    let mut names = BTreeMap::new();
    let mut results = Vec::new();
    let mut calls = 0;
    for message in list(body, "messages") {
        for call in list(message, "tool_calls") {
            calls += 1;
            let name = call.pointer("/function/name").and_then(Value::as_str);
            names.insert(text(call, "id"), name.unwrap_or_default().to_string());
        }
        if message.get("role").and_then(Value::as_str) == Some("tool") {
            results.push(Ran {
                name: names
                    .get(&text(message, "tool_call_id"))
                    .cloned()
                    .unwrap_or_default(),
                output: message.get("content").cloned().unwrap_or(Value::Null),
            });
        }
    }
    Turn::of_body(body, tools, results, calls)
}

pub(super) fn respond(turn: &Turn, step: &Step) -> Reply {
    let (message, finish) = match step {
        Step::Call {
            name, arguments, ..
        } => (
            json!({"role": "assistant", "content": null, "tool_calls": [{
                "index": 0, "id": call_id("call", turn), "type": "function",
                "function": {"name": name, "arguments": arguments_text(arguments)}}]}),
            "tool_calls",
        ),
        Step::Say(words) => (json!({"role": "assistant", "content": words}), "stop"),
    };
    let usage = json!({"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2});
    let completion = |object: &str, choices: Value| {
        json!({"id": "chatcmpl-fieldnotes", "object": object, "created": 0,
            "model": turn.model, "choices": choices})
    };
    if !turn.stream {
        let mut whole = completion(
            "chat.completion",
            json!([{"index": 0, "message": message, "finish_reason": finish}]),
        );
        whole["usage"] = usage;
        return Reply::json(whole);
    }
    let chunk = "chat.completion.chunk";
    let mut last = completion(
        chunk,
        json!([{"index": 0, "delta": {}, "finish_reason": finish}]),
    );
    last["usage"] = usage;
    let chunks = [
        completion(
            chunk,
            json!([{"index": 0, "delta": message, "finish_reason": null}]),
        ),
        last,
    ];
    let mut body = sse(chunks.iter().map(|c| (None, c)));
    body.push_str("data: [DONE]\n\n");
    Reply::events(body)
}

/// `GET /v1/models`: the one model any name is.
pub(super) fn models() -> Reply {
    Reply::json(json!({"object": "list", "data": [
        {"id": "fieldnotes-probe", "object": "model", "created": 0, "owned_by": "fieldnotes"}]}))
}
