//! `tasks.toolCalls` on hand-made sessions: judged only where the probe offered its tool as a
//! task, and then by whether the client asked for one and fetched its result.

use super::*;
use crate::probe::transcript::Transcript;
use serde_json::json;

/// A stdio session of `messages` (`("in"|"out", message)`), the probe's `initialize` answer
/// offering task-augmented tool calls when `offered`.
fn judged(offered: bool, messages: &[(&str, Value)]) -> Option<Finding> {
    let tasks = json!({"requests": {"tools": {"call": {}}}});
    let capabilities = if offered {
        json!({"tools": {}, "tasks": tasks})
    } else {
        json!({"tools": {}})
    };
    let mut lines = vec![
        (
            "in",
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}}}),
        ),
        (
            "out",
            json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities}}),
        ),
    ];
    lines.extend(messages.iter().cloned());
    let jsonl: String = lines
        .iter()
        .map(|(dir, msg)| {
            json!({"t": "2026-12-07T00:00:00Z", "dir": dir, "msg": msg}).to_string() + "\n"
        })
        .collect();
    let seen = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    results(&seen, Transcript::from_jsonl(&jsonl).records()).remove("tasks.toolCalls")
}

fn call(id: u64, task: bool) -> (&'static str, Value) {
    let mut params = json!({"name": "probe_echo", "arguments": {"text": "t"}});
    if task {
        params["task"] = json!({"ttl": 60000});
    }
    (
        "in",
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
    )
}

fn ask(id: u64, method: &str) -> (&'static str, Value) {
    let params = json!({"taskId": "fieldnotes-task-74"});
    (
        "in",
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
    )
}

#[test]
fn a_task_call_is_yes_once_its_result_is_fetched_and_partial_before() {
    let found = judged(
        true,
        &[call(1, true), ask(2, "tasks/get"), ask(3, "tasks/result")],
    )
    .expect("judged");
    assert_eq!((found.status, found.basis), (Status::Yes, Basis::Did));
    assert!(found.why.contains("polled it (tasks/get)"), "{}", found.why);
    assert_eq!(found.messages, vec![3, 4, 5]);
    let found = judged(true, &[call(1, true), ask(2, "tasks/get")]).expect("judged");
    assert_eq!(found.status, Status::Partial);
    assert!(found.why.contains("never fetched"), "{}", found.why);
}

#[test]
fn a_plain_call_says_nothing_and_no_offer_no_result() {
    let found = judged(true, &[call(1, false)]).expect("judged");
    assert_eq!(
        (found.status, found.basis),
        (Status::Unknown, Basis::Absent)
    );
    // The probe did not offer tasks (before 2025-11-25, or an older probe's transcript).
    assert!(judged(false, &[call(1, true), ask(2, "tasks/result")]).is_none());
    // Offered, but the tool was never called.
    assert!(judged(true, &[]).is_none());
}
