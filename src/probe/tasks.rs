//! The probe's tasks of revision 2025-11-25: in a session agreed at that revision it declares
//! task-augmented tool calls, marks its tool's task support `optional`, answers a `tools/call`
//! that carries `task` with a task handle instead of the result, and answers `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel`. It keeps no state: the task id carries the
//! call's text, so the result can be rebuilt from the id alone, and every task it is asked
//! about has already completed.

use serde_json::{json, Value};

/// The revision whose core protocol has tasks (2026-07-28 moves them into an extension).
pub(crate) const TASKS_REVISION: &str = "2025-11-25";

/// Every task id the probe hands out starts so; the rest is the call's text, hex-encoded.
const ID_PREFIX: &str = "fieldnotes-task-";
/// The most of a call's text a task id carries, in bytes.
const MAX_TEXT: usize = 256;
/// How long the probe says it keeps a task, and how often to poll it, in milliseconds.
const TTL_MS: u64 = 60_000;
const POLL_MS: u64 = 200;
/// The `_meta` key that ties a result to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// The server capability that offers task-augmented `tools/call`.
pub(crate) fn capability() -> Value {
    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
}

/// What a tool says of tasks: a client may call it either way.
pub(crate) fn tool_execution() -> Value {
    json!({"taskSupport": "optional"})
}

/// Whether a `tools/call` asks to run as a task (its `task` field).
pub(crate) fn asked(params: Option<&Value>) -> bool {
    params
        .and_then(|p| p.get("task"))
        .is_some_and(Value::is_object)
}

/// The answer to a task-augmented call of the probe's tool with `text`: a task handle,
/// still working.
pub(crate) fn created(text: &str) -> Value {
    json!({"task": task(&task_id(text), "working")})
}

/// The answer to `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`; `echo` builds
/// the tool's result from its text. An error is the message of an invalid-params error.
pub(crate) fn answer(
    method: &str,
    params: Option<&Value>,
    echo: impl Fn(&str) -> Value,
) -> Result<Value, String> {
    if method == "tasks/list" {
        // The probe remembers no task: a client that lists finds none.
        return Ok(json!({"tasks": []}));
    }
    let id = params
        .and_then(|p| p.get("taskId"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(text) = text_of(id) else {
        return Err(format!(
            "unknown task; the probe's task ids start with {ID_PREFIX}"
        ));
    };
    match method {
        "tasks/get" => Ok(task(id, "completed")),
        "tasks/result" => {
            let mut result = echo(&text);
            result["_meta"] = json!({RELATED_TASK: {"taskId": id}});
            Ok(result)
        }
        // "cancel" (a task that has completed cannot be cancelled)
        _ => Err("the task has already completed and cannot be cancelled".into()),
    }
}

/// Whether `method` is one of the task requests [`answer`] answers.
pub(crate) fn is_task_request(method: &str) -> bool {
    matches!(
        method,
        "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel"
    )
}

fn task(id: &str, status: &str) -> Value {
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    json!({
        "taskId": id,
        "status": status,
        "createdAt": now,
        "lastUpdatedAt": now,
        "ttl": TTL_MS,
        "pollInterval": POLL_MS,
    })
}

/// A task id for a call with `text` (cut to [`MAX_TEXT`] bytes at a character boundary).
fn task_id(text: &str) -> String {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let hex: String = text.as_bytes()[..end]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{ID_PREFIX}{hex}")
}

/// The call's text a task id carries, if it is one of the probe's.
fn text_of(id: &str) -> Option<String> {
    let hex = id.strip_prefix(ID_PREFIX)?;
    if hex.len() % 2 != 0 || hex.len() > 2 * MAX_TEXT {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(text: &str) -> Value {
        json!({"content": [{"type": "text", "text": text}]})
    }

    #[test]
    fn a_task_carries_its_call_and_answers_get_and_result_without_memory() {
        let handle = created("héllo");
        let id = handle
            .pointer("/task/taskId")
            .and_then(Value::as_str)
            .unwrap();
        assert_eq!(handle.pointer("/task/status"), Some(&json!("working")));
        let params = json!({"taskId": id});
        let got = answer("tasks/get", Some(&params), echo).unwrap();
        assert_eq!(got["status"], "completed");
        assert_eq!(got["taskId"], id);
        let result = answer("tasks/result", Some(&params), echo).unwrap();
        assert_eq!(result.pointer("/content/0/text"), Some(&json!("héllo")));
        assert_eq!(result["_meta"][RELATED_TASK]["taskId"], id);
        let cancel = answer("tasks/cancel", Some(&params), echo).unwrap_err();
        assert!(cancel.contains("cannot be cancelled"), "{cancel}");
        assert_eq!(
            answer("tasks/list", None, echo).unwrap(),
            json!({"tasks": []})
        );
    }

    #[test]
    fn a_task_id_not_the_probes_is_refused_and_a_long_text_is_cut_whole() {
        for bad in [
            "other",
            "fieldnotes-task-zz",
            "fieldnotes-task-abc",
            "fieldnotes-task-ff",
        ] {
            let params = json!({"taskId": bad});
            let error = answer("tasks/get", Some(&params), echo).unwrap_err();
            assert!(error.starts_with("unknown task"), "{bad}: {error}");
        }
        let long = "é".repeat(200);
        let id = task_id(&long);
        let text = text_of(&id).unwrap();
        assert!(text.len() <= MAX_TEXT && long.starts_with(&text));
        assert!(asked(Some(&json!({"task": {"ttl": 1000}}))));
        assert!(!asked(Some(&json!({"task": null}))));
    }
}
