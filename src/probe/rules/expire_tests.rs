//! `transports.sessions` where the probe ended the session (`--mode expire-session`): a new
//! `initialize` after the 404 (and the call sent again, or not), requests kept on the ended
//! session, or nothing more in the record.

use super::tests::{init, request, result_over};
use super::*;
use crate::probe::scenarios::EXPIRED_NOTE;
use serde_json::json;

/// An HTTP POST line, its status, with or without `Mcp-Session-Id`.
fn post(status: u16, session: bool) -> (&'static str, Value) {
    let headers = if session {
        json!(["mcp-session-id"])
    } else {
        json!([])
    };
    ("http", json!(["POST", headers, status]))
}

/// A session begun and ended at its call: `initialize`, one request on the session, the call
/// answered 404 and the probe's note.
fn ended() -> Vec<(&'static str, Value)> {
    vec![
        post(200, false),
        init(json!({})),
        post(200, true),
        request(1, "tools/list"),
        post(404, true),
        request(2, "tools/call"),
        ("note", json!(EXPIRED_NOTE)),
    ]
}

fn sessions(lines: &[(&'static str, Value)]) -> Finding {
    result_over(Transport::StreamableHttp, lines, "transports.sessions").expect("judged")
}

#[test]
fn a_new_initialize_after_the_404_is_yes_and_says_whether_the_call_came_again() {
    let again = [
        ended(),
        vec![
            post(200, false),
            init(json!({})),
            post(200, true),
            request(3, "tools/call"),
        ],
    ];
    let found = sessions(&again.concat());
    assert_eq!(found.status, Status::Yes, "{}", found.why);
    assert!(
        found
            .why
            .ends_with("initialize and sent its tools/call again there"),
        "{}",
        found.why
    );
    let no_call = [ended(), vec![post(200, false), init(json!({}))]];
    let found = sessions(&no_call.concat());
    assert!(
        found.why.contains("(no tools/call followed on it;"),
        "{}",
        found.why
    );
}

#[test]
fn requests_kept_on_the_ended_session_are_partial_and_silence_is_unknown() {
    let stale = [ended(), vec![post(404, true), post(404, true)]];
    let found = sessions(&stale.concat());
    assert_eq!(found.status, Status::Partial, "{}", found.why);
    assert!(found.why.contains("2 more request(s)"), "{}", found.why);
    let found = sessions(&ended());
    assert_eq!(
        (found.status, found.basis),
        (Status::Unknown, Basis::Absent)
    );
}
