//! A transcript read for the rules: its messages by direction and method, the answers to
//! the probe's requests, the declared capabilities, the HTTP requests, the timeout notes.

use crate::probe::protocol::{self, META_CAPABILITIES};
use crate::probe::scenarios;
use crate::probe::session::Transport;
use crate::probe::session_mark;
use crate::probe::transcript::{Entry, HttpEvent, Record};
use serde_json::Value;

/// One JSON-RPC message of the transcript (a batch's members each count), with its line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Message<'a> {
    pub line: usize,
    pub incoming: bool,
    pub msg: &'a Value,
}

impl<'a> Message<'a> {
    pub fn method(&self) -> Option<&'a str> {
        self.msg.get("method").and_then(Value::as_str)
    }

    pub fn is_request(&self) -> bool {
        self.method().is_some() && self.msg.get("id").is_some()
    }

    pub fn id(&self) -> Option<&'a Value> {
        self.msg.get("id")
    }
}

/// What the rules read: the session's transport and its transcript.
pub(crate) struct Facts<'a> {
    pub transport: Transport,
    pub messages: Vec<Message<'a>>,
    /// HTTP requests with their lines.
    pub http: Vec<(usize, &'a HttpEvent)>,
    /// The probe's notes with their lines.
    pub notes: Vec<(usize, &'a str)>,
    /// The scripted model's lines (what the client sent the model) with their lines.
    pub model: Vec<(usize, &'a Value)>,
    /// The OAuth flow's records with their lines.
    pub auth: Vec<(usize, &'a Value)>,
    /// The session's mark, as the probe wrote it into its instructions or tool result (none
    /// in transcripts made before sessions were marked).
    pub mark: Option<String>,
}

impl<'a> Facts<'a> {
    pub fn new(transport: Transport, records: &'a [Record]) -> Facts<'a> {
        let mut facts = Facts {
            transport,
            messages: Vec::new(),
            http: Vec::new(),
            notes: Vec::new(),
            model: Vec::new(),
            auth: Vec::new(),
            mark: None,
        };
        for (index, record) in records.iter().enumerate() {
            let line = index + 1;
            let (incoming, msg) = match &record.entry {
                Entry::In { msg } => (true, msg),
                Entry::Out { msg } => (false, msg),
                Entry::Http { http } => {
                    facts.http.push((line, http));
                    continue;
                }
                Entry::Note { note } => {
                    facts.notes.push((line, note));
                    continue;
                }
                Entry::Model { model } => {
                    facts.model.push((line, model));
                    continue;
                }
                Entry::Auth { auth } => {
                    facts.auth.push((line, auth));
                    continue;
                }
            };
            match msg {
                Value::Array(batch) => facts.messages.extend(batch.iter().map(|msg| Message {
                    line,
                    incoming,
                    msg,
                })),
                msg => facts.messages.push(Message {
                    line,
                    incoming,
                    msg,
                }),
            }
        }
        facts.mark = facts.own_mark();
        facts
    }

    /// The mark the probe wrote into its own answers: after the instructions' mark, or as
    /// a tool result's `structuredContent.session` (never read from the client's text).
    fn own_mark(&self) -> Option<String> {
        let answers = self.messages.iter().filter(|m| !m.incoming);
        answers
            .filter_map(|m| m.msg.get("result"))
            .find_map(|result| {
                let instructions = result.get("instructions").and_then(Value::as_str);
                let from_instructions =
                    instructions.and_then(|i| session_mark::instructed(i).pop());
                let structured = result
                    .pointer("/structuredContent/session")
                    .and_then(Value::as_str);
                from_instructions.or_else(|| session_mark::found(structured?).pop())
            })
    }

    /// Whether the scripted model's lines of other probe sessions were left out of this
    /// transcript (a note says so).
    pub fn others_left_out(&self) -> bool {
        (self.notes.iter()).any(|(_, note)| note.starts_with(session_mark::LEFT_OUT_NOTE))
    }

    /// The client's requests (or notifications, with `notifications/…`) of `method`.
    pub fn sent_by_client(&self, method: &str) -> impl Iterator<Item = &Message<'a>> + '_ {
        let method = method.to_string();
        self.messages
            .iter()
            .filter(move |m| m.incoming && m.method() == Some(method.as_str()))
    }

    /// The probe's reply to the client's request `request`.
    pub fn reply_to(&self, request: &Message<'a>) -> Option<&Message<'a>> {
        let id = request.id()?;
        self.messages.iter().find(|m| {
            !m.incoming && m.line > request.line && m.method().is_none() && m.id() == Some(id)
        })
    }

    /// The probe's message of `method` (a request, or a notification it sent).
    pub fn sent_by_probe(&self, method: &str, id: Option<&str>) -> Option<&Message<'a>> {
        self.messages.iter().find(|m| {
            !m.incoming
                && m.method() == Some(method)
                && id.is_none_or(|id| m.id().and_then(Value::as_str) == Some(id))
        })
    }

    /// The client's answer to the probe's request `id`.
    pub fn answer(&self, id: &str) -> Option<&Message<'a>> {
        self.messages.iter().find(|m| {
            m.incoming && m.method().is_none() && m.id().and_then(Value::as_str) == Some(id)
        })
    }

    /// The line of the timeout note for `what` (a request id, or a notification).
    pub fn timed_out(&self, what: &str) -> Option<usize> {
        self.notes
            .iter()
            .find(|(_, note)| scenarios::timed_out(note) == Some(what))
            .map(|(line, _)| *line)
    }

    /// The client's `initialize` request.
    pub fn initialize(&self) -> Option<&Message<'a>> {
        self.sent_by_client("initialize").find(|m| m.is_request())
    }

    /// The capabilities the client declared, and the line that declared them: `initialize`'s,
    /// else the first 2026-07-28 `_meta` that carries them.
    pub fn capabilities(&self) -> Option<(usize, &'a Value)> {
        if let Some(init) = self.initialize() {
            let caps = init.msg.pointer("/params/capabilities")?;
            return Some((init.line, caps));
        }
        self.messages.iter().filter(|m| m.incoming).find_map(|m| {
            let caps = m.msg.get("params")?.get("_meta")?.get(META_CAPABILITIES)?;
            Some((m.line, caps))
        })
    }

    /// The client's requests that carry 2026-07-28 `_meta`.
    pub fn stateless_requests(&self) -> impl Iterator<Item = &Message<'a>> + '_ {
        self.messages.iter().filter(|m| {
            m.incoming && m.is_request() && protocol::meta_version(m.msg.get("params")).is_some()
        })
    }
}
