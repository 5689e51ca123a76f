//! The rules of a tool call: whether the client called the probe's tool (and as a task, where
//! the probe offered that), what its model was shown of the result (read from the scripted
//! model's lines, `fieldnotes probe model`), and whether, when and why it cancelled a request.

use super::facts::{Facts, Message};
use super::{finding, Basis, Finding, Status};
use crate::probe::protocol::TOOL;
use crate::probe::session::CANCELLED_NOTE;
use crate::probe::tasks;
use serde_json::Value;

/// The client's `tools/call` of the probe's tool.
fn probe_call<'f, 'a>(facts: &'f Facts<'a>) -> Option<&'f Message<'a>> {
    facts
        .sent_by_client("tools/call")
        .find(|m| m.is_request() && m.msg.pointer("/params/name") == Some(&Value::from(TOOL)))
}

/// `tools.call`: yes when the client called the probe's tool (with what came back);
/// unknown when it called none (a model may never have asked).
pub(super) fn tool_call(facts: &Facts) -> Option<Finding> {
    let Some(call) = probe_call(facts) else {
        let calls =
            || (facts.model.iter()).filter(|(_, m)| m.get("step") == Some(&Value::from("call")));
        let called = |m: &Value| m.get("called").and_then(Value::as_str).map(str::to_string);
        // The scripted model may have been told to call another tool (`--tool`).
        let probe = calls().find(|(_, m)| called(m).is_none_or(|c| c.ends_with(TOOL)));
        return match (probe, calls().next()) {
            (Some((line, _)), _) => finding(
                Status::Unknown,
                Basis::Absent,
                format!("its model asked for {TOOL}, but the client sent no tools/call"),
                vec![*line],
            ),
            (None, Some((line, m))) => finding(
                Status::Unknown,
                Basis::Absent,
                format!(
                    "its model asked for {}, not {TOOL}: no call of the probe's tool to judge",
                    called(m).unwrap_or_default()
                ),
                vec![*line],
            ),
            (None, None) => finding(
                Status::Unknown,
                Basis::Absent,
                "did not send tools/call in this session",
                vec![],
            ),
        };
    };
    let mut lines = vec![call.line];
    let reply = facts.reply_to(call);
    lines.extend(reply.map(|r| r.line));
    let why = match reply {
        Some(_) => format!("called {TOOL} (tools/call) and was answered"),
        None => format!("called {TOOL} (tools/call); it was not answered"),
    };
    finding(Status::Yes, Basis::Did, why, lines)
}

/// `tasks.toolCalls`, judged only where the probe's `initialize` answer offered its tool as a
/// task (`tasks.requests.tools.call`, at 2025-11-25): yes when the client called it with `task`
/// and then fetched the result (`tasks/result`), partial when it never fetched it, unknown
/// when it called the tool without `task`, which the tool's `optional` task support allows.
pub(super) fn task_call(facts: &Facts) -> Option<Finding> {
    let init = facts.initialize()?;
    let offer = "/result/capabilities/tasks/requests/tools/call";
    facts.reply_to(init)?.msg.pointer(offer)?;
    let plain = probe_call(facts)?;
    let as_task = |m: &&Message| m.is_request() && tasks::asked(m.msg.get("params"));
    let Some(call) = facts.sent_by_client("tools/call").find(as_task) else {
        return finding(
            Status::Unknown,
            Basis::Absent,
            format!("called {TOOL} without `task`, which the tool allows: no task call to judge"),
            vec![plain.line],
        );
    };
    let after =
        |method| (facts.sent_by_client(method)).find(|m| m.is_request() && m.line > call.line);
    let (polled, fetched) = (after("tasks/get"), after("tasks/result"));
    let mut lines = vec![call.line];
    lines.extend(polled.iter().chain(fetched.iter()).map(|m| m.line));
    let polled = if polled.is_some() {
        ", polled it (tasks/get)"
    } else {
        ""
    };
    let (status, then) = match fetched {
        Some(_) => (Status::Yes, "and fetched its result (tasks/result)"),
        None => (
            Status::Partial,
            "but never fetched its result (tasks/result)",
        ),
    };
    let why = format!("called {TOOL} as a task (tools/call with `task`){polled} {then}");
    finding(status, Basis::Did, why, lines)
}

/// `tools.structuredOutput`: what of the probe's result (text and `structuredContent`,
/// each marked) the client passed its model, as the scripted model saw it. Only a result
/// of this session's own call counts: one that carries the session's mark, or, in a
/// transcript made before sessions were marked, any, if this session called the tool.
pub(super) fn structured_output(facts: &Facts) -> Option<Finding> {
    let call = probe_call(facts)?;
    let ours = |r: &Value| match &facts.mark {
        Some(mark) => r.get("session").and_then(Value::as_str) == Some(mark.as_str()),
        None => true,
    };
    let (line, shown) = facts.model.iter().rev().find_map(|(line, m)| {
        let results = m.get("toolResults")?.as_array()?;
        let shown = (results.iter().filter(|r| ours(r)))
            .filter_map(|r| r.get("shown")?.as_str())
            .rfind(|s| *s != "neither")?;
        Some((*line, shown))
    })?;
    let mut lines = vec![line, call.line];
    lines.extend(facts.reply_to(call).map(|r| r.line));
    let (status, why) = match shown {
        "structuredContent" => (
            Status::Yes,
            "passed its model only the structuredContent of the tool result, not its text",
        ),
        "both" => (
            Status::Yes,
            "passed its model both the structuredContent and the text of the tool result",
        ),
        _ => (
            Status::Partial,
            "took the result with structuredContent but passed its model only the text",
        ),
    };
    finding(status, Basis::Did, why, lines)
}

/// `core.cancellation`: the client's `notifications/cancelled`, with its reason, and
/// whether it came while the request was in flight or after it was answered.
pub(super) fn cancellation<'a>(facts: &Facts<'a>) -> Option<Finding> {
    // A cancelled tool call speaks before other cancelled requests (a list, a ping).
    let target_of = |m: &Message<'a>| m.msg.pointer("/params/requestId");
    let is_call = |cancel: &Message<'a>| {
        (facts.sent_by_client("tools/call"))
            .any(|c| c.is_request() && c.id() == target_of(cancel) && c.line < cancel.line)
    };
    let cancel = (facts
        .sent_by_client("notifications/cancelled")
        .find(|m| is_call(m)))
    .or_else(|| facts.sent_by_client("notifications/cancelled").next())?;
    let params = cancel.msg.get("params");
    let target = params.and_then(|p| p.get("requestId"));
    let reason = match params.and_then(|p| p.get("reason")).and_then(Value::as_str) {
        Some(reason) => format!("reason \"{reason}\""),
        None => "no reason".to_string(),
    };
    let request = facts
        .messages
        .iter()
        .find(|m| m.incoming && m.is_request() && m.id() == target && m.line < cancel.line);
    let answered = request
        .and_then(|r| facts.reply_to(r))
        .filter(|r| r.line < cancel.line);
    let mut lines = vec![cancel.line];
    lines.extend(request.map(|r| r.line));
    lines.extend(answered.map(|r| r.line));
    let what = request.and_then(Message::method).unwrap_or("a request");
    let when = match answered {
        Some(_) => "after it had the result",
        None => "while it was in flight",
    };
    if answered.is_none() {
        let note = (facts.notes.iter()).find(|(_, n)| n.starts_with(CANCELLED_NOTE));
        lines.extend(note.map(|(line, _)| *line));
    }
    finding(
        Status::Yes,
        Basis::Did,
        format!("sent notifications/cancelled for its {what} {when}, {reason}"),
        lines,
    )
}

/// `core.instructions`: whether the server's instructions (marked) reached the client's
/// model, as the scripted model saw the requests that offered it tools: yes when one held
/// them, no when the model was asked with tools and none did; left out with no model lines.
/// Where sessions are marked, only this session's instructions count, and a model shown
/// only another session's decides nothing.
pub(super) fn instructions(facts: &Facts) -> Option<Finding> {
    let held = |m: &Value| {
        let marked = m.get("instructions").and_then(Value::as_bool) == Some(true);
        match (
            &facts.mark,
            m.get("instructionsFor").and_then(Value::as_array),
        ) {
            (Some(mark), Some(whose)) => whose.iter().any(|w| w.as_str() == Some(mark.as_str())),
            // Unattributed: an old transcript, or instructions cut before their session mark.
            _ => marked,
        }
    };
    let asked: Vec<(usize, bool)> = (facts.model.iter())
        .filter(|(_, m)| m.get("instructions").is_some())
        .map(|(line, m)| (*line, held(m)))
        .collect();
    if let Some((line, _)) = asked.iter().find(|(_, seen)| *seen) {
        let why = "passed the server's instructions to its model".to_string();
        return finding(Status::Yes, Basis::Did, why, vec![*line]);
    }
    // Instructions, but another session's (an earlier session of this server whose words
    // the client kept, or another server's): whether this session's would reach the model
    // is not shown.
    let others =
        (facts.model.iter()).any(|(_, m)| m.get("instructions") == Some(&Value::Bool(true)));
    if facts.mark.is_some() && (others || facts.others_left_out()) {
        return None;
    }
    let (first, _) = asked.first()?;
    let why = format!(
        "asked its model {} time(s) with tools offered; the server's instructions were in none",
        asked.len()
    );
    finding(Status::No, Basis::Absent, why, vec![*first])
}
