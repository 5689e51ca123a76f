//! One client session: every message read is recorded and answered ([`protocol`]). The
//! [`scenarios`] go out a settle time after the handshake (current protocol), or while a
//! client request is in flight, its answer held back (2026-07-28); `tools/list_changed` a
//! settle time after a `tools/list` answer. Requests not answered in time get a timeout note.
//! No I/O here: the transports feed it, send what it returns and call [`Session::due`].
//!
//! [`protocol`]: super::protocol
//! [`scenarios`]: super::scenarios

use super::protocol::{self, RpcError};
use super::relist::Relists;
use super::scenarios::{self, LIST_CHANGED};
use super::session_mark;
use super::settings::{Protocol, Settings};
use super::transcript::{quote, Entry, Transcript, MAX_MESSAGE_BYTES};
use serde_json::Value;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How the client reached the probe (the observation's `transport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    Stdio,
    StreamableHttp,
    Sse,
}

impl Transport {
    pub fn id(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp => "streamableHttp",
            Transport::Sse => "sse",
        }
    }
}

/// Whether the probe has told the client its tools changed, and whether it listed again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListChanged {
    NotSent,
    /// To be sent at this time (a settle time after the `tools/list` answer).
    Due(Instant),
    Sent(Instant),
    Settled,
}

/// The note that says the client cancelled the held tool call (the rules read it back).
pub(crate) const CANCELLED_NOTE: &str = "the client cancelled the tool call ";

/// The client requests during which a 2026-07-28 server may ask its own questions.
const IN_FLIGHT: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

#[derive(Debug)]
pub(crate) struct Session {
    pub transcript: Transcript,
    pub transport: Transport,
    /// `clientInfo` as sent in `initialize` (or a 2026-07-28 request's `_meta`).
    pub client_info: Option<Value>,
    /// The revision the client offered.
    pub protocol_version: Option<String>,
    /// The capabilities the client declared (`initialize`, or 2026-07-28 `_meta`).
    declared: Option<Value>,
    /// When the last message came from the client (or the session began).
    pub last_heard: Instant,
    pub settings: Settings,
    /// Whether the client sent `initialize`.
    initialized: bool,
    /// Whether a handshake completed: `initialize`, or (2026-07-28) a request with `_meta`,
    /// answered with a result. A session without one is written as `outcome: no-session`.
    pub handshake: bool,
    /// When the probe's questions go out (a settle time after `notifications/initialized`).
    ask_at: Option<Instant>,
    asked: bool,
    outbound: VecDeque<Value>,
    /// Requests sent and not yet answered: id, when sent.
    pending: Vec<(String, Instant)>,
    list_changed: ListChanged,
    /// The id of the client's open `subscriptions/listen` request (2026-07-28), and whether
    /// it asked for `toolsListChanged`.
    pub subscription: Option<(Value, bool)>,
    /// 2026-07-28: the answer to the in-flight request the probe asked its questions during,
    /// held until they are answered or time out.
    held: Option<Value>,
    /// The tool call whose answer is held: its id, and when it came.
    held_call: Option<(Value, Instant)>,
    /// The held answer goes out no sooner than this (`--tool-delay`).
    held_until: Option<Instant>,
    /// Notifications that go out before the reply being made (a tool call's progress).
    ahead: Vec<Value>,
    /// Whether the transport can carry the probe's requests before an answer (stdio, an event
    /// stream): set by the transport before each message.
    pub can_hold: bool,
    /// Whether anything was recorded since the observation was last written.
    pub dirty: bool,
    /// When the session began (the observation's date and id).
    pub started: chrono::DateTime<chrono::Utc>,
    /// The observation's id, picked when it is first written.
    pub observation_id: Option<String>,
    /// The resource and prompt lists, told again once the client has them ([`Relists`]).
    relists: Relists,
    /// This session's mark, written into its instructions and tool results
    /// ([`super::session_mark`]).
    pub mark: String,
}

impl Session {
    pub fn new(transport: Transport, settings: Settings) -> Session {
        Session {
            transcript: Transcript::default(),
            transport,
            client_info: None,
            protocol_version: None,
            declared: None,
            last_heard: Instant::now(),
            settings,
            initialized: false,
            handshake: false,
            ask_at: None,
            asked: false,
            outbound: VecDeque::new(),
            pending: Vec::new(),
            list_changed: ListChanged::NotSent,
            subscription: None,
            held: None,
            held_call: None,
            held_until: None,
            ahead: Vec::new(),
            can_hold: true,
            dirty: false,
            started: chrono::Utc::now(),
            observation_id: None,
            relists: Relists::default(),
            mark: session_mark::new(),
        }
    }

    fn protocol(&self) -> Protocol {
        self.settings.protocol
    }

    /// The revision the session speaks: the client's, else the newest with `initialize`; never
    /// 2026-07-28 when the probe is a current server.
    fn version(&self) -> &str {
        match protocol::negotiate(self.protocol_version.as_deref()) {
            protocol::STATELESS if self.protocol() == Protocol::Current => protocol::LATEST_LEGACY,
            version => version,
        }
    }

    pub fn note(&mut self, note: impl Into<String>) {
        self.transcript.note(note);
        self.dirty = true;
    }

    fn record(&mut self, entry: Entry) {
        self.transcript.push(entry);
        self.dirty = true;
    }

    /// Reads one framed message (a stdio line, an HTTP body): records it and returns the
    /// replies, already recorded, to send now.
    pub fn receive_bytes(&mut self, bytes: &[u8]) -> Vec<Value> {
        self.last_heard = Instant::now();
        if bytes.len() > MAX_MESSAGE_BYTES {
            self.note(format!(
                "message of {} bytes over the {MAX_MESSAGE_BYTES}-byte limit, not read; it began: {}",
                bytes.len(),
                quote(bytes)
            ));
            return Vec::new();
        }
        match serde_json::from_slice::<Value>(bytes) {
            Ok(message) => self.receive(message),
            Err(error) => {
                self.note(format!(
                    "unparseable input ({} bytes, {error}): {}",
                    bytes.len(),
                    quote(bytes)
                ));
                let reply = protocol::response(
                    &Value::Null,
                    Err(RpcError::new(protocol::PARSE_ERROR, "Parse error")),
                );
                self.record(Entry::Out { msg: reply.clone() });
                vec![reply]
            }
        }
    }

    /// Records and answers a parsed message (one, or a batch).
    pub fn receive(&mut self, message: Value) -> Vec<Value> {
        self.last_heard = Instant::now();
        self.record(Entry::In {
            msg: message.clone(),
        });
        let replies: Vec<Value> = match message {
            Value::Array(batch) => {
                let replies: Vec<Value> =
                    batch.into_iter().filter_map(|m| self.handle(m)).collect();
                if replies.is_empty() {
                    Vec::new()
                } else {
                    vec![Value::Array(replies)]
                }
            }
            single => self.handle(single).into_iter().collect(),
        };
        let mut replies = replies;
        if !self.ahead.is_empty() {
            let mut first: Vec<Value> = std::mem::take(&mut self.ahead);
            first.extend(replies);
            replies = first;
        }
        for reply in &replies {
            self.record(Entry::Out { msg: reply.clone() });
        }
        replies
    }

    /// The reply to one message, if it wants one now.
    fn handle(&mut self, message: Value) -> Option<Value> {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        let id = message.get("id").cloned();
        let next = self.protocol() == Protocol::Next;
        match (method, id) {
            (Some(method), Some(id)) => {
                let params = message.get("params");
                self.learn(&method, params);
                if next && method == "subscriptions/listen" {
                    return Some(self.listen(id, params));
                }
                let outcome = protocol::answer(&method, params, self.version(), self.protocol())
                    .map(|mut result| {
                        session_mark::stamp(&mut result, &self.mark);
                        result
                    });
                let stateless = next && protocol::meta_version(params).is_some();
                if outcome.is_ok() && (method == "initialize" || stateless) {
                    self.handshake = true;
                }
                if method != "initialize" && self.initialized {
                    self.schedule();
                }
                let first_page = protocol::cursor(params).is_none();
                if method == "tools/list" && first_page && outcome.is_ok() {
                    self.tools_listed();
                }
                if first_page && outcome.is_ok() && self.protocol() == Protocol::Current {
                    let at = Instant::now() + self.settings.settle;
                    self.relists.listed(&method, at);
                }
                let called = method == "tools/call" && outcome.is_ok();
                let reply = protocol::response(&id, outcome);
                if called && self.handshake {
                    return self.call(id, params, reply);
                }
                if next && self.handshake && IN_FLIGHT.contains(&method.as_str()) {
                    return self.ask_in_flight(reply);
                }
                Some(reply)
            }
            (Some(method), None) => {
                if method == "notifications/initialized" && self.initialized {
                    self.schedule();
                }
                if method == "notifications/cancelled" {
                    self.cancelled(message.get("params"));
                }
                None
            }
            (None, Some(id))
                if message.get("result").is_some() || message.get("error").is_some() =>
            {
                let key = id_key(&id);
                self.pending.retain(|(pending, _)| *pending != key);
                self.release();
                None
            }
            (None, id) => Some(protocol::response(
                &id.unwrap_or(Value::Null),
                Err(RpcError::new(
                    protocol::INVALID_REQUEST,
                    "Invalid Request: no method",
                )),
            )),
        }
    }

    /// What a request says about the client: its name, version and revision.
    fn learn(&mut self, method: &str, params: Option<&Value>) {
        if method == "initialize" {
            let params = params.cloned().unwrap_or(Value::Null);
            self.client_info = params
                .get("clientInfo")
                .cloned()
                .or(self.client_info.take());
            self.protocol_version = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_string);
            self.declared = params.get("capabilities").cloned();
            self.initialized = true;
        } else if let Some(version) = protocol::meta_version(params) {
            if self.declared.is_none() {
                self.declared = params
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(protocol::META_CAPABILITIES))
                    .cloned();
            }
            if self.client_info.is_none() {
                self.client_info = params
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(protocol::META_CLIENT_INFO))
                    .cloned();
            }
            if self.protocol_version.is_none() {
                self.protocol_version = Some(version.to_string());
            }
        }
    }

    /// Opens a 2026-07-28 subscription: no response until it ends, an acknowledgment now
    /// naming the notifications the probe honours.
    fn listen(&mut self, id: Value, params: Option<&Value>) -> Value {
        let asked = params.and_then(|p| p.get("notifications"));
        let mut honoured = serde_json::Map::new();
        for kind in [
            "toolsListChanged",
            "promptsListChanged",
            "resourcesListChanged",
        ] {
            if asked.and_then(|a| a.get(kind)) == Some(&Value::Bool(true)) {
                honoured.insert(kind.into(), Value::Bool(true));
            }
        }
        if let Some(uris) = asked.and_then(|a| a.get("resourceSubscriptions")) {
            honoured.insert("resourceSubscriptions".into(), uris.clone());
        }
        let tools = honoured.contains_key("toolsListChanged");
        self.subscription = Some((id.clone(), tools));
        serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {scenarios::SUBSCRIPTION_ID: id}, "notifications": honoured},
        })
    }

    /// Current protocol: the questions go out a settle time after the handshake, once.
    fn schedule(&mut self) {
        if self.protocol() == Protocol::Current && self.ask_at.is_none() && !self.asked {
            self.ask_at = Some(Instant::now() + self.settings.settle);
        }
    }

    /// 2026-07-28: asks the questions now, while the client's request is in flight, and holds
    /// its answer; once per session, and only where the transport can carry them first.
    fn ask_in_flight(&mut self, reply: Value) -> Option<Value> {
        if self.asked || !self.can_hold {
            return Some(reply);
        }
        self.ask();
        self.held = Some(reply);
        None
    }

    /// A call of the probe's tool: progress (when the request carried a token) and a log
    /// message go out first; then, current protocol, an elicitation (form, url) and a
    /// sampling request where the client declared them (2026-07-28: the probe's questions,
    /// as during any request in flight); the answer is held until they are answered or time
    /// out, and for `--tool-delay`. A transport that cannot carry messages before the
    /// answer (a JSON response) gets the answer alone.
    fn call(&mut self, id: Value, params: Option<&Value>, reply: Value) -> Option<Value> {
        if !self.can_hold {
            return Some(reply);
        }
        let now = Instant::now();
        if let Some(token) = params.and_then(|p| p.pointer("/_meta/progressToken")) {
            self.ahead.push(scenarios::progress(token));
        }
        self.ahead.push(scenarios::log_message());
        let waiting = self.pending.len();
        if self.protocol() == Protocol::Next {
            if !self.asked {
                self.ask();
            }
        } else {
            let version = self.version().to_string();
            let declared = self.declared.clone().unwrap_or(Value::Null);
            for scenario in scenarios::during_call(&declared) {
                self.outbound
                    .push_back(scenarios::request(scenario, &version));
                self.pending.push((scenario.id.to_string(), now));
            }
        }
        let delay = self.settings.tool_delay;
        if self.pending.len() == waiting && delay.is_zero() {
            return Some(reply);
        }
        let mut first: Vec<Value> = std::mem::take(&mut self.ahead);
        first.extend(self.outbound.drain(..));
        self.outbound = first.into();
        self.held = Some(reply);
        self.held_call = Some((id, now));
        self.held_until = Some(now + delay);
        None
    }

    /// `notifications/cancelled`: a held tool call it names is answered no more.
    fn cancelled(&mut self, params: Option<&Value>) {
        let target = params.and_then(|p| p.get("requestId"));
        let Some((id, began)) = self.held_call.clone() else {
            return;
        };
        if target == Some(&id) {
            let after = began.elapsed().as_millis();
            self.held = None;
            self.held_call = None;
            self.held_until = None;
            self.note(format!(
                "{CANCELLED_NOTE}{after} ms after it began; its result was not sent"
            ));
        }
    }

    /// Queues the server → client requests.
    fn ask(&mut self) {
        self.asked = true;
        let version = self.version().to_string();
        let now = Instant::now();
        for scenario in scenarios::REQUESTS {
            self.outbound
                .push_back(scenarios::request(scenario, &version));
            self.pending.push((scenario.id.to_string(), now));
        }
    }

    /// Sends the held answer once every question is answered or timed out, and the tool's
    /// delay is over.
    fn release(&mut self) {
        let delayed = self.held_until.is_some_and(|at| at > Instant::now());
        if self.pending.is_empty() && !delayed {
            if let Some(reply) = self.held.take() {
                self.outbound.push_back(reply);
                self.held_call = None;
                self.held_until = None;
            }
        }
    }

    /// Whether an answer is held back for the questions asked during its request.
    pub fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// After a `tools/list` answered: the first time, tell the client the tools changed a
    /// settle time later (current protocol: after the handshake; 2026-07-28: only on a
    /// subscription that asked for it); after that, the client listing again settles it.
    fn tools_listed(&mut self) {
        match self.list_changed {
            ListChanged::NotSent => {
                let ready = match self.protocol() {
                    Protocol::Current => self.initialized,
                    Protocol::Next => self.subscription.as_ref().is_some_and(|(_, t)| *t),
                };
                if ready {
                    self.list_changed = ListChanged::Due(Instant::now() + self.settings.settle);
                }
            }
            ListChanged::Sent(_) => self.list_changed = ListChanged::Settled,
            _ => {}
        }
    }

    /// Queues what falls due by `now`: the questions, the list-changed notifications (in a
    /// `current` session the resource and prompt lists are said to change with the tools, and
    /// again once the client has them: [`Relists`]).
    pub fn due(&mut self, now: Instant) {
        if self.held_until.is_some_and(|at| at <= now) {
            self.release();
        }
        if self.ask_at.is_some_and(|at| at <= now) && !self.asked {
            self.ask_at = None;
            self.ask();
        }
        if let ListChanged::Due(at) = self.list_changed {
            if at <= now {
                let subscription = self.subscription.as_ref().filter(|(_, tools)| *tools);
                self.outbound
                    .push_back(scenarios::list_changed(subscription.map(|(id, _)| id)));
                if self.protocol() == Protocol::Current {
                    self.outbound.extend(scenarios::other_lists_changed());
                    self.relists.all_told();
                }
                self.list_changed = ListChanged::Sent(now);
            }
        }
        self.outbound.extend(self.relists.due(now));
    }

    /// The queued messages for the client, recorded as sent.
    pub fn drain_outbound(&mut self) -> Vec<Value> {
        let messages: Vec<Value> = self.outbound.drain(..).collect();
        for message in &messages {
            self.record(Entry::Out {
                msg: message.clone(),
            });
        }
        messages
    }

    pub fn has_outbound(&self) -> bool {
        !self.outbound.is_empty()
    }

    /// Notes every request (and the list-changed check) whose time ran out by `now`.
    pub fn expire(&mut self, now: Instant) {
        let timeout = self.settings.timeout;
        let (late, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|(_, sent)| now.duration_since(*sent) >= timeout);
        self.pending = waiting;
        for (id, _) in late {
            self.note(scenarios::timeout_note(&id, timeout.as_millis()));
        }
        self.release();
        if let ListChanged::Sent(sent) = self.list_changed {
            if now.duration_since(sent) >= timeout {
                self.note(scenarios::timeout_note(LIST_CHANGED, timeout.as_millis()));
                self.list_changed = ListChanged::Settled;
            }
        }
    }

    /// Whether nothing is awaited or due and the client has been silent for `quiet`.
    pub fn is_quiet(&self, now: Instant, quiet: Duration) -> bool {
        self.pending.is_empty()
            && self.ask_at.is_none()
            && self.held.is_none()
            && !matches!(
                self.list_changed,
                ListChanged::Sent(_) | ListChanged::Due(_)
            )
            && !self.relists.pending()
            && now.duration_since(self.last_heard) >= quiet
    }

    /// Whether the client has been silent for the idle limit: the session ends.
    pub fn is_idle(&self, now: Instant) -> bool {
        now.duration_since(self.last_heard) >= self.settings.idle
    }

    /// When something next falls due after `now`: a question, a timeout, a list-changed
    /// notification, the quiet time, the idle limit.
    pub fn next_deadline(&self, now: Instant, quiet: Duration) -> Instant {
        let timeout = self.settings.timeout;
        let timeouts = self.pending.iter().map(|(_, sent)| *sent + timeout);
        let list = match self.list_changed {
            ListChanged::Sent(sent) => Some(sent + timeout),
            ListChanged::Due(at) => Some(at),
            _ => None,
        };
        timeouts
            .chain(list)
            .chain(self.ask_at)
            .chain(self.relists.next())
            .chain(self.held_until.filter(|_| self.held.is_some()))
            .chain([
                self.last_heard + quiet,
                self.last_heard + self.settings.idle,
            ])
            .filter(|at| *at > now)
            .min()
            .unwrap_or(now + Duration::from_millis(50))
    }
}

/// A JSON-RPC id as a comparable key.
fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
