//! The probe over HTTP: Streamable HTTP at `/mcp` ([`streamable`]), the legacy HTTP+SSE
//! transport at `/sse` with its `POST /messages` ([`legacy`]), and legacy-only modes whose
//! `POST /mcp` answers 404 or 405 so a client's fallback to SSE shows. [`guard`] keeps web
//! pages and other hosts out. Many sessions, until the process is stopped; each written at
//! its quiet time, on `DELETE`, or when its event stream closes.

mod body;
mod guard;
mod legacy;
mod streamable;

use super::observation::Writer;
use super::session::Session;
use super::stdio::say;
use super::transcript::{kept_headers, Entry, HttpEvent, Record, MAX_MESSAGE_BYTES};
use crate::error::{Error, Result};
use body::Body;
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
}

impl HttpMode {
    pub fn id(self) -> &'static str {
        match self {
            HttpMode::Streamable => "streamable",
            HttpMode::Sse => "sse",
            HttpMode::LegacyOnly404 => "legacy-only-404",
            HttpMode::LegacyOnly405 => "legacy-only-405",
        }
    }
}

/// Where the HTTP probe listens.
#[derive(Debug, Clone, Copy)]
pub struct Listen {
    pub bind: IpAddr,
    pub port: u16,
    pub mode: HttpMode,
}

/// One live session and how to reach its client outside a request.
pub(crate) struct Live {
    pub session: Session,
    /// The event stream the client keeps open (a Streamable HTTP GET, or the legacy stream).
    pub stream: Option<EventSender>,
    /// Legacy SSE: the session ends with its stream.
    pub ends_with_stream: bool,
    pub ended: bool,
}

impl Live {
    pub fn new(session: Session) -> Live {
        Live {
            session,
            stream: None,
            ends_with_stream: false,
            ended: false,
        }
    }

    /// Sends what is queued for the client on its stream, if it has one open.
    pub fn flush(&mut self) {
        if let Some(stream) = &self.stream {
            if self.session.has_outbound() {
                for message in self.session.drain_outbound() {
                    let _ = stream.send(body::event(Some("message"), &message.to_string()));
                }
            }
        }
    }
}

/// Every session the probe serves, and the requests no session has claimed yet.
pub(crate) struct Hub {
    pub writer: Writer,
    pub quiet: Duration,
    pub listen: Listen,
    pub state: Mutex<State>,
}

#[derive(Default)]
pub(crate) struct State {
    pub live: BTreeMap<String, Live>,
    /// Requests before any session (a refused `POST /mcp`, OAuth discovery…): the next session
    /// to begin takes them as its first lines.
    pub orphans: Vec<Record>,
}

impl Hub {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
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
pub(crate) async fn serve(writer: Writer, quiet: Duration, listen: Listen) -> Result<()> {
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
    let hub = Arc::new(Hub {
        writer,
        quiet,
        listen,
        state: Mutex::new(State::default()),
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
            if live.ended || (live.session.dirty && live.session.is_quiet(now, hub.quiet)) {
                hub.write(&mut live.session);
            }
        }
        state.live.retain(|_, live| !live.ended);
    }
}

/// Answers one request: the guard, then the route.
async fn route(hub: &Hub, request: Request<Incoming>) -> Response<Body> {
    if let Some(refusal) = guard::refused(&request, hub.listen.bind) {
        return refusal;
    }
    let path = request.uri().path().to_string();
    let method = request.method().as_str().to_string();
    let mode = hub.listen.mode;
    match (method.as_str(), path.as_str(), mode) {
        (_, "/mcp", HttpMode::Streamable) => streamable::handle(hub, request).await,
        ("GET", "/sse", _) | ("GET", "/mcp", HttpMode::LegacyOnly404 | HttpMode::LegacyOnly405) => {
            legacy::open(hub, &request)
        }
        ("POST", "/messages", _) => legacy::post(hub, request).await,
        ("POST", "/mcp", HttpMode::LegacyOnly404 | HttpMode::LegacyOnly405) => {
            let status = if mode == HttpMode::LegacyOnly404 {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::METHOD_NOT_ALLOWED
            };
            let event = http_event(&request, status, "none");
            let body = read_body(request).await;
            let mut state = hub.lock();
            state.orphans.push(Record {
                t: super::transcript::now(),
                entry: Entry::Http { http: event },
            });
            // The body is kept as a note: the probe did not read it as a message.
            if let Ok(bytes) = body {
                let note = format!(
                    "refused {} body: {}",
                    status.as_u16(),
                    super::transcript::quote(&bytes)
                );
                state.orphans.push(Record {
                    t: super::transcript::now(),
                    entry: Entry::Note { note },
                });
            }
            bound(&mut state.orphans);
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
            let mut state = hub.lock();
            state.orphans.push(Record {
                t: super::transcript::now(),
                entry: Entry::Http { http: event },
            });
            bound(&mut state.orphans);
            plain(status, "not found")
        }
    }
}

/// Keeps the newest 100 unclaimed requests.
fn bound(orphans: &mut Vec<Record>) {
    if orphans.len() > 100 {
        orphans.drain(..orphans.len() - 100);
    }
}

/// The HTTP request as a transcript records it.
pub(crate) fn http_event<B>(request: &Request<B>, status: StatusCode, stream: &str) -> HttpEvent {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    HttpEvent {
        method: request.method().as_str().to_string(),
        path: path.chars().take(300).collect(),
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
