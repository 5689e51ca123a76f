//! Streamable HTTP at `/mcp`: `POST` carries the client's messages (answered as JSON, or as
//! an event stream that first carries the probe's queued requests), `GET` opens the stream
//! the probe sends on between requests, `DELETE` ends the session. `initialize` begins a
//! session (`Mcp-Session-Id`). Requests without one: a current probe refuses them as a
//! 2025-11-25 server does (400) and keeps them with the connection's attempts; a 2026-07-28
//! probe answers them in one session per connection until an `initialize` takes it over.

use super::body::{self, Body};
use super::{http_event, new_id, plain, read_body, user_agent, HttpMode, Hub, Live, State};
use crate::probe::scenarios::EXPIRED_NOTE;
use crate::probe::session::Transport;
use crate::probe::settings::Protocol;
use crate::probe::transcript::{Entry, HttpEvent};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use serde_json::Value;
use std::net::SocketAddr;

pub(super) async fn handle(
    hub: &Hub,
    peer: SocketAddr,
    request: Request<Incoming>,
) -> Response<Body> {
    match request.method().as_str() {
        "POST" => post(hub, peer, request).await,
        "GET" => get(hub, peer, &request),
        "DELETE" => delete(hub, peer, &request),
        _ => {
            let status = StatusCode::METHOD_NOT_ALLOWED;
            let http = http_event(&request, status, "none");
            hub.attempt(peer, user_agent(&request).as_deref(), Entry::Http { http });
            plain(status, "POST, GET or DELETE")
        }
    }
}

fn header(request: &Request<impl Sized>, name: &str) -> Option<String> {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The session of one connection's requests without `Mcp-Session-Id` (2026-07-28).
fn sessionless_key(peer: SocketAddr) -> String {
    format!("sessionless {peer}")
}

/// How soon after the last request of a stateless session another connection of its client
/// may join it.
const JOIN_WINDOW: std::time::Duration = std::time::Duration::from_secs(5);

/// The session a 2026-07-28 request without a session belongs to, if one exists: its
/// connection's, or the one it joined. A client process begins with `server/discover`, then
/// may use several connections at once (one held by `subscriptions/listen`): a connection
/// whose first request is not `server/discover` joins the newest session of the same
/// User-Agent that has its stream open or was heard within [`JOIN_WINDOW`]. Another process
/// begins with its own `server/discover`, so it is never merged into the first.
fn sessionless(
    state: &mut super::State,
    peer: SocketAddr,
    user_agent: Option<&str>,
    discover: bool,
) -> Option<String> {
    let own = sessionless_key(peer);
    if let Some(key) = state
        .joined
        .get(&own)
        .filter(|k| state.live.contains_key(*k))
    {
        return Some(key.clone());
    }
    if state.live.contains_key(&own) {
        return Some(own);
    }
    if discover || user_agent.is_none() {
        return None;
    }
    let now = std::time::Instant::now();
    let key = (state.live.iter())
        .filter(|(k, l)| {
            k.starts_with("sessionless ")
                && !l.ended
                && l.user_agent.as_deref() == user_agent
                && (l.stream.is_some() || now.duration_since(l.session.last_heard) <= JOIN_WINDOW)
        })
        .max_by_key(|(_, l)| l.session.last_heard)
        .map(|(k, _)| k.clone())?;
    if state.joined.len() >= 1024 {
        state.joined.clear();
    }
    state.joined.insert(own, key.clone());
    Some(key)
}

fn is_initialize(message: &Value) -> bool {
    match message {
        Value::Array(batch) => batch.iter().any(is_initialize),
        one => method_of(one) == Some("initialize"),
    }
}

/// Whether a message (or a batch member) carries 2026-07-28 `_meta`.
fn has_meta(message: &Value) -> bool {
    match message {
        Value::Array(batch) => batch.iter().any(has_meta),
        one => crate::probe::protocol::meta_version(one.get("params")).is_some(),
    }
}

/// Whether a body holds only answers (results or errors, no method): a client's replies to the
/// probe's own requests, which carry no `_meta` under 2026-07-28 either.
fn answers_only(message: &Value) -> bool {
    match message {
        Value::Array(batch) => !batch.is_empty() && batch.iter().all(answers_only),
        one => {
            method_of(one).is_none()
                && one.get("id").is_some()
                && (one.get("result").is_some() || one.get("error").is_some())
        }
    }
}

/// Whether `message` is a `tools/call` request.
fn is_tool_call(message: &Value) -> bool {
    method_of(message) == Some("tools/call") && message.get("id").is_some()
}

/// `--mode expire-session`: the session's first `tools/call` is answered 404, as a server
/// that expired the session answers, and the session ends; its lines wait as the
/// connection's attempt for the session the client begins next ([`Attempts::adopt`]).
///
/// [`Attempts::adopt`]: super::attempts::Attempts::adopt
fn expire(
    hub: &Hub,
    state: &mut State,
    key: &str,
    peer: SocketAddr,
    user_agent: Option<&str>,
    mut event: HttpEvent,
    message: Option<Value>,
) -> Response<Body> {
    state.expired = true;
    let Some(live) = state.live.remove(key) else {
        return plain(StatusCode::NOT_FOUND, "no such session: initialize again");
    };
    let mut session = live.session;
    event.status = StatusCode::NOT_FOUND.as_u16();
    event.stream = "none".into();
    session.transcript.push(Entry::Http { http: event });
    if let Some(msg) = message {
        session.transcript.push(Entry::In { msg });
    }
    session.note(EXPIRED_NOTE);
    session.dirty = true;
    state.attempts.adopt(hub, peer, user_agent, session);
    plain(StatusCode::NOT_FOUND, "session expired: initialize again")
}

fn method_of(message: &Value) -> Option<&str> {
    message.get("method").and_then(Value::as_str)
}

/// What a stateful 2025-11-25 server (the TypeScript SDK's) answers a request without a
/// session that is not `initialize`: 400, and a JSON-RPC error without an id.
fn not_initialized() -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32000, "message": "Bad Request: Server not initialized"}})
}

async fn post(hub: &Hub, peer: SocketAddr, request: Request<Incoming>) -> Response<Body> {
    let session_id = header(&request, "mcp-session-id");
    let user_agent = user_agent(&request);
    let accepts_events =
        header(&request, "accept").is_some_and(|a| a.contains("text/event-stream"));
    let mut event = http_event(&request, StatusCode::OK, "json");
    let body = read_body(request).await;
    let parsed: Option<Value> = body
        .as_ref()
        .ok()
        .and_then(|b| serde_json::from_slice(b).ok());
    let mut state = hub.lock();
    let current = hub.settings.protocol == Protocol::Current;
    // A 2026-07-28 client's answers to what the probe asked: the stateless session of its
    // connection (or the one that connection joins), not a refused attempt of its own.
    let answering = match (&session_id, &parsed) {
        (None, Some(message)) if !current && answers_only(message) => {
            sessionless(&mut state, peer, user_agent.as_deref(), false)
        }
        _ => None,
    };
    let key = match session_id {
        Some(id) if state.live.contains_key(&id) => id,
        Some(_) => {
            event.status = StatusCode::NOT_FOUND.as_u16();
            event.stream = "none".into();
            let attempt = state.attempts.of(hub, peer, user_agent.as_deref());
            attempt.transcript.push(Entry::Http { http: event });
            // What the client sent on a session the probe does not know (one it ended, say).
            if let Some(msg) = parsed {
                attempt.transcript.push(Entry::In { msg });
            }
            attempt.dirty = true;
            return plain(StatusCode::NOT_FOUND, "no such session: initialize again");
        }
        None if parsed.as_ref().is_some_and(is_initialize) => {
            let id = new_id();
            let transport = Transport::StreamableHttp;
            let mut session = match hub.begin(
                &mut state,
                peer,
                user_agent.as_deref(),
                transport,
                event.clone(),
            ) {
                Ok(session) => session,
                Err(refused) => return *refused,
            };
            if let Some(mut before) = state.live.remove(&sessionless_key(peer)) {
                let mut earlier = before.session.transcript.take();
                earlier.extend(session.transcript.take());
                session.transcript.absorb(earlier);
            }
            state.live.insert(id.clone(), Live::new(session));
            id
        }
        None if answering.is_some() => answering.unwrap_or_default(),
        // A current server has no session for this (nor a 2026-07-28 one for a request without
        // `_meta`): refused as a stateful 2025-11-25 server refuses it, recorded under the
        // connection's attempts.
        None if current || !parsed.as_ref().is_some_and(has_meta) => {
            let status = if body.is_err() {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            };
            event.status = status.as_u16();
            let refusal = not_initialized();
            let attempt = state.attempts.of(hub, peer, user_agent.as_deref());
            attempt.transcript.push(Entry::Http { http: event });
            match (&parsed, &body) {
                (Some(message), _) => {
                    attempt.transcript.push(Entry::In {
                        msg: message.clone(),
                    });
                }
                (None, Ok(bytes)) => attempt.note(format!(
                    "unparseable body: {}",
                    crate::probe::transcript::quote(bytes)
                )),
                (None, Err(why)) => attempt.note(why.clone()),
            }
            attempt.transcript.push(Entry::Out {
                msg: refusal.clone(),
            });
            attempt.dirty = true;
            let mut response = Response::new(Body::text(refusal.to_string()));
            *response.status_mut() = status;
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            return response;
        }
        None => {
            let discover = parsed.as_ref().and_then(method_of) == Some("server/discover");
            match sessionless(&mut state, peer, user_agent.as_deref(), discover) {
                Some(key) => key,
                None => {
                    let key = sessionless_key(peer);
                    let transport = Transport::StreamableHttp;
                    let agent = user_agent.as_deref();
                    let session = match hub.begin(&mut state, peer, agent, transport, event.clone())
                    {
                        Ok(session) => session,
                        Err(refused) => return *refused,
                    };
                    let mut live = Live::new(session);
                    live.user_agent = user_agent.clone();
                    state.live.insert(key.clone(), live);
                    key
                }
            }
        }
    };
    let stateful = !key.starts_with("sessionless ");
    let expires = hub.listen.mode == HttpMode::ExpireSession
        && stateful
        && !state.expired
        && parsed.as_ref().is_some_and(is_tool_call);
    if expires {
        return expire(
            hub,
            &mut state,
            &key,
            peer,
            user_agent.as_deref(),
            event,
            parsed,
        );
    }
    let live = state
        .live
        .get_mut(&key)
        .expect("the session was just found or made");
    let at = live.session.transcript.len();
    live.session.can_hold = accepts_events;
    let (status, replies) = match &body {
        Err(why) => {
            live.session.note(why.clone());
            (StatusCode::PAYLOAD_TOO_LARGE, Vec::new())
        }
        Ok(bytes) => {
            let replies = live.session.receive_bytes(bytes);
            live.session.due(std::time::Instant::now());
            let held = live.session.holds() && !live.in_flight;
            match (&parsed, replies.is_empty()) {
                (None, _) => (StatusCode::BAD_REQUEST, replies),
                (Some(_), true) if !held => (StatusCode::ACCEPTED, replies),
                (Some(_), _) => (StatusCode::OK, replies),
            }
        }
    };
    let events = status == StatusCode::OK && accepts_events;
    event.status = status.as_u16();
    event.stream = if events {
        "sse"
    } else if replies.is_empty() {
        "none"
    } else {
        "json"
    }
    .into();
    live.session
        .transcript
        .insert(at, Entry::Http { http: event });
    let mut response = if events {
        let (sender, body) = Body::events();
        // Requests queued for the client ride ahead of the reply, unless a GET stream is open
        // (or the queue is for a request in flight on another stream).
        if live.stream.is_none() || live.session.holds() && !live.in_flight {
            for message in live.session.drain_outbound() {
                let _ = sender.send(body::event(Some("message"), &message.to_string()));
            }
        }
        for reply in &replies {
            let _ = sender.send(body::event(Some("message"), &reply.to_string()));
        }
        if live.session.holds() && !live.in_flight {
            // 2026-07-28: the questions went out on this request's stream; its answer follows
            // on it once they are answered, then the stream ends.
            live.stream = Some(sender);
            live.in_flight = true;
        } else if parsed
            .as_ref()
            .is_some_and(|m| method_of(m) == Some("subscriptions/listen"))
        {
            // A 2026-07-28 subscription stays open: later notifications come on it.
            live.stream = Some(sender);
        }
        let mut response = Response::new(body);
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        response
    } else if let [reply] = replies.as_slice() {
        let mut response = Response::new(Body::text(reply.to_string()));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    } else {
        Response::new(Body::empty())
    };
    *response.status_mut() = status;
    if stateful && parsed.as_ref().is_some_and(is_initialize) {
        if let Ok(value) = HeaderValue::from_str(&key) {
            response.headers_mut().insert("mcp-session-id", value);
        }
    }
    response
}

fn get(hub: &Hub, peer: SocketAddr, request: &Request<Incoming>) -> Response<Body> {
    let session_id = header(request, "mcp-session-id");
    let accepts_events = header(request, "accept").is_some_and(|a| a.contains("text/event-stream"));
    let agent = user_agent(request);
    let mut state = hub.lock();
    // Recorded and written like a refused POST: a client that only GETs (a legacy SSE client
    // given the Streamable HTTP URL) and gives up still leaves an observation saying so.
    let refuse = |status: StatusCode, state: &mut super::State, why: &str| {
        let http = http_event(request, status, "none");
        let attempt = state.attempts.of(hub, peer, agent.as_deref());
        attempt.transcript.push(Entry::Http { http });
        attempt.dirty = true;
        plain(status, why.to_string())
    };
    let Some(live) = session_id.as_ref().and_then(|id| state.live.get_mut(id)) else {
        return match session_id {
            None => refuse(
                StatusCode::BAD_REQUEST,
                &mut state,
                "GET needs an Mcp-Session-Id",
            ),
            Some(_) => refuse(StatusCode::NOT_FOUND, &mut state, "no such session"),
        };
    };
    if !accepts_events {
        live.session.transcript.push(Entry::Http {
            http: http_event(request, StatusCode::NOT_ACCEPTABLE, "none"),
        });
        return plain(
            StatusCode::NOT_ACCEPTABLE,
            "GET needs Accept: text/event-stream",
        );
    }
    let reconnect = live.stream.is_some();
    live.session.transcript.push(Entry::Http {
        http: http_event(request, StatusCode::OK, "sse"),
    });
    if reconnect {
        live.session.note("a second GET stream replaces the first");
    }
    live.session.dirty = true;
    let (sender, body) = Body::events();
    live.stream = Some(sender);
    live.flush();
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response
}

fn delete(hub: &Hub, peer: SocketAddr, request: &Request<Incoming>) -> Response<Body> {
    let session_id = header(request, "mcp-session-id");
    let mut state = hub.lock();
    match session_id.as_ref().and_then(|id| state.live.get_mut(id)) {
        Some(live) => {
            live.session.transcript.push(Entry::Http {
                http: http_event(request, StatusCode::OK, "none"),
            });
            live.session.note("the client ended the session (DELETE)");
            live.ended = true;
            plain(StatusCode::OK, "")
        }
        None => {
            let http = http_event(request, StatusCode::NOT_FOUND, "none");
            let agent = user_agent(request);
            (state.attempts).push(hub, peer, agent.as_deref(), Entry::Http { http });
            plain(StatusCode::NOT_FOUND, "no such session")
        }
    }
}
