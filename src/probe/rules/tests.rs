//! Each rule on a small hand-made transcript.

use super::*;
use crate::probe::transcript::{Entry, HttpEvent, Transcript};
use serde_json::json;

/// A transcript from `(dir, value)` pairs: `in`/`out` messages, `model` lines of the
/// scripted model, `note` strings, `http` `(method, [headers], status)`.
pub(super) fn transcript(lines: &[(&str, Value)]) -> Vec<Record> {
    let mut transcript = Transcript::default();
    for (dir, value) in lines {
        let entry = match *dir {
            "in" => Entry::In { msg: value.clone() },
            "out" => Entry::Out { msg: value.clone() },
            "model" => Entry::Model {
                model: value.clone(),
            },
            "note" => Entry::Note {
                note: value.as_str().expect("a note").to_string(),
            },
            "http" => Entry::Http {
                http: HttpEvent {
                    method: value[0].as_str().expect("method").to_string(),
                    path: "/mcp".into(),
                    headers: value[1]
                        .as_array()
                        .expect("headers")
                        .iter()
                        .map(|h| (h.as_str().expect("name").to_string(), "x".to_string()))
                        .collect(),
                    status: value[2].as_u64().expect("status") as u16,
                    stream: if value[0] == "GET" { "sse" } else { "json" }.into(),
                },
            },
            other => panic!("no direction {other}"),
        };
        transcript.push_at("2026-12-01T00:00:00.000Z".into(), entry);
    }
    transcript.records().to_vec()
}

pub(super) fn init(capabilities: Value) -> (&'static str, Value) {
    (
        "in",
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":"2025-11-25","capabilities":capabilities,
            "clientInfo":{"name":"c","version":"1"}}}),
    )
}

pub(super) fn request(id: u64, method: &str) -> (&'static str, Value) {
    ("in", json!({"jsonrpc":"2.0","id":id,"method":method}))
}

pub(super) fn reply(id: Value) -> (&'static str, Value) {
    ("out", json!({"jsonrpc":"2.0","id":id,"result":{}}))
}

fn asked(scenario: Scenario) -> (&'static str, Value) {
    ("out", scenarios::request(scenario, "2025-11-25"))
}

fn answered(scenario: Scenario) -> (&'static str, Value) {
    ("in", json!({"jsonrpc":"2.0","id":scenario.id,"result":{}}))
}

fn refused(scenario: Scenario) -> (&'static str, Value) {
    (
        "in",
        json!({"jsonrpc":"2.0","id":scenario.id,"error":{"code":-32601,"message":"no"}}),
    )
}

pub(super) fn timeout(what: &str) -> (&'static str, Value) {
    ("note", json!(scenarios::timeout_note(what, 3000)))
}

fn seen(transport: Transport, mode: &'static str, handshake: bool) -> Seen {
    Seen {
        transport,
        mode,
        handshake,
    }
}

pub(super) fn result(lines: &[(&str, Value)], id: &str) -> Option<Finding> {
    results(&seen(Transport::Stdio, "stdio", true), &transcript(lines)).remove(id)
}

pub(super) fn result_over(
    transport: Transport,
    lines: &[(&str, Value)],
    id: &str,
) -> Option<Finding> {
    results(&seen(transport, "streamable", true), &transcript(lines)).remove(id)
}

pub(super) fn status(lines: &[(&str, Value)], id: &str) -> Option<Status> {
    result(lines, id).map(|f| f.status)
}

#[test]
fn every_rule_names_a_distinct_dotted_capability() {
    let mut ids: Vec<&str> = RULES.iter().map(|(id, _)| *id).collect();
    assert!(ids.iter().all(|id| id.split('.').count() == 2));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), RULES.len());
}

#[test]
fn core_initialization_is_yes_when_initialize_was_sent_with_its_lines() {
    let lines = [init(json!({})), reply(json!(0))];
    let found = result(&lines, "core.initialization").expect("judged");
    assert_eq!((found.status, found.messages), (Status::Yes, vec![1, 2]));
    assert_eq!(
        status(&[request(1, "tools/list")], "core.initialization"),
        None
    );
}

#[test]
fn list_and_get_requests_are_yes_when_sent_and_left_out_otherwise() {
    for (id, method) in [
        ("tools.list", "tools/list"),
        ("resources.list", "resources/list"),
        ("resources.read", "resources/read"),
        ("resources.templates", "resources/templates/list"),
        ("prompts.list", "prompts/list"),
        ("prompts.get", "prompts/get"),
        ("resources.subscribe", "resources/subscribe"),
        ("completions.complete", "completion/complete"),
        ("core.discover", "server/discover"),
        ("core.subscriptions", "subscriptions/listen"),
    ] {
        let lines = [init(json!({})), request(1, method), reply(json!(1))];
        let found = result(&lines, id).expect(id);
        assert_eq!(
            (found.status, found.messages),
            (Status::Yes, vec![2, 3]),
            "{id}"
        );
        assert_eq!(status(&[init(json!({}))], id), None, "{id}");
    }
}

#[test]
fn tools_call_is_unknown_unless_the_client_called() {
    assert_eq!(
        status(&[init(json!({}))], "tools.call"),
        Some(Status::Unknown)
    );
    let call = (
        "in",
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call",
        "params":{"name":"probe_echo","arguments":{}}}),
    );
    let lines = [init(json!({})), call];
    assert_eq!(status(&lines, "tools.call"), Some(Status::Yes));
}

#[test]
fn a_model_told_to_call_another_tool_is_not_said_to_have_asked_for_the_probes() {
    let asked = |called: &str| ("model", json!({"step": "call", "called": called}));
    let lines = [init(json!({})), asked("list_mcp_resources")];
    let found = result(&lines, "tools.call").expect("judged");
    assert_eq!(found.status, Status::Unknown);
    assert!(
        found
            .why
            .contains("asked for list_mcp_resources, not probe_echo"),
        "{}",
        found.why
    );
    let lines = [
        init(json!({})),
        asked("ToolSearch"),
        asked("mcp__probe__probe_echo"),
    ];
    let found = result(&lines, "tools.call").expect("judged");
    assert_eq!(found.messages, vec![3]);
    assert!(
        found.why.contains("asked for probe_echo, but"),
        "{}",
        found.why
    );
}

#[test]
fn a_list_is_partial_when_the_page_its_next_cursor_names_is_never_asked_for() {
    use crate::probe::protocol::NEXT_PAGE;
    for (id, method) in [
        ("tools.list", "tools/list"),
        ("resources.list", "resources/list"),
        ("resources.templates", "resources/templates/list"),
        ("prompts.list", "prompts/list"),
    ] {
        let first_page = [
            init(json!({})),
            request(1, method),
            (
                "out",
                json!({"jsonrpc":"2.0","id":1,"result":{"nextCursor":NEXT_PAGE}}),
            ),
        ];
        let found = result(&first_page, id).expect(id);
        assert_eq!(
            (found.status, found.basis),
            (Status::Partial, Basis::Absent),
            "{id}"
        );
        assert!(
            found.why.contains("first page alone"),
            "{id}: {}",
            found.why
        );
        // Listing again from the start is not the next page.
        let mut again = first_page.to_vec();
        again.push(request(2, method));
        assert_eq!(status(&again, id), Some(Status::Partial), "{id}");
        let mut paged = first_page.to_vec();
        paged.push((
            "in",
            json!({"jsonrpc":"2.0","id":3,"method":method,"params":{"cursor":NEXT_PAGE}}),
        ));
        let found = result(&paged, id).expect(id);
        assert_eq!(
            (found.status, found.messages),
            (Status::Yes, vec![2, 3, 4]),
            "{id}"
        );
    }
}

#[test]
fn roots_list_from_the_declaration_and_the_answer() {
    let declared = json!({"roots": {"listChanged": true}});
    assert_eq!(
        status(&[init(declared.clone())], "roots.list"),
        Some(Status::Yes)
    );
    let lines = [init(declared.clone()), asked(ROOTS), answered(ROOTS)];
    let found = result(&lines, "roots.list").expect("judged");
    assert_eq!((found.status, found.messages), (Status::Yes, vec![1, 2, 3]));
    // An answer without the capability declared is partial; an empty list of roots (what
    // Codex answers) shows none, so it is no.
    let lines = [init(json!({})), asked(ROOTS), answered(ROOTS)];
    assert_eq!(status(&lines, "roots.list"), Some(Status::Partial));
    let empty = (
        "in",
        json!({"jsonrpc":"2.0","id":ROOTS.id,"result":{"roots":[]}}),
    );
    let lines = [init(json!({})), asked(ROOTS), empty];
    assert_eq!(status(&lines, "roots.list"), Some(Status::No));
    let lines = [init(json!({})), asked(ROOTS), refused(ROOTS)];
    assert_eq!(status(&lines, "roots.list"), Some(Status::No));
    let lines = [init(declared), asked(ROOTS), refused(ROOTS)];
    assert_eq!(status(&lines, "roots.list"), Some(Status::Partial));
    let lines = [init(json!({})), asked(ROOTS)];
    assert_eq!(status(&lines, "roots.list"), Some(Status::No));
    assert_eq!(status(&[request(1, "ping")], "roots.list"), None);
}

#[test]
fn roots_list_changed_and_sampling_tools_follow_the_declared_capability() {
    let caps = json!({"roots": {"listChanged": true}, "sampling": {}});
    assert_eq!(
        status(&[init(caps.clone())], "roots.listChanged"),
        Some(Status::Yes)
    );
    assert_eq!(status(&[init(caps)], "sampling.tools"), Some(Status::No));
    let caps = json!({"roots": {}, "sampling": {"tools": {}}});
    assert_eq!(
        status(&[init(caps.clone())], "roots.listChanged"),
        Some(Status::No)
    );
    assert_eq!(status(&[init(caps)], "sampling.tools"), Some(Status::Yes));
    assert_eq!(status(&[request(1, "ping")], "roots.listChanged"), None);
}

#[test]
fn sampling_create_message_timed_out_while_declared_is_partial() {
    let lines = [
        init(json!({"sampling": {}})),
        asked(SAMPLING),
        timeout(SAMPLING.id),
    ];
    let found = result(&lines, "sampling.createMessage").expect("judged");
    assert_eq!(
        (found.status, found.messages),
        (Status::Partial, vec![1, 2, 3])
    );
    let lines = [
        init(json!({"sampling": {}})),
        asked(SAMPLING),
        answered(SAMPLING),
    ];
    assert_eq!(status(&lines, "sampling.createMessage"), Some(Status::Yes));
    let lines = [init(json!({})), asked(SAMPLING), answered(SAMPLING)];
    assert_eq!(
        status(&lines, "sampling.createMessage"),
        Some(Status::Partial)
    );
}

#[test]
fn each_result_says_what_it_rests_on() {
    let declared = json!({"roots": {}, "sampling": {}});
    // Not asked (a 2026-07-28 probe with no request in flight): the declaration alone.
    let found = result(&[init(declared.clone())], "roots.list").expect("judged");
    assert_eq!((found.status, found.basis), (Status::Yes, Basis::Declared));
    assert!(found.why.contains("did not ask"), "{}", found.why);
    let found = result(&[init(json!({}))], "sampling.createMessage").expect("judged");
    assert_eq!((found.status, found.basis), (Status::No, Basis::Declared));
    // Asked: the answer, the refusal or the silence.
    let lines = [init(declared.clone()), asked(ROOTS), answered(ROOTS)];
    assert_eq!(
        result(&lines, "roots.list").map(|f| f.basis),
        Some(Basis::Did)
    );
    let lines = [init(declared.clone()), asked(ROOTS), refused(ROOTS)];
    assert_eq!(
        result(&lines, "roots.list").map(|f| f.basis),
        Some(Basis::Refused)
    );
    let lines = [init(declared), asked(SAMPLING), timeout(SAMPLING.id)];
    let found = result(&lines, "sampling.createMessage").expect("judged");
    assert_eq!(
        (found.status, found.basis),
        (Status::Partial, Basis::Absent)
    );
    let caps = json!({"roots": {"listChanged": true}});
    let found = result(&[init(caps)], "roots.listChanged").expect("judged");
    assert_eq!(found.basis, Basis::Declared);
    let lines = [init(json!({})), request(1, "tools/list")];
    assert_eq!(
        result(&lines, "tools.list").map(|f| f.basis),
        Some(Basis::Did)
    );
}

#[test]
fn a_session_without_handshake_claims_nothing_from_garbage() {
    // Valid JSON that is no handshake (what a garbage peer sends), over stdio.
    let lines = [
        ("in", json!({"foo": 1})),
        (
            "out",
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}),
        ),
        ("note", json!("client closed stdin")),
    ];
    let found = results(&seen(Transport::Stdio, "stdio", false), &transcript(&lines));
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_refused_post_without_a_get_after_it_says_no_fallback_to_sse() {
    let lines = [
        ("http", json!(["POST", ["user-agent"], 405])),
        ("note", json!("refused 405 body: {}")),
        ("http", json!(["POST", ["user-agent"], 405])),
    ];
    let no_session = |mode| {
        results(
            &seen(Transport::StreamableHttp, mode, false),
            &transcript(&lines),
        )
    };
    let found = no_session("legacy-only-405");
    let sse = found.get("transports.sse").expect("judged");
    assert_eq!((sse.status, sse.basis), (Status::No, Basis::Absent));
    assert_eq!(sse.messages, vec![1, 3]);
    assert!(
        sse.why.contains("405") && sse.why.contains("no fallback"),
        "{}",
        sse.why
    );
    assert_eq!(found.len(), 1, "nothing else is claimed");
    // The probe did not offer SSE there: it says nothing of a fallback.
    assert!(no_session("streamable").is_empty());
    // A GET after the refusal is a fallback attempt: no "no".
    let mut then = lines.to_vec();
    then.push(("http", json!(["GET", [], 200])));
    let found = results(
        &seen(Transport::StreamableHttp, "legacy-only-405", false),
        &transcript(&then),
    );
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn elicitation_form_and_url_are_told_apart() {
    let empty = json!({"elicitation": {}});
    assert_eq!(
        status(&[init(empty.clone())], "elicitation.form"),
        Some(Status::Yes)
    );
    assert_eq!(status(&[init(empty)], "elicitation.url"), Some(Status::No));
    let url = json!({"elicitation": {"url": {}}});
    assert_eq!(
        status(&[init(url.clone())], "elicitation.form"),
        Some(Status::No)
    );
    assert_eq!(status(&[init(url)], "elicitation.url"), Some(Status::Yes));
    let lines = [
        init(json!({"elicitation": {"form": {}}})),
        asked(ELICIT_FORM),
        answered(ELICIT_FORM),
        asked(ELICIT_URL),
        refused(ELICIT_URL),
    ];
    assert_eq!(status(&lines, "elicitation.form"), Some(Status::Yes));
    assert_eq!(status(&lines, "elicitation.url"), Some(Status::No));
}

#[test]
fn cancellation_and_progress_only_when_seen() {
    assert_eq!(status(&[init(json!({}))], "core.cancellation"), None);
    assert_eq!(status(&[init(json!({}))], "core.progress"), None);
    let lines = [
        init(json!({})),
        (
            "in",
            json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}),
        ),
    ];
    assert_eq!(status(&lines, "core.cancellation"), Some(Status::Yes));
    let lines = [
        init(json!({})),
        (
            "in",
            json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"p"}}}),
        ),
    ];
    assert_eq!(status(&lines, "core.progress"), Some(Status::Yes));
}

#[test]
fn the_transport_used_is_yes_and_a_refused_post_shows_the_fallback() {
    let lines = [init(json!({}))];
    assert_eq!(status(&lines, "transports.stdio"), Some(Status::Yes));
    assert_eq!(status(&lines, "transports.sse"), None);
    let lines = [
        ("http", json!(["POST", [], 404])),
        ("http", json!(["GET", [], 200])),
        init(json!({})),
    ];
    let sse = |id| result_over(Transport::Sse, &lines, id).map(|f| (f.status, f.messages));
    // Legacy SSE rests on the GET that opened the stream and the request after it, never on
    // the refused POST.
    assert_eq!(sse("transports.sse"), Some((Status::Yes, vec![2, 3])));
    assert_eq!(
        sse("transports.streamableHttp"),
        Some((Status::Yes, vec![1]))
    );
    assert_eq!(sse("transports.stdio"), None);
    // A refused POST alone (no stream opened) shows no SSE session.
    let lines = [("http", json!(["POST", [], 404])), init(json!({}))];
    assert_eq!(result_over(Transport::Sse, &lines, "transports.sse"), None);
}

#[test]
fn standard_headers_are_judged_on_posted_requests_only() {
    let answer = (
        "in",
        json!({"jsonrpc":"2.0","id":"fieldnotes-probe/ping","result":{}}),
    );
    let lines = [
        ("http", json!(["POST", [], 200])),
        init(json!({})),
        ("http", json!(["POST", ["mcp-method"], 200])),
        request(1, "tools/list"),
        // The client's answer to the probe's ping, and its GET stream, carry no Mcp-Method:
        // neither is a request of its own.
        ("http", json!(["POST", [], 202])),
        answer,
        ("http", json!(["GET", [], 200])),
    ];
    let found = result_over(
        Transport::StreamableHttp,
        &lines,
        "transports.standardHeaders",
    )
    .expect("judged");
    assert_eq!((found.status, found.messages), (Status::Yes, vec![3]));
    assert!(found.why.contains("POSTed requests"), "{}", found.why);
    // The other headers still count every request after initialize.
    let version = result_over(
        Transport::StreamableHttp,
        &lines,
        "transports.protocolVersionHeader",
    );
    assert_eq!(version.map(|f| f.status), Some(Status::No));
}

#[test]
fn headers_after_initialize_are_yes_on_all_partial_on_some_no_on_none() {
    let over = |headers: [Value; 2], id| {
        let lines = [
            ("http", json!(["POST", [], 200])),
            init(json!({})),
            ("http", headers[0].clone()),
            ("http", headers[1].clone()),
        ];
        result_over(Transport::StreamableHttp, &lines, id).map(|f| (f.status, f.messages))
    };
    let both = json!(["POST", ["mcp-protocol-version", "mcp-session-id"], 202]);
    let none = json!(["POST", [], 200]);
    let id = "transports.protocolVersionHeader";
    assert_eq!(
        over([both.clone(), both.clone()], id),
        Some((Status::Yes, vec![3, 4]))
    );
    assert_eq!(
        over([both.clone(), none.clone()], id),
        Some((Status::Partial, vec![4]))
    );
    assert_eq!(
        over([none.clone(), none.clone()], id),
        Some((Status::No, vec![3, 4]))
    );
    assert_eq!(
        over([both.clone(), both], "transports.sessions").map(|f| f.0),
        Some(Status::Yes)
    );
    assert_eq!(status(&[init(json!({}))], id), None);
}

#[test]
fn core_stateless_is_meta_without_initialize() {
    let meta = json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}});
    let lines = [("in", meta.clone())];
    assert_eq!(status(&lines, "core.stateless"), Some(Status::Yes));
    assert_eq!(status(&lines, "roots.list"), Some(Status::Yes));
    assert_eq!(
        status(&[init(json!({})), ("in", meta)], "core.stateless"),
        None
    );
}

#[test]
fn instructions_are_judged_from_the_model_lines_and_left_out_without_them() {
    let stdio = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    let without_model = transcript(&[init(json!({})), reply(json!(0))]);
    assert!(!results(&stdio, &without_model).contains_key("core.instructions"));

    let asked = |seen: bool| ("model", json!({"step": "call", "instructions": seen}));
    let side = ("model", json!({"step": "side"}));
    let shown = transcript(&[init(json!({})), reply(json!(0)), side.clone(), asked(true)]);
    let found = &results(&stdio, &shown)["core.instructions"];
    assert_eq!((found.status, found.basis), (Status::Yes, Basis::Did));
    assert_eq!(found.messages, vec![4]);

    let not_shown = transcript(&[
        init(json!({})),
        reply(json!(0)),
        side,
        asked(false),
        asked(false),
    ]);
    let found = &results(&stdio, &not_shown)["core.instructions"];
    assert_eq!((found.status, found.basis), (Status::No, Basis::Absent));
    assert!(found.why.contains("2 time(s)"), "{}", found.why);
}

#[test]
fn an_official_extension_is_read_off_the_declared_extensions() {
    let stdio = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    for (capability, extension) in [
        ("extensions.apps", "io.modelcontextprotocol/ui"),
        ("tasks.extension", "io.modelcontextprotocol/tasks"),
    ] {
        let settings = json!({"mimeTypes": ["text/html;profile=mcp-app"]});
        let declared = transcript(&[
            init(json!({"extensions": {extension: settings}})),
            reply(json!(0)),
        ]);
        let found = &results(&stdio, &declared)[capability];
        assert_eq!(
            (found.status, found.basis),
            (Status::Yes, Basis::Declared),
            "{capability}"
        );
        assert!(found.why.contains(extension), "{capability}: {}", found.why);
        let other = json!({"extensions": {"io.example/other": {}}});
        let undeclared = transcript(&[init(other), reply(json!(0))]);
        let found = &results(&stdio, &undeclared)[capability];
        assert_eq!((found.status, found.basis), (Status::No, Basis::Declared));
    }
}
