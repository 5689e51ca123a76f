//! The legacy HTTP+SSE transport (2024-11-05): `GET /sse` opens a stream whose first event,
//! `endpoint`, names the URL to `POST` messages to; every reply comes on the stream. One
//! session per stream, ended when the client closes it.

use super::body::{self, Body};
use super::{http_event, new_id, plain, read_body, user_agent, Hub, Live};
use crate::probe::session::Transport;
use crate::probe::transcript::Entry;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};

/// The path the `endpoint` event names.
const MESSAGES: &str = "/messages";

/// `GET /sse`: a new session and its stream; it takes the requests refused before on its
/// connection (or from its User-Agent just before).
pub(super) fn open(
    hub: &Hub,
    peer: std::net::SocketAddr,
    request: &Request<Incoming>,
) -> Response<Body> {
    let id = new_id();
    let mut state = hub.lock();
    let user_agent = user_agent(request);
    let event = http_event(request, StatusCode::OK, "sse");
    let mut session = match hub.begin(
        &mut state,
        peer,
        user_agent.as_deref(),
        Transport::Sse,
        event,
    ) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    session.transcript.push(Entry::Http {
        http: http_event(request, StatusCode::OK, "sse"),
    });
    let endpoint = format!("{MESSAGES}?sessionId={id}");
    session.note(format!("sent the endpoint event: {endpoint}"));
    let (sender, body) = Body::events();
    let _ = sender.send(body::event(Some("endpoint"), &endpoint));
    let mut live = Live::new(session);
    live.stream = Some(sender);
    live.ends_with_stream = true;
    state.live.insert(id, live);
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response
}

/// `POST /messages?sessionId=…`: the message is answered on the session's stream.
pub(super) async fn post(
    hub: &Hub,
    peer: std::net::SocketAddr,
    request: Request<Incoming>,
) -> Response<Body> {
    let id = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("sessionId=")))
        .map(str::to_string);
    let event = http_event(&request, StatusCode::ACCEPTED, "none");
    let user_agent = user_agent(&request);
    let body = read_body(request).await;
    let mut state = hub.lock();
    let Some(live) = id.as_ref().and_then(|id| state.live.get_mut(id)) else {
        let mut event = event;
        event.status = StatusCode::NOT_FOUND.as_u16();
        state.attempts.push(
            hub,
            peer,
            user_agent.as_deref(),
            Entry::Http { http: event },
        );
        return plain(StatusCode::NOT_FOUND, "no such session: GET /sse first");
    };
    let at = live.session.transcript.len();
    let (status, replies) = match &body {
        Ok(bytes) => (StatusCode::ACCEPTED, live.session.receive_bytes(bytes)),
        Err(why) => {
            live.session.note(why.clone());
            (StatusCode::PAYLOAD_TOO_LARGE, Vec::new())
        }
    };
    let mut event = event;
    event.status = status.as_u16();
    live.session
        .transcript
        .insert(at, Entry::Http { http: event });
    if let Some(stream) = &live.stream {
        for reply in &replies {
            let _ = stream.send(body::event(Some("message"), &reply.to_string()));
        }
    }
    live.session.due(std::time::Instant::now());
    live.flush();
    plain(
        status,
        if status == StatusCode::ACCEPTED {
            "Accepted"
        } else {
            "too large"
        },
    )
}
