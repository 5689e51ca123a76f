//! Streamable HTTP at `/mcp`: `POST` carries the client's messages (answered as JSON, or as
//! an event stream that first carries the probe's queued requests), `GET` opens the stream
//! the probe sends on between requests, `DELETE` ends the session. `initialize` begins a
//! session (`Mcp-Session-Id`); requests without one (`server/discover`, 2026-07-28
//! stateless requests) share a session per client until an `initialize` takes them over.

use super::body::{self, Body};
use super::{http_event, new_id, plain, read_body, Hub, Live};
use crate::probe::session::{Session, Transport};
use crate::probe::transcript::{self, Entry, Record};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use serde_json::Value;

pub(super) async fn handle(hub: &Hub, request: Request<Incoming>) -> Response<Body> {
    match request.method().as_str() {
        "POST" => post(hub, request).await,
        "GET" => get(hub, &request),
        "DELETE" => delete(hub, &request),
        _ => {
            let status = StatusCode::METHOD_NOT_ALLOWED;
            orphan(hub, http_event(&request, status, "none"));
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

fn orphan(hub: &Hub, http: crate::probe::transcript::HttpEvent) {
    let mut state = hub.lock();
    state.orphans.push(Record {
        t: transcript::now(),
        entry: Entry::Http { http },
    });
    super::bound(&mut state.orphans);
}

/// The shared session of requests without `Mcp-Session-Id` from one client (by User-Agent).
fn sessionless_key(user_agent: Option<&str>) -> String {
    format!("sessionless {}", user_agent.unwrap_or("-"))
}

fn is_initialize(message: &Value) -> bool {
    match message {
        Value::Array(batch) => batch.iter().any(is_initialize),
        one => method_of(one) == Some("initialize"),
    }
}

fn method_of(message: &Value) -> Option<&str> {
    message.get("method").and_then(Value::as_str)
}

async fn post(hub: &Hub, request: Request<Incoming>) -> Response<Body> {
    let session_id = header(&request, "mcp-session-id");
    let user_agent = header(&request, "user-agent");
    let accepts_events =
        header(&request, "accept").is_some_and(|a| a.contains("text/event-stream"));
    let mut event = http_event(&request, StatusCode::OK, "json");
    let body = read_body(request).await;
    let parsed: Option<Value> = body
        .as_ref()
        .ok()
        .and_then(|b| serde_json::from_slice(b).ok());
    let mut state = hub.lock();
    let key = match session_id {
        Some(id) if state.live.contains_key(&id) => id,
        Some(_) => {
            event.status = StatusCode::NOT_FOUND.as_u16();
            event.stream = "none".into();
            state.orphans.push(Record {
                t: transcript::now(),
                entry: Entry::Http { http: event },
            });
            return plain(StatusCode::NOT_FOUND, "no such session: initialize again");
        }
        None if parsed.as_ref().is_some_and(is_initialize) => {
            let id = new_id();
            let mut session = Session::new(Transport::StreamableHttp, hub.quiet);
            let mut earlier = std::mem::take(&mut state.orphans);
            if let Some(mut before) = state.live.remove(&sessionless_key(user_agent.as_deref())) {
                earlier.extend(before.session.transcript.take());
            }
            session.transcript.absorb(earlier);
            state.live.insert(id.clone(), Live::new(session));
            id
        }
        None => {
            let key = sessionless_key(user_agent.as_deref());
            if !state.live.contains_key(&key) {
                let mut session = Session::new(Transport::StreamableHttp, hub.quiet);
                session
                    .transcript
                    .absorb(std::mem::take(&mut state.orphans));
                state.live.insert(key.clone(), Live::new(session));
            }
            key
        }
    };
    let stateful = !key.starts_with("sessionless ");
    let live = state
        .live
        .get_mut(&key)
        .expect("the session was just found or made");
    let at = live.session.transcript.len();
    let (status, replies) = match &body {
        Err(why) => {
            live.session.note(why.clone());
            (StatusCode::PAYLOAD_TOO_LARGE, Vec::new())
        }
        Ok(bytes) => {
            let replies = live.session.receive_bytes(bytes);
            match (&parsed, replies.is_empty()) {
                (None, _) => (StatusCode::BAD_REQUEST, replies),
                (Some(_), true) => (StatusCode::ACCEPTED, replies),
                (Some(_), false) => (StatusCode::OK, replies),
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
        // Requests queued for the client ride ahead of the reply, unless a GET stream is open.
        if live.stream.is_none() {
            for message in live.session.drain_outbound() {
                let _ = sender.send(body::event(Some("message"), &message.to_string()));
            }
        }
        for reply in &replies {
            let _ = sender.send(body::event(Some("message"), &reply.to_string()));
        }
        // A 2026-07-28 subscription stays open: later notifications come on it.
        if parsed
            .as_ref()
            .is_some_and(|m| method_of(m) == Some("subscriptions/listen"))
        {
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

fn get(hub: &Hub, request: &Request<Incoming>) -> Response<Body> {
    let session_id = header(request, "mcp-session-id");
    let accepts_events = header(request, "accept").is_some_and(|a| a.contains("text/event-stream"));
    let mut state = hub.lock();
    let refuse = |status: StatusCode, state: &mut super::State, why: &str| {
        state.orphans.push(Record {
            t: transcript::now(),
            entry: Entry::Http {
                http: http_event(request, status, "none"),
            },
        });
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

fn delete(hub: &Hub, request: &Request<Incoming>) -> Response<Body> {
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
            state.orphans.push(Record {
                t: transcript::now(),
                entry: Entry::Http {
                    http: http_event(request, StatusCode::NOT_FOUND, "none"),
                },
            });
            plain(StatusCode::NOT_FOUND, "no such session")
        }
    }
}
