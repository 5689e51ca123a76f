//! One client session: every message read is recorded and answered ([`protocol`]); after the
//! handshake the [`scenarios`] are queued at once for the transport to send; requests not
//! answered in time get a timeout note. No I/O here: the transports feed it and send what it
//! returns.
//!
//! [`protocol`]: super::protocol
//! [`scenarios`]: super::scenarios

use super::protocol::{self, RpcError};
use super::scenarios::{self, LIST_CHANGED};
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
    Sent(Instant),
    Settled,
}

#[derive(Debug)]
pub(crate) struct Session {
    pub transcript: Transcript,
    pub transport: Transport,
    /// `clientInfo` as sent in `initialize` (or a 2026-07-28 request's `_meta`).
    pub client_info: Option<Value>,
    /// The revision the client offered.
    pub protocol_version: Option<String>,
    /// When the last message came from the client (or the session began).
    pub last_heard: Instant,
    /// How long a server → client request may go unanswered.
    timeout: Duration,
    initialized: bool,
    triggered: bool,
    outbound: VecDeque<Value>,
    /// Requests sent and not yet answered: id, when sent.
    pending: Vec<(String, Instant)>,
    list_changed: ListChanged,
    /// The id of the client's open `subscriptions/listen` request (2026-07-28), and whether
    /// it asked for `toolsListChanged`.
    pub subscription: Option<(Value, bool)>,
    /// Whether anything was recorded since the observation was last written.
    pub dirty: bool,
    /// When the session began (the observation's date and id).
    pub started: chrono::DateTime<chrono::Utc>,
    /// The observation's id, picked when it is first written.
    pub observation_id: Option<String>,
}

impl Session {
    pub fn new(transport: Transport, timeout: Duration) -> Session {
        Session {
            transcript: Transcript::default(),
            transport,
            client_info: None,
            protocol_version: None,
            last_heard: Instant::now(),
            timeout,
            initialized: false,
            triggered: false,
            outbound: VecDeque::new(),
            pending: Vec::new(),
            list_changed: ListChanged::NotSent,
            subscription: None,
            dirty: false,
            started: chrono::Utc::now(),
            observation_id: None,
        }
    }

    /// The revision the session speaks: the client's, else the newest with `initialize`.
    fn version(&self) -> &str {
        protocol::negotiate(self.protocol_version.as_deref())
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
        for reply in &replies {
            self.record(Entry::Out { msg: reply.clone() });
        }
        replies
    }

    /// The reply to one message, if it wants one; queues the scenarios when the handshake
    /// is done.
    fn handle(&mut self, message: Value) -> Option<Value> {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        let id = message.get("id").cloned();
        match (method, id) {
            (Some(method), Some(id)) => {
                let params = message.get("params");
                self.learn(&method, params);
                if method == "subscriptions/listen" {
                    return Some(self.listen(id, params));
                }
                let outcome = protocol::answer(&method, params, self.version());
                let stateless = protocol::meta_version(params).is_some();
                if method != "initialize" && (self.initialized || stateless) {
                    self.trigger();
                }
                if method == "tools/list" && outcome.is_ok() {
                    self.tools_listed();
                }
                Some(protocol::response(&id, outcome))
            }
            (Some(method), None) => {
                if method == "notifications/initialized" {
                    self.initialized = true;
                    self.trigger();
                }
                None
            }
            (None, Some(id))
                if message.get("result").is_some() || message.get("error").is_some() =>
            {
                let key = id_key(&id);
                self.pending.retain(|(pending, _)| *pending != key);
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
            self.initialized = true;
        } else if let Some(version) = protocol::meta_version(params) {
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
        self.trigger();
        serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {scenarios::SUBSCRIPTION_ID: id}, "notifications": honoured},
        })
    }

    /// Queues the server → client requests, once per session.
    fn trigger(&mut self) {
        if self.triggered {
            return;
        }
        self.triggered = true;
        let version = self.version().to_string();
        let now = Instant::now();
        for scenario in scenarios::REQUESTS {
            self.outbound
                .push_back(scenarios::request(scenario, &version));
            self.pending.push((scenario.id.to_string(), now));
        }
    }

    /// After a `tools/list` answered: the first time, tell the client the tools changed; after
    /// that, the client listing again settles the question.
    fn tools_listed(&mut self) {
        match self.list_changed {
            ListChanged::NotSent if self.triggered => {
                let subscription = self.subscription.as_ref().filter(|(_, tools)| *tools);
                self.outbound
                    .push_back(scenarios::list_changed(subscription.map(|(id, _)| id)));
                self.list_changed = ListChanged::Sent(Instant::now());
            }
            ListChanged::Sent(_) => self.list_changed = ListChanged::Settled,
            _ => {}
        }
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
        let timeout = self.timeout;
        let (late, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|(_, sent)| now.duration_since(*sent) >= timeout);
        self.pending = waiting;
        for (id, _) in late {
            self.note(scenarios::timeout_note(&id, timeout.as_millis()));
        }
        if let ListChanged::Sent(sent) = self.list_changed {
            if now.duration_since(sent) >= timeout {
                self.note(scenarios::timeout_note(LIST_CHANGED, timeout.as_millis()));
                self.list_changed = ListChanged::Settled;
            }
        }
    }

    /// Whether nothing is awaited and the client has been silent for `quiet`.
    pub fn is_quiet(&self, now: Instant, quiet: Duration) -> bool {
        self.pending.is_empty()
            && !matches!(self.list_changed, ListChanged::Sent(_))
            && now.duration_since(self.last_heard) >= quiet
    }

    /// When something next falls due: a timeout, or the quiet time.
    pub fn next_deadline(&self, quiet: Duration) -> Instant {
        let timeouts = self.pending.iter().map(|(_, sent)| *sent + self.timeout);
        let list = match self.list_changed {
            ListChanged::Sent(sent) => Some(sent + self.timeout),
            _ => None,
        };
        timeouts
            .chain(list)
            .chain(std::iter::once(self.last_heard + quiet))
            .min()
            .unwrap_or(self.last_heard + quiet)
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
mod tests {
    use super::*;
    use serde_json::json;

    fn session() -> Session {
        Session::new(Transport::Stdio, Duration::from_millis(50))
    }

    #[test]
    fn the_scenarios_are_queued_once_after_initialized_and_list_changed_after_tools_list() {
        let mut s = session();
        let replies = s.receive(json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}));
        assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
        assert!(!s.has_outbound());
        s.receive(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        let sent = s.drain_outbound();
        assert_eq!(sent.len(), scenarios::REQUESTS.len());
        s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
        assert_eq!(s.drain_outbound()[0]["method"], LIST_CHANGED);
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
    }

    #[test]
    fn a_stateless_client_is_learnt_from_meta() {
        let mut s = session();
        s.receive(
            json!({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{
            "io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientInfo":{"name":"m","version":"2"}}}}),
        );
        assert_eq!(s.client_info, Some(json!({"name":"m","version":"2"})));
        assert_eq!(s.protocol_version.as_deref(), Some(protocol::STATELESS));
        assert!(s.has_outbound());
        let ack = s.receive(
            json!({"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{
            "notifications":{"toolsListChanged":true,"other":true}}}),
        );
        assert_eq!(ack[0]["params"]["_meta"][scenarios::SUBSCRIPTION_ID], "l");
        assert_eq!(
            ack[0]["params"]["notifications"],
            json!({"toolsListChanged": true})
        );
        s.drain_outbound();
        s.receive(json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}));
        let sent = s.drain_outbound();
        assert_eq!(sent[0]["params"]["_meta"][scenarios::SUBSCRIPTION_ID], "l");
    }
}
