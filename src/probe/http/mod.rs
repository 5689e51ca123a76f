//! The probe over HTTP: Streamable HTTP at `/mcp` ([`streamable`]), the legacy HTTP+SSE
//! transport at `/sse` with its `POST /messages` ([`legacy`]), and legacy-only modes whose
//! `POST /mcp` answers 404 or 405 so a client's fallback to SSE shows. [`guard`] keeps web
//! pages and other hosts out. Many sessions (at most [`MAX_SESSIONS`], holding at most
//! [`MAX_HELD_BYTES`] together), until the process is stopped; each written at its quiet
//! time, on `DELETE`, when its event stream closes or at its idle limit. Requests without a
//! session are kept per connection ([`attempts`]). With `--auth oauth`, [`oauth`] answers
//! first: the 401s, discovery and the authorization server, and keeps the flow.

mod attempts;
mod body;
mod guard;
mod legacy;
pub(crate) mod oauth;
mod streamable;

use super::observation::Writer;
use super::session::Session;
use super::settings::Settings;
use super::stdio::say;
use super::transcript::{kept_headers, Entry, HttpEvent, MAX_MESSAGE_BYTES};
use crate::error::{Error, Result};
use attempts::Attempts;
pub(crate) use body::Body;
use body::EventSender;
use http_body_util::BodyExt;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the HTTP probe serves at `/mcp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMode {
    /// Streamable HTTP at `/mcp`; legacy SSE at `/sse` too.
    Streamable,
    /// Legacy HTTP+SSE only, at `/sse` (and `POST /messages`); `/mcp` is not served.
    Sse,
    /// Legacy SSE at `GET /mcp` and `/sse`; `POST /mcp` answers 404.
    LegacyOnly404,
    /// As `LegacyOnly404`, with 405.
    LegacyOnly405,
    /// Streamable HTTP, whose first `tools/call` is answered 404: the probe ends that session
    /// as a server that expired it does, to see whether the client begins a new one.
    ExpireSession,
}

impl HttpMode {
    pub fn id(self) -> &'static str {
        match self {
            HttpMode::Streamable => "streamable",
            HttpMode::Sse => "sse",
            HttpMode::LegacyOnly404 => "legacy-only-404",
            HttpMode::LegacyOnly405 => "legacy-only-405",
            HttpMode::ExpireSession => "expire-session",
        }
    }
}

/// Where the HTTP probe listens.
#[derive(Debug, Clone, Copy)]
pub struct Listen {
    pub bind: IpAddr,
    pub port: u16,
    pub mode: HttpMode,
    /// `--auth oauth`: what the probe offers as protected resource and authorization server.
    pub auth: Option<oauth::AuthConfig>,
}

/// One live session and how to reach its client outside a request.
pub(crate) struct Live {
    pub session: Session,
    /// The event stream the client keeps open (a Streamable HTTP GET, or the legacy stream).
    pub stream: Option<EventSender>,
    /// Legacy SSE: the session ends with its stream.
    pub ends_with_stream: bool,
    /// `stream` is a POST's response stream held open for a request in flight (2026-07-28).
    pub in_flight: bool,
    pub ended: bool,
    /// The `User-Agent` of the request that began it.
    pub user_agent: Option<String>,
}

impl Live {
    pub fn new(session: Session) -> Live {
        Live {
            session,
            stream: None,
            ends_with_stream: false,
            in_flight: false,
            ended: false,
            user_agent: None,
        }
    }

    /// Sends what is queued for the client on its stream, if it has one open; a POST's
    /// stream held for a request in flight ends once its answer went out.
    pub fn flush(&mut self) {
        if let Some(stream) = &self.stream {
            if self.session.has_outbound() {
                for message in self.session.drain_outbound() {
                    let _ = stream.send(body::event(Some("message"), &message.to_string()));
                }
            }
        }
        if self.in_flight && !self.session.holds() {
            self.in_flight = false;
            self.stream = None;
        }
    }
}

/// The most sessions served at once; a client past it gets 503.
pub(crate) const MAX_SESSIONS: usize = 64;
/// The most transcript bytes all sessions and attempts hold together; past it, new sessions
/// get 503 (each transcript has its own cap besides).
pub(crate) const MAX_HELD_BYTES: usize = 64 << 20;

/// Every session the probe serves, and the requests no session has claimed yet.
pub(crate) struct Hub {
    pub writer: Writer,
    pub settings: Settings,
    pub quiet: Duration,
    pub listen: Listen,
    pub state: Mutex<State>,
}

#[derive(Default)]
pub(crate) struct State {
    pub live: BTreeMap<String, Live>,
    /// Requests before any session (a refused `POST /mcp`, a `GET` without a session, OAuth
    /// discovery…), per connection.
    pub attempts: Attempts,
    /// 2026-07-28 requests without a session: the connections that joined a session begun on
    /// another connection of the same client process (by the key of each).
    pub joined: BTreeMap<String, String>,
    /// `--auth oauth`: the authorization server and its flow log.
    pub oauth: Option<oauth::Server>,
    /// `--mode expire-session`: whether the probe has ended a session yet (it ends one only).
    pub expired: bool,
}

impl State {
    /// Why a new session may not begin now (too many, or too many bytes held), if so.
    pub fn full(&self) -> Option<String> {
        if self.live.len() >= MAX_SESSIONS {
            return Some(format!("{MAX_SESSIONS} sessions are open"));
        }
        let held: usize = (self.live.values())
            .map(|l| l.session.transcript.bytes())
            .sum::<usize>()
            + self.attempts.bytes()
            + self.oauth.as_ref().map_or(0, oauth::Server::bytes);
        (held >= MAX_HELD_BYTES).then(|| format!("{held} transcript bytes are held"))
    }
}

impl Hub {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session, or why not (a 503 answer, recorded with `peer`'s attempts).
    pub fn begin(
        &self,
        state: &mut State,
        peer: SocketAddr,
        user_agent: Option<&str>,
        transport: super::session::Transport,
        request: HttpEvent,
    ) -> std::result::Result<Session, Box<Response<Body>>> {
        if let Some(why) = state.full() {
            let mut event = request;
            event.status = StatusCode::SERVICE_UNAVAILABLE.as_u16();
            event.stream = "none".into();
            state
                .attempts
                .push(self, peer, user_agent, Entry::Http { http: event });
            return Err(Box::new(plain(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the probe is full ({why}): try again later"),
            )));
        }
        let mut session = Session::new(transport, self.settings);
        let mut earlier = state.attempts.claim(self, peer, user_agent);
        if let Some(oauth) = state.oauth.as_mut() {
            // The OAuth flow that led here, in time order with the refused requests.
            earlier.extend(oauth.claim(self));
            earlier.sort_by(|a, b| a.t.cmp(&b.t));
        }
        session.transcript.absorb(earlier);
        Ok(session)
    }

    /// Records a request no session takes, under `peer`.
    pub fn attempt(&self, peer: SocketAddr, user_agent: Option<&str>, entry: Entry) {
        self.lock().attempts.push(self, peer, user_agent, entry);
    }

    /// Writes a session's observation, saying where (or why not) on standard error.
    pub fn write(&self, session: &mut Session) {
        match self.writer.write(session) {
            Ok(path) => say(path),
            Err(error) => eprintln!("error: {}", error.terminal_line()),
        }
    }
}

/// Serves until the process is stopped; prints the URL first.
pub(crate) async fn serve(
    writer: Writer,
    settings: Settings,
    quiet: Duration,
    listen: Listen,
) -> Result<()> {
    let address = SocketAddr::from((listen.bind, listen.port));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| Error::Usage {
            message: format!("could not listen on {address}: {e}; choose another --port"),
        })?;
    let address = listener.local_addr().unwrap_or(address);
    let path = if listen.mode == HttpMode::Sse {
        "/sse"
    } else {
        "/mcp"
    };
    println!("http://{address}{path}");
    eprintln!(
        "fieldnotes probe ({}) listening; observations go to {} (Ctrl-C stops)",
        listen.mode.id(),
        writer.dir.display()
    );
    let state = State {
        oauth: listen
            .auth
            .map(|c| oauth::Server::new(c, &format!("http://{address}"), path, settings)),
        ..State::default()
    };
    let hub = Arc::new(Hub {
        writer,
        settings,
        quiet,
        listen,
        state: Mutex::new(state),
    });
    tokio::spawn(tick(hub.clone()));
    let hub_for_requests = hub.clone();
    let stop = async {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { match terminate.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
        }
    };
    let gate = crate::net::gate::Gate::new(crate::net::PROBE);
    crate::net::http1::serve(listener, gate, stop, move |request| {
        let hub = hub_for_requests.clone();
        async move { route(&hub, request).await }
    })
    .await;
    let mut state = hub.lock();
    for live in state.live.values_mut() {
        live.session.note("probe stopped");
        hub.write(&mut live.session);
    }
    state.attempts.write_all(&hub);
    if let Some(oauth) = state.oauth.as_mut() {
        oauth.write_all(&hub);
    }
    Ok(())
}

/// Every 100 ms: timeouts, queued messages onto open streams, closed streams, quiet sessions
/// written.
async fn tick(hub: Arc<Hub>) {
    let mut interval = tokio::time::interval(Duration::from_millis(100));
    let mut beats = 0u32;
    loop {
        interval.tick().await;
        beats = beats.wrapping_add(1);
        let now = Instant::now();
        let mut state = hub.lock();
        for live in state.live.values_mut() {
            live.session.expire(now);
            live.session.due(now);
            live.flush();
            if beats.is_multiple_of(10) {
                if let Some(stream) = &live.stream {
                    let _ = stream.send(body::keep_alive());
                }
            }
            if live.stream.as_ref().is_some_and(EventSender::is_closed) {
                live.stream = None;
                live.session.note("the client closed its event stream");
                live.ended |= live.ends_with_stream;
            }
            if !live.ended && live.session.is_idle(now) {
                live.session.note(format!(
                    "idle limit: the client sent nothing for {} ms; the probe ended the session",
                    hub.settings.idle.as_millis()
                ));
                live.stream = None;
                live.ended = true;
            }
            if live.ended || (live.session.dirty && live.session.is_quiet(now, hub.quiet)) {
                hub.write(&mut live.session);
            }
        }
        state.live.retain(|_, live| !live.ended);
        state.attempts.tick(&hub, now);
        if let Some(oauth) = state.oauth.as_mut() {
            oauth.tick(&hub, now);
        }
    }
}

/// Answers one request: the guard, then the route.
async fn route(hub: &Hub, request: Request<Incoming>) -> Response<Body> {
    if let Some(refusal) = guard::refused(&request, hub.listen.bind) {
        return refusal;
    }
    // The connection the request came on: attempts and sessions are kept per connection.
    let peer = crate::net::http1::peer(&request);
    let request = match oauth::route(hub, request).await {
        Ok(answered) => return answered,
        Err(request) => request,
    };
    let path = request.uri().path().to_string();
    let method = request.method().as_str().to_string();
    let mode = hub.listen.mode;
    match (method.as_str(), path.as_str(), mode) {
        (_, "/mcp", HttpMode::Streamable | HttpMode::ExpireSession) => {
            streamable::handle(hub, peer, request).await
        }
        ("GET", "/sse", _) | ("GET", "/mcp", HttpMode::LegacyOnly404 | HttpMode::LegacyOnly405) => {
            legacy::open(hub, peer, &request)
        }
        ("POST", "/messages", _) => legacy::post(hub, peer, request).await,
        ("POST", "/mcp", HttpMode::LegacyOnly404 | HttpMode::LegacyOnly405) => {
            let status = if mode == HttpMode::LegacyOnly404 {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::METHOD_NOT_ALLOWED
            };
            let event = http_event(&request, status, "none");
            let user_agent = user_agent(&request);
            let body = read_body(request).await;
            let mut state = hub.lock();
            let attempt = state.attempts.of(hub, peer, user_agent.as_deref());
            attempt.transcript.push(Entry::Http { http: event });
            // The body is kept as a note: the probe did not read it as a message. Its
            // clientInfo names the client of a no-session observation.
            if let Ok(bytes) = body {
                let note = format!(
                    "refused {} body: {}",
                    status.as_u16(),
                    super::transcript::quote(&bytes)
                );
                attempt.note(note);
                learn_client(attempt, &bytes);
            }
            attempt.dirty = true;
            let mut response = plain(
                status,
                "this probe serves only the legacy HTTP+SSE transport: GET this URL",
            );
            if status == StatusCode::METHOD_NOT_ALLOWED {
                response
                    .headers_mut()
                    .insert("allow", hyper::header::HeaderValue::from_static("GET"));
            }
            response
        }
        _ => {
            let status = StatusCode::NOT_FOUND;
            let event = http_event(&request, status, "none");
            hub.attempt(
                peer,
                user_agent(&request).as_deref(),
                Entry::Http { http: event },
            );
            plain(status, "not found")
        }
    }
}

/// The request's `User-Agent`, if any.
pub(crate) fn user_agent<B>(request: &Request<B>) -> Option<String> {
    request
        .headers()
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The `clientInfo` of a refused `initialize` body, for naming a no-session observation.
pub(crate) fn learn_client(attempt: &mut Session, bytes: &[u8]) {
    let Ok(message) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return;
    };
    let info = message
        .pointer("/params/clientInfo")
        .or_else(|| message.pointer("/params/_meta/io.modelcontextprotocol~1clientInfo"));
    if let (None, Some(info)) = (&attempt.client_info, info) {
        attempt.client_info = Some(info.clone());
    }
    if attempt.protocol_version.is_none() {
        attempt.protocol_version = message
            .pointer("/params/protocolVersion")
            .and_then(serde_json::Value::as_str)
            .map(str::to_string);
    }
}

/// The HTTP request as a transcript records it.
pub(crate) fn http_event<B>(request: &Request<B>, status: StatusCode, stream: &str) -> HttpEvent {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    HttpEvent {
        method: request.method().as_str().to_string(),
        path: super::scrub::query(&path.chars().take(300).collect::<String>()),
        headers: kept_headers(
            request
                .headers()
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_bytes())),
        ),
        status: status.as_u16(),
        stream: stream.to_string(),
    }
}

/// The request body, at most [`MAX_MESSAGE_BYTES`]; `Err` with its size class when longer.
pub(crate) async fn read_body(request: Request<Incoming>) -> std::result::Result<Bytes, String> {
    match http_body_util::Limited::new(request.into_body(), MAX_MESSAGE_BYTES)
        .collect()
        .await
    {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) => Err(format!(
            "request body not read ({e}; the limit is {MAX_MESSAGE_BYTES} bytes)"
        )),
    }
}

pub(crate) fn plain(status: StatusCode, text: impl Into<String>) -> Response<Body> {
    let mut response = Response::new(Body::text(text));
    *response.status_mut() = status;
    response
}

/// A new session id: 128 random bits, hex.
pub(crate) fn new_id() -> String {
    let word = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        hasher.finish()
    };
    format!("{:016x}{:016x}", word(), word())
}
