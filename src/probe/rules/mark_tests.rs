//! Model-side facts belong to one session: a tool result or instructions the scripted model
//! saw count only for the session that wrote them (its mark), and a transcript made before
//! sessions were marked is judged on a result only if its own session called the tool.

use super::tests::{init, transcript};
use super::*;
use crate::probe::session_mark::LEFT_OUT_NOTE;
use serde_json::json;

const OURS: &str = "fieldnotes-session-5-1";
const THEIRS: &str = "fieldnotes-session-5-2";

fn stdio() -> Seen {
    Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    }
}

/// The probe's answer to `initialize`, its instructions marked for `mark`.
fn initialized(mark: &str) -> (&'static str, Value) {
    let instructions = format!("fieldnotes probe (fieldnotes-instructions {mark})");
    (
        "out",
        json!({"jsonrpc":"2.0","id":0,"result":{"instructions": instructions}}),
    )
}

fn call() -> (&'static str, Value) {
    let params = json!({"name": "probe_echo", "arguments": {"text": "t"}});
    (
        "in",
        json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params": params}),
    )
}

fn called(mark: &str) -> (&'static str, Value) {
    let result = json!({"content": [{"type": "text", "text": format!("fieldnotes-text-content: t ({mark})")}],
        "structuredContent": {"echo": "t", "part": "fieldnotes-structured-content", "session": mark}});
    ("out", json!({"jsonrpc":"2.0","id":7,"result": result}))
}

fn shown(shown: &str, mark: Option<&str>) -> (&'static str, Value) {
    let mut result = json!({"tool": "probe_echo", "shown": shown});
    if let Some(mark) = mark {
        result["session"] = json!(mark);
    }
    ("model", json!({"step": "final", "toolResults": [result]}))
}

#[test]
fn a_tool_result_counts_only_for_the_session_that_answered_it() {
    let called_here = vec![init(json!({})), initialized(OURS), call(), called(OURS)];
    let with = |lines: &[(&'static str, Value)]| {
        transcript(&[called_here.clone(), lines.to_vec()].concat())
    };
    let ours = with(&[
        shown("text", Some(THEIRS)),
        shown("structuredContent", Some(OURS)),
    ]);
    let found = &results(&stdio(), &ours)["tools.structuredOutput"];
    assert_eq!(found.status, Status::Yes, "{}", found.why);
    assert_eq!(found.messages, vec![3, 4, 6]);

    // Another session's result only: nothing to judge here.
    let theirs = with(&[shown("text", Some(THEIRS))]);
    assert!(!results(&stdio(), &theirs).contains_key("tools.structuredOutput"));
}

#[test]
fn an_unmarked_transcript_judges_a_result_only_where_its_session_called_the_tool() {
    let reply = ("out", json!({"jsonrpc":"2.0","id":0,"result":{}}));
    let no_call = transcript(&[init(json!({})), reply.clone(), shown("text", None)]);
    assert!(!results(&stdio(), &no_call).contains_key("tools.structuredOutput"));
    let answered = ("out", json!({"jsonrpc":"2.0","id":7,"result":{}}));
    let with_call = transcript(&[
        init(json!({})),
        reply,
        call(),
        answered,
        shown("text", None),
    ]);
    let found = &results(&stdio(), &with_call)["tools.structuredOutput"];
    assert_eq!(found.status, Status::Partial, "{}", found.why);
}

#[test]
fn a_kilo_session_without_a_call_no_longer_borrows_another_sessions_result() {
    // Kilo CLI's OAuth run: `kilo mcp auth` opened this session and only listed tools; the
    // call (and the model line that saw its result) came from the session `kilo run` opened.
    let jsonl = include_str!(
        "../../../content/observations/kilo-code-7-7-7-streamable-http-oauth-20261207-074131.jsonl"
    );
    let records = crate::probe::transcript::Transcript::from_jsonl(jsonl);
    let seen = Seen {
        transport: Transport::StreamableHttp,
        mode: "streamable-http",
        handshake: true,
    };
    let judged = results(&seen, records.records());
    assert!(!judged.contains_key("tools.structuredOutput"));
    assert_eq!(judged["tools.list"].status, Status::Yes);
}

#[test]
fn instructions_count_for_their_own_session_and_another_sessions_decide_nothing() {
    let asked = |whose: Option<&str>| {
        let mut line = json!({"step": "call", "instructions": whose.is_some()});
        if let Some(whose) = whose {
            line["instructionsFor"] = json!([whose]);
        }
        ("model", line)
    };
    let ours = transcript(&[
        init(json!({})),
        initialized(OURS),
        asked(None),
        asked(Some(OURS)),
    ]);
    let found = &results(&stdio(), &ours)["core.instructions"];
    assert_eq!(
        (found.status, found.messages.clone()),
        (Status::Yes, vec![4])
    );

    // The model saw only the other session's instructions; their lines were left out.
    let note = ("note", json!(format!("{LEFT_OUT_NOTE}1 ({THEIRS})")));
    let theirs = transcript(&[init(json!({})), initialized(OURS), asked(None), note]);
    assert!(!results(&stdio(), &theirs).contains_key("core.instructions"));

    // Kept in the transcript (it carries this session's result) but holding only another
    // session's instructions, as Claude Code keeps an ended session's: nothing decided.
    let kept = (
        "model",
        json!({"step": "final", "instructions": true, "instructionsFor": [THEIRS]}),
    );
    let earlier = transcript(&[init(json!({})), initialized(OURS), asked(None), kept]);
    assert!(!results(&stdio(), &earlier).contains_key("core.instructions"));

    // Nobody's instructions, in every request with tools: no.
    let none = transcript(&[init(json!({})), initialized(OURS), asked(None), asked(None)]);
    assert_eq!(
        results(&stdio(), &none)["core.instructions"].status,
        Status::No
    );
}
