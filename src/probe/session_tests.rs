//! The session's timing and protocol modes, on hand-fed messages.

use super::*;
use serde_json::json;

fn session() -> Session {
    Session::new(Transport::Stdio, Settings::test(Duration::from_millis(50)))
}

fn init(s: &mut Session) {
    let replies = s.receive(json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}));
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
}

#[test]
fn the_scenarios_go_out_once_after_initialized_and_list_changed_after_tools_list() {
    let mut s = session();
    init(&mut s);
    s.due(Instant::now());
    assert!(!s.has_outbound());
    s.receive(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    s.due(Instant::now());
    let sent = s.drain_outbound();
    assert_eq!(sent.len(), scenarios::REQUESTS.len());
    s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
    s.due(Instant::now());
    // A current session says the resource and prompt lists changed with the tools.
    let changed: Vec<Value> = (s.drain_outbound().iter())
        .map(|m| m["method"].clone())
        .collect();
    assert_eq!(
        changed,
        [
            LIST_CHANGED,
            scenarios::RESOURCES_LIST_CHANGED,
            scenarios::PROMPTS_LIST_CHANGED
        ]
    );
    s.receive(json!({"jsonrpc":"2.0","id":"fieldnotes-probe/ping","result":{}}));
    assert!(!s.is_quiet(Instant::now(), Duration::ZERO));
    s.expire(Instant::now() + Duration::from_secs(1));
    assert!(s.is_quiet(Instant::now() + Duration::from_secs(1), Duration::ZERO));
    let notes = s
        .transcript
        .records()
        .iter()
        .filter(|r| matches!(&r.entry, Entry::Note { note } if note.starts_with("timeout")))
        .count();
    // Four requests unanswered (ping was answered), and no second tools/list.
    assert_eq!(notes, 5);
}

#[test]
fn questions_and_list_changed_wait_for_the_settle_time() {
    let mut settings = Settings::test(Duration::from_secs(5));
    settings.settle = Duration::from_millis(300);
    let mut s = Session::new(Transport::Stdio, settings);
    init(&mut s);
    s.receive(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    let now = Instant::now();
    s.due(now);
    assert!(!s.has_outbound(), "nothing may go out in the same instant");
    assert!(s.next_deadline(now, Duration::from_secs(3)) <= now + Duration::from_millis(300));
    assert!(!s.is_quiet(now + Duration::from_secs(10), Duration::ZERO));
    s.due(now + Duration::from_millis(300));
    assert_eq!(s.drain_outbound().len(), scenarios::REQUESTS.len());
    s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
    let answered = Instant::now();
    s.due(answered);
    assert!(
        !s.has_outbound(),
        "list_changed may not ride with the tools/list answer"
    );
    s.due(answered + Duration::from_millis(300));
    assert_eq!(s.drain_outbound()[0]["method"], LIST_CHANGED);
}

#[test]
fn garbage_and_huge_input_are_noted_not_fatal() {
    let mut s = session();
    let replies = s.receive_bytes(b"not json\x01");
    assert_eq!(replies[0]["error"]["code"], protocol::PARSE_ERROR);
    assert!(s
        .receive_bytes(&vec![b'x'; MAX_MESSAGE_BYTES + 1])
        .is_empty());
    let replies = s.receive(json!({"jsonrpc":"2.0","id":7}));
    assert_eq!(replies[0]["error"]["code"], protocol::INVALID_REQUEST);
    assert!(s.client_info.is_none());
    assert!(!s.handshake, "garbage is no handshake");
}

#[test]
fn a_current_probe_refuses_discover_so_the_initialize_path_shows() {
    let mut s = session();
    let replies = s.receive(
        json!({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientInfo":{"name":"m","version":"2"}}}}),
    );
    assert_eq!(replies[0]["error"]["code"], protocol::METHOD_NOT_FOUND);
    assert!(!s.handshake);
    s.due(Instant::now());
    assert!(!s.has_outbound(), "no questions before a handshake");
    let replies = s.receive(json!({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"m","version":"2"}}}));
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-11-25");
    assert!(s.handshake);
}

#[test]
fn a_2026_probe_asks_only_while_a_client_request_is_in_flight() {
    let mut settings = Settings::test(Duration::from_millis(50));
    settings.protocol = Protocol::Next;
    let mut s = Session::new(Transport::Stdio, settings);
    let meta = json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientInfo":{"name":"m","version":"2"}});
    let replies = s.receive(
        json!({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":meta}}),
    );
    assert_eq!(replies[0]["result"]["supportedVersions"][0], "2026-07-28");
    assert_eq!(s.client_info, Some(json!({"name":"m","version":"2"})));
    assert_eq!(s.protocol_version.as_deref(), Some(protocol::STATELESS));
    s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":meta}}));
    s.due(Instant::now() + Duration::from_secs(1));
    assert!(
        !s.has_outbound(),
        "no standalone questions, no unsubscribed list_changed"
    );
    // A tool call: the questions go out, its answer is held until they are answered.
    let replies = s.receive(json!({"jsonrpc":"2.0","id":3,"method":"tools/call",
        "params":{"name":"probe_echo","arguments":{},"_meta":meta}}));
    assert!(replies.is_empty() && s.holds());
    let asked = s.drain_outbound();
    assert_eq!(
        asked[0]["method"], "notifications/message",
        "the tool's log first"
    );
    assert_eq!(asked.len(), scenarios::REQUESTS.len() + 1);
    for scenario in scenarios::REQUESTS {
        s.receive(json!({"jsonrpc":"2.0","id":scenario.id,"result":{}}));
    }
    let released = s.drain_outbound();
    assert_eq!((released.len(), &released[0]["id"]), (1, &json!(3)));
    assert!(!s.holds());
}

#[test]
fn a_2026_subscription_gets_list_changed_on_it() {
    let mut settings = Settings::test(Duration::from_millis(50));
    settings.protocol = Protocol::Next;
    let mut s = Session::new(Transport::Stdio, settings);
    let ack = s.receive(
        json!({"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{
        "notifications":{"toolsListChanged":true,"other":true}}}),
    );
    assert_eq!(ack[0]["params"]["_meta"][scenarios::SUBSCRIPTION_ID], "l");
    assert_eq!(
        ack[0]["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
    s.due(Instant::now());
    let sent = s.drain_outbound();
    assert_eq!(sent[0]["params"]["_meta"][scenarios::SUBSCRIPTION_ID], "l");
}

#[test]
fn a_silent_client_reaches_the_idle_limit() {
    let mut settings = Settings::test(Duration::from_millis(50));
    settings.idle = Duration::from_secs(2);
    let s = Session::new(Transport::Stdio, settings);
    assert!(!s.is_idle(Instant::now()));
    assert!(s.is_idle(Instant::now() + Duration::from_secs(2)));
    let now = Instant::now();
    assert!(s.next_deadline(now, Duration::from_secs(60)) <= now + Duration::from_secs(2));
}

fn call(id: u64, token: Option<u64>) -> Value {
    let mut call = json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
        "params":{"name":"probe_echo","arguments":{"text":"x"}}});
    if let Some(token) = token {
        call["params"]["_meta"] = json!({"progressToken": token});
    }
    call
}

fn initialized(settings: Settings, capabilities: Value) -> Session {
    let mut s = Session::new(Transport::Stdio, settings);
    s.receive(
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":capabilities,
        "clientInfo":{"name":"c","version":"1"}}}),
    );
    s
}

#[test]
fn a_tool_call_sends_progress_a_log_and_the_declared_questions_before_its_answer() {
    let mut s = initialized(
        Settings::test(Duration::from_secs(5)),
        json!({"elicitation":{"form":{}}}),
    );
    let replies = s.receive(call(7, Some(70)));
    assert!(replies.is_empty() && s.holds(), "held for the elicitation");
    let sent = s.drain_outbound();
    let methods: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/message",
            "elicitation/create"
        ]
    );
    assert_eq!(sent[0]["params"]["progressToken"], 70);
    assert_eq!(sent[2]["id"], scenarios::CALL_ELICIT_FORM.id);
    s.receive(json!({"jsonrpc":"2.0","id":scenarios::CALL_ELICIT_FORM.id,
        "result":{"action":"decline"}}));
    let answer = s.drain_outbound();
    assert_eq!(answer[0]["id"], 7);
    let result = &answer[0]["result"];
    assert!(result["content"][0]["text"]
        .as_str()
        .is_some_and(|t| t.starts_with(protocol::TEXT_MARK)));
    assert_eq!(
        result["structuredContent"]["part"],
        protocol::STRUCTURED_MARK
    );
}

#[test]
fn without_questions_a_call_is_answered_at_once_after_its_log() {
    let mut s = initialized(Settings::test(Duration::from_secs(5)), json!({}));
    let replies = s.receive(call(3, None));
    assert_eq!(replies.len(), 2);
    assert_eq!(
        (&replies[0]["method"], &replies[1]["id"]),
        (&json!("notifications/message"), &json!(3))
    );
}

#[test]
fn a_delayed_call_cancelled_in_flight_is_never_answered() {
    let mut settings = Settings::test(Duration::from_secs(5));
    settings.tool_delay = Duration::from_secs(30);
    let mut s = initialized(settings, json!({}));
    assert!(s.receive(call(4, None)).is_empty() && s.holds());
    s.drain_outbound();
    s.receive(json!({"jsonrpc":"2.0","method":"notifications/cancelled",
        "params":{"requestId":4,"reason":"user interrupt"}}));
    assert!(!s.holds());
    s.due(Instant::now() + Duration::from_secs(60));
    let later = s.drain_outbound();
    assert!(
        later.iter().all(|m| m["id"] != 4),
        "no answer after the cancel: {later:?}"
    );
    let noted = s.transcript.records().iter().any(
        |r| matches!(&r.entry, Entry::Note { note } if note.starts_with(super::CANCELLED_NOTE)),
    );
    assert!(noted);
}

#[test]
fn each_session_marks_its_instructions_and_tool_result_with_its_own_mark() {
    let (mut a, mut b) = (session(), session());
    assert_ne!(a.mark, b.mark);
    let replies = a.receive(json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}));
    let instructions = replies[0]["result"]["instructions"]
        .as_str()
        .expect("instructions");
    assert_eq!(session_mark::instructed(instructions), vec![a.mark.clone()]);
    init(&mut b);
    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":protocol::TOOL,"arguments":{"text":"hi"}}});
    let result = b.receive(call).pop().expect("a reply")["result"].clone();
    assert_eq!(
        result["structuredContent"]["session"],
        Value::from(b.mark.as_str())
    );
    let text = result["content"][0]["text"].as_str().expect("text");
    assert_eq!(session_mark::found(text), vec![b.mark.clone()]);
}

#[test]
fn a_resource_list_fetched_after_the_first_notice_is_told_again_a_settle_later() {
    let mut s = session();
    init(&mut s);
    s.receive(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
    s.receive(json!({"jsonrpc":"2.0","id":3,"method":"prompts/list"}));
    let later = Instant::now() + Duration::from_secs(1);
    s.due(later);
    let told = |s: &mut Session| -> Vec<Value> {
        (s.drain_outbound().into_iter())
            .filter(|m| {
                m["method"]
                    .as_str()
                    .is_some_and(|m| m.ends_with("list_changed"))
            })
            .map(|m| m["method"].clone())
            .collect()
    };
    assert_eq!(
        told(&mut s).len(),
        3,
        "tools, resources and prompts said to change"
    );
    // The prompts were listed before that: nothing more for them. Resources come later.
    s.receive(json!({"jsonrpc":"2.0","id":4,"method":"resources/list"}));
    assert!(
        s.next_deadline(Instant::now(), Duration::from_secs(60)) < later + Duration::from_secs(1)
    );
    s.due(later + Duration::from_secs(1));
    assert_eq!(
        told(&mut s),
        vec![Value::from(scenarios::RESOURCES_LIST_CHANGED)]
    );
    s.receive(json!({"jsonrpc":"2.0","id":5,"method":"resources/list"}));
    s.due(later + Duration::from_secs(2));
    assert!(told(&mut s).is_empty(), "told once only");
}
