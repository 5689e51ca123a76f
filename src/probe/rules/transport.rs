//! The rules of the transport: which one the session used (and a fallback to legacy SSE),
//! and whether the client's HTTP requests carry a header.

use super::facts::{Facts, Message};
use super::{finding, Basis, Finding, Status};
use crate::probe::scenarios::EXPIRED_NOTE;
use crate::probe::session::Transport;

/// The transport the session used: yes from the client's first request there (legacy SSE:
/// from the `GET` that opened the stream and the first message after it, never from a
/// refused POST). A legacy session that began with a refused POST shows Streamable HTTP was
/// tried first.
pub(super) fn used_transport(facts: &Facts, transport: Transport) -> Option<Finding> {
    if facts.transport == transport {
        if transport == Transport::Sse {
            let (opened, _) = facts
                .http
                .iter()
                .find(|(_, h)| h.method == "GET" && h.status == 200 && h.stream == "sse")?;
            let first = facts
                .messages
                .iter()
                .find(|m| m.incoming && m.is_request() && m.line > *opened)?;
            return finding(
                Status::Yes,
                Basis::Did,
                "opened the SSE stream and posted its requests to the endpoint it named",
                vec![*opened, first.line],
            );
        }
        let first = facts
            .messages
            .iter()
            .find(|m| m.incoming && m.is_request())?;
        return finding(
            Status::Yes,
            Basis::Did,
            format!("connected over {}", transport.id()),
            vec![first.line],
        );
    }
    if (facts.transport, transport) == (Transport::Sse, Transport::StreamableHttp) {
        let (line, refused) = facts
            .http
            .iter()
            .find(|(_, h)| h.method == "POST" && matches!(h.status, 404 | 405))?;
        return finding(
            Status::Yes,
            Basis::Did,
            format!(
                "tried Streamable HTTP first (POST {} answered {}), then fell back to SSE",
                refused.path, refused.status
            ),
            vec![*line],
        );
    }
    None
}

/// Whether the client's HTTP requests after `initialize` carry `name`: yes on all, partial
/// on some, no on none. Streamable HTTP only (legacy SSE has no such headers). With
/// `posted_requests`, only POSTs whose body was a request or notification count.
pub(super) fn header(
    facts: &Facts,
    name: &str,
    stateful: bool,
    posted_requests: bool,
) -> Option<Finding> {
    if facts.transport != Transport::StreamableHttp || (stateful && facts.initialize().is_none()) {
        return None;
    }
    let after = facts.initialize().map_or(0, |m: &Message| m.line);
    // A 2026-07-28 request (`server/discover`, or one with `_meta`) among a session's
    // (a client that begins again after the probe ended its session tries discovery first).
    let of_2026 = |line: usize| {
        carried(facts, line).any(|m| {
            m.method() == Some("server/discover")
                || crate::probe::protocol::meta_version(m.msg.get("params")).is_some()
        })
    };
    let carries_request = |line: usize| carried(facts, line).any(|m| m.method().is_some());
    // A POST that begins a session has none yet: no session header is due on it, nor (on
    // `initialize`) a protocol version. That is `initialize`, and for the session id also a
    // 2026-07-28 `server/discover` tried first (as after the probe ended a session). The
    // standard headers are due on every POSTed request, these too.
    let begins = |line: usize| {
        !posted_requests
            && carried(facts, line).any(|m| {
                m.method() == Some("initialize")
                    || stateful && m.method() == Some("server/discover")
            })
    };
    let requests: Vec<(usize, bool)> = facts
        .http
        .iter()
        .filter(|(line, h)| *line > after && matches!(h.method.as_str(), "POST" | "GET" | "DELETE"))
        .filter(|(line, _)| !begins(*line))
        .filter(|(line, h)| !posted_requests || (h.method == "POST" && carries_request(*line)))
        .map(|(line, h)| (*line, h.headers.contains_key(name)))
        .collect();
    // The standard headers belong to 2026-07-28: where a session begun with `initialize` also
    // holds requests of that revision, those alone are judged.
    let mixed = posted_requests
        && facts.initialize().is_some()
        && requests.iter().any(|(line, _)| of_2026(*line));
    let requests: Vec<(usize, bool)> = match mixed {
        true => requests
            .into_iter()
            .filter(|(line, _)| of_2026(*line))
            .collect(),
        false => requests,
    };
    if requests.is_empty() {
        return None;
    }
    // The standard headers (`Mcp-Method`, 2026-07-28) are no part of a session begun with
    // `initialize`: their absence there shows nothing.
    if posted_requests && facts.initialize().is_some() && requests.iter().all(|(_, has)| !*has) {
        return None;
    }
    let with: Vec<usize> = requests
        .iter()
        .filter(|(_, has)| *has)
        .map(|(l, _)| *l)
        .collect();
    let without: Vec<usize> = requests
        .iter()
        .filter(|(_, has)| !*has)
        .map(|(l, _)| *l)
        .collect();
    let what = if posted_requests {
        "POSTed requests"
    } else {
        "requests"
    };
    let scope = if after > 0 { " after initialize" } else { "" };
    match (with.is_empty(), without.is_empty()) {
        (false, true) => finding(
            Status::Yes,
            Basis::Did,
            format!("sent {name} on every one of its {what}{scope}"),
            with,
        ),
        (true, false) => finding(
            Status::No,
            Basis::Absent,
            format!("sent no {name} on its {what}{scope}"),
            without,
        ),
        _ => finding(
            Status::Partial,
            Basis::Did,
            format!(
                "sent {name} on {} of {} {what}{scope}",
                with.len(),
                requests.len()
            ),
            without,
        ),
    }
}

/// The client's messages an HTTP request at `line` carried (the transcript's next line).
fn carried<'f, 'a>(facts: &'f Facts<'a>, line: usize) -> impl Iterator<Item = &'f Message<'a>> {
    (facts.messages.iter()).filter(move |m| m.line == line + 1 && m.incoming)
}

/// How a why begins where the probe ended the session.
const ENDED: &str = "when the probe ended its session (HTTP 404 to a tools/call)";

/// `transports.sessions`: the session id on every request after `initialize` ([`header`]),
/// and, where the probe ended the session (`--mode expire-session`: a `tools/call` answered
/// 404), whether the client began a new one with `initialize`, as the protocol requires, and
/// sent its call again.
pub(super) fn sessions(facts: &Facts) -> Option<Finding> {
    let kept = header(facts, "mcp-session-id", true, false);
    let Some(&(ended, _)) = (facts.notes.iter()).find(|(_, note)| *note == EXPIRED_NOTE) else {
        return kept;
    };
    let again = (facts.sent_by_client("initialize")).find(|m| m.is_request() && m.line > ended);
    let Some(again) = again else {
        // Requests still on the ended session (each answered 404) show it kept to it.
        let stale: Vec<usize> = (facts.http.iter())
            .filter(|(line, h)| *line > ended && h.status == 404)
            .map(|(line, _)| *line)
            .collect();
        if stale.is_empty() {
            let why = format!(
                "{ENDED}, no new initialize followed in this record (the client may have \
                 stopped, or begun it on a connection the probe could not tie to this one)"
            );
            return finding(Status::Unknown, Basis::Absent, why, vec![ended]);
        }
        let why = format!(
            "{ENDED}, it sent {} more request(s) on that session (each answered 404) and no \
             new initialize",
            stale.len()
        );
        return finding(
            Status::Partial,
            Basis::Did,
            why,
            [vec![ended], stale].concat(),
        );
    };
    let recall =
        (facts.sent_by_client("tools/call")).find(|m| m.is_request() && m.line > again.line);
    let then = match recall {
        Some(_) => "and sent its tools/call again there",
        None => {
            "(no tools/call followed on it; a call sent again on yet another session shows there)"
        }
    };
    let began = format!("{ENDED}, it began a new one with initialize {then}");
    let mut lines = vec![ended, again.line];
    lines.extend(recall.map(|m| m.line));
    match kept {
        Some(mut kept) => {
            kept.why = format!("{}; {began}", kept.why);
            kept.messages.extend(lines);
            Some(kept)
        }
        None => finding(Status::Yes, Basis::Did, began, lines),
    }
}
