//! What the probe asks of a client at once after the handshake: `ping`, `roots/list`,
//! `sampling/createMessage`, `elicitation/create` (form, then url), and, once the client has
//! listed tools, `notifications/tools/list_changed`. Each request has an id naming it, so the
//! rules find its answer; a request not answered in time gets a timeout note.

use serde_json::{json, Value};

/// One server → client request of the probe's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scenario {
    /// The JSON-RPC id the request is sent with: `fieldnotes-probe/<name>`.
    pub id: &'static str,
    pub method: &'static str,
}

pub(crate) const PING: Scenario = Scenario {
    id: "fieldnotes-probe/ping",
    method: "ping",
};
pub(crate) const ROOTS: Scenario = Scenario {
    id: "fieldnotes-probe/roots",
    method: "roots/list",
};
pub(crate) const SAMPLING: Scenario = Scenario {
    id: "fieldnotes-probe/sampling",
    method: "sampling/createMessage",
};
pub(crate) const ELICIT_FORM: Scenario = Scenario {
    id: "fieldnotes-probe/elicitation-form",
    method: "elicitation/create",
};
pub(crate) const ELICIT_URL: Scenario = Scenario {
    id: "fieldnotes-probe/elicitation-url",
    method: "elicitation/create",
};

/// The requests the probe's tool sends during a call (current protocol), each where the
/// client declared it.
pub(crate) const CALL_SAMPLING: Scenario = Scenario {
    id: "fieldnotes-probe/call-sampling",
    method: "sampling/createMessage",
};
pub(crate) const CALL_ELICIT_FORM: Scenario = Scenario {
    id: "fieldnotes-probe/call-elicitation-form",
    method: "elicitation/create",
};
pub(crate) const CALL_ELICIT_URL: Scenario = Scenario {
    id: "fieldnotes-probe/call-elicitation-url",
    method: "elicitation/create",
};

/// The requests, in the order they are sent.
pub(crate) const REQUESTS: [Scenario; 5] = [PING, ROOTS, SAMPLING, ELICIT_FORM, ELICIT_URL];

/// The notification whose effect the probe watches: does the client list tools again?
pub(crate) const LIST_CHANGED: &str = "notifications/tools/list_changed";
/// Sent with [`LIST_CHANGED`] in a `current` session: does the client list resources, and
/// prompts, again?
pub(crate) const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
pub(crate) const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";

/// The request `scenario` sends to a client speaking `version`.
pub(crate) fn request(scenario: Scenario, version: &str) -> Value {
    let modes = version >= "2025-11-25";
    let params = match scenario.id {
        id if id == SAMPLING.id || id == CALL_SAMPLING.id => json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hello."}}],
            "maxTokens": 16,
        }),
        id if id == ELICIT_FORM.id || id == CALL_ELICIT_FORM.id => {
            let mut params = json!({
                "message": "The fieldnotes probe asks: what is your name?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                },
            });
            if modes {
                params["mode"] = json!("form");
            }
            params
        }
        id if id == ELICIT_URL.id || id == CALL_ELICIT_URL.id => {
            let mut params = json!({
                "mode": "url",
                "message": "The fieldnotes probe asks you to open a page.",
                "url": "https://example.com/fieldnotes-probe",
            });
            if version < "2026-07-28" {
                params["elicitationId"] = json!("fieldnotes-probe-1");
            }
            params
        }
        _ => Value::Null,
    };
    let mut message = json!({"jsonrpc": "2.0", "id": scenario.id, "method": scenario.method});
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

/// The question of `scenario`'s kind the probe's tool asks during a call, if any.
pub(crate) fn in_call(scenario: Scenario) -> Option<Scenario> {
    match scenario.id {
        id if id == SAMPLING.id => Some(CALL_SAMPLING),
        id if id == ELICIT_FORM.id => Some(CALL_ELICIT_FORM),
        id if id == ELICIT_URL.id => Some(CALL_ELICIT_URL),
        _ => None,
    }
}

/// The requests the probe's tool sends during a call to a client that declared `declared`:
/// an elicitation (form, and url), and sampling, each only where declared.
pub(crate) fn during_call(declared: &Value) -> Vec<Scenario> {
    let elicitation = declared.get("elicitation").filter(|e| !e.is_null());
    let form = elicitation.is_some_and(|e| e.get("form").is_some() || e.get("url").is_none());
    let url = elicitation.is_some_and(|e| e.get("url").is_some());
    let sampling = declared.get("sampling").is_some_and(|s| !s.is_null());
    [
        (form, CALL_ELICIT_FORM),
        (url, CALL_ELICIT_URL),
        (sampling, CALL_SAMPLING),
    ]
    .into_iter()
    .filter(|(wanted, _)| *wanted)
    .map(|(_, scenario)| scenario)
    .collect()
}

/// The progress notification the probe's tool sends for `token` while it runs.
pub(crate) fn progress(token: &Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
        "progressToken": token, "progress": 1, "total": 2,
        "message": "fieldnotes probe: probe_echo is halfway"}})
}

/// The log message the probe's tool sends while it runs.
pub(crate) fn log_message() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {
        "level": "info", "logger": "fieldnotes-probe", "data": "probe_echo is running"}})
}

/// The `_meta` key that ties a notification to its 2026-07-28 subscription.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// `notifications/tools/list_changed`, on the client's subscription when it has one.
pub(crate) fn list_changed(subscription: Option<&Value>) -> Value {
    match subscription {
        Some(id) => json!({"jsonrpc": "2.0", "method": LIST_CHANGED,
            "params": {"_meta": {SUBSCRIPTION_ID: id}}}),
        None => json!({"jsonrpc": "2.0", "method": LIST_CHANGED}),
    }
}

/// `notifications/resources/list_changed` and `notifications/prompts/list_changed`.
pub(crate) fn other_lists_changed() -> [Value; 2] {
    [RESOURCES_LIST_CHANGED, PROMPTS_LIST_CHANGED].map(|m| json!({"jsonrpc": "2.0", "method": m}))
}

/// The note of `--mode expire-session`, at the `tools/call` the probe answered 404; the
/// sessions rule reads it back.
pub(crate) const EXPIRED_NOTE: &str =
    "the probe ended this session: its tools/call was answered 404 (--mode expire-session)";

/// The note written when `what` got no answer in time; [`timed_out`] reads it back.
pub(crate) fn timeout_note(what: &str, millis: u128) -> String {
    format!("{TIMEOUT_PREFIX}{what} not answered within {millis} ms")
}

const TIMEOUT_PREFIX: &str = "timeout: ";

/// The request id or notification a timeout note names.
pub(crate) fn timed_out(note: &str) -> Option<&str> {
    note.strip_prefix(TIMEOUT_PREFIX)?.split(' ').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_note_names_what_timed_out() {
        assert_eq!(timed_out(&timeout_note(ROOTS.id, 3000)), Some(ROOTS.id));
        assert_eq!(timed_out("client closed stdin"), None);
    }

    #[test]
    fn elicitation_modes_follow_the_revision() {
        assert!(request(ELICIT_FORM, "2025-06-18")["params"]
            .get("mode")
            .is_none());
        assert_eq!(request(ELICIT_FORM, "2025-11-25")["params"]["mode"], "form");
        assert!(request(ELICIT_URL, "2026-07-28")["params"]
            .get("elicitationId")
            .is_none());
        assert!(request(PING, "2025-11-25").get("params").is_none());
    }
}
