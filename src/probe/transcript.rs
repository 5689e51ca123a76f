//! A session's transcript: every message in and out, every HTTP request and the probe's own
//! notes, in order, with their times; bounded, and written one JSON object a line.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The largest message the probe reads; a longer one is noted (its first bytes) and dropped.
pub(crate) const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// The most a transcript keeps (its JSON lines); what comes after is counted, not kept.
pub(crate) const MAX_TRANSCRIPT_BYTES: usize = 16 << 20;
/// How many bytes of unreadable input a note quotes.
pub(crate) const QUOTED_BYTES: usize = 200;

/// One line of the transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// When, UTC: `2026-12-01T23:15:00.123456Z` (to the millisecond before 2026-12-06).
    pub t: String,
    #[serde(flatten)]
    pub entry: Entry,
}

/// What a line records, by direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dir", rename_all = "lowercase")]
pub(crate) enum Entry {
    /// Client → probe.
    In { msg: Value },
    /// Probe → client.
    Out { msg: Value },
    /// An HTTP request the probe answered.
    Http { http: HttpEvent },
    /// The probe's own remark: timeouts, end of input, signals, unreadable input.
    Note { note: String },
    /// What the client sent the scripted model (`fieldnotes probe model`), and its step.
    Model { model: Value },
    /// A step of an OAuth flow (`probe http --auth oauth`): what the client sent, in shape
    /// (PKCE method, lengths, `resource`, scopes), never a code, token or secret.
    Auth { auth: Value },
}

/// One HTTP request: what came and what the probe answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct HttpEvent {
    pub method: String,
    pub path: String,
    /// The kept headers, names lower-case (credentials as `<redacted>`).
    pub headers: BTreeMap<String, String>,
    pub status: u16,
    /// `sse` (an event stream), `json` (one JSON body) or `none`.
    pub stream: String,
}

/// The headers a transcript keeps; all others are dropped.
pub(crate) const KEPT_HEADERS: [&str; 10] = [
    "mcp-protocol-version",
    "mcp-session-id",
    "accept",
    "content-type",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "user-agent",
    "origin",
    "host",
];

/// Headers whose presence is kept but never their value.
pub(crate) const REDACTED_HEADERS: [&str; 3] = ["authorization", "cookie", "proxy-authorization"];

/// The transcript of one session.
#[derive(Debug)]
pub(crate) struct Transcript {
    records: Vec<Record>,
    bytes: usize,
    /// The most it keeps, in bytes of JSON lines.
    limit: usize,
    /// Records not kept because the transcript was full.
    dropped: usize,
}

impl Default for Transcript {
    fn default() -> Transcript {
        Transcript::with_limit(MAX_TRANSCRIPT_BYTES)
    }
}

impl Transcript {
    /// An empty transcript that keeps at most `limit` bytes.
    pub fn with_limit(limit: usize) -> Transcript {
        Transcript {
            records: Vec::new(),
            bytes: 0,
            limit,
            dropped: 0,
        }
    }

    /// The bytes it holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Appends `entry` stamped now; returns its 1-based line, or `None` when the transcript is
    /// full (the first record that does not fit is replaced by a note saying so).
    pub fn push(&mut self, entry: Entry) -> Option<usize> {
        self.push_at(now(), entry)
    }

    pub fn push_at(&mut self, t: String, entry: Entry) -> Option<usize> {
        self.push_record(Record { t, entry })
    }

    fn push_record(&mut self, record: Record) -> Option<usize> {
        if self.dropped > 0 {
            self.dropped += 1;
            return None;
        }
        let size = serde_json::to_string(&record).map_or(0, |s| s.len() + 1);
        if self.bytes + size > self.limit {
            self.dropped = 1;
            self.records.push(Record {
                t: record.t,
                entry: Entry::Note {
                    note: format!(
                        "transcript full ({} bytes): later messages are answered but not kept",
                        self.limit
                    ),
                },
            });
            return None;
        }
        self.bytes += size;
        self.records.push(record);
        Some(self.records.len())
    }

    /// Puts `entry` at position `index` (0-based): an HTTP request recorded before the
    /// messages its body held, once its status is known. It takes the stamp of the record it
    /// is put before (the first message of its body), or now when it is last, so that
    /// ordering records by time (and merging the model's lines in by time) never separates
    /// a request from its body nor moves it ahead of what came before it.
    pub fn insert(&mut self, index: usize, entry: Entry) {
        let index = index.min(self.records.len());
        let t = self
            .records
            .get(index)
            .map_or_else(now, |next| next.t.clone());
        let record = Record { t, entry };
        let size = serde_json::to_string(&record).map_or(0, |s| s.len() + 1);
        if self.dropped == 0 && self.bytes + size <= self.limit {
            self.bytes += size;
            self.records.insert(index, record);
        }
    }

    /// Puts `earlier` records (what came before this session was known) first, within the
    /// limit: what does not fit is dropped as any late record is.
    pub fn absorb(&mut self, earlier: Vec<Record>) {
        let mut joined = Transcript::with_limit(self.limit);
        let mine = std::mem::take(&mut self.records);
        for record in earlier.into_iter().chain(mine) {
            joined.push_record(record);
        }
        joined.dropped += self.dropped;
        *self = joined;
    }

    /// Takes every record out, leaving the transcript empty.
    pub fn take(&mut self) -> Vec<Record> {
        self.bytes = 0;
        self.dropped = 0;
        std::mem::take(&mut self.records)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn note(&mut self, note: impl Into<String>) -> Option<usize> {
        self.push(Entry::Note { note: note.into() })
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The transcript as JSON lines, each ending in `\n`.
    #[cfg(test)]
    pub fn to_jsonl(&self) -> String {
        to_jsonl(&self.records)
    }

    /// Reads JSON lines back (tests).
    #[cfg(test)]
    pub fn from_jsonl(text: &str) -> Transcript {
        let mut transcript = Transcript::default();
        for record in records_from_jsonl(text).expect("transcript lines") {
            transcript.push_at(record.t, record.entry);
        }
        transcript
    }
}

/// A line of a written transcript that is not a record: its 1-based number and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadLine {
    pub line: usize,
    pub why: String,
}

/// Reads a written transcript back: every line a record (line `n` of the file is record
/// `n`, as results cite it), or the first line that is not one.
pub(crate) fn records_from_jsonl(text: &str) -> Result<Vec<Record>, BadLine> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    (text.lines().enumerate())
        .map(|(index, line)| {
            let bad = |why: String| BadLine {
                line: index + 1,
                why,
            };
            if line.trim().is_empty() {
                return Err(bad("the line is empty".to_string()));
            }
            serde_json::from_str(line).map_err(|e| bad(e.to_string()))
        })
        .collect()
}

/// Records as JSON lines, each ending in `\n`.
pub(crate) fn to_jsonl(records: &[Record]) -> String {
    let mut out = String::new();
    for record in records {
        if let Ok(line) = serde_json::to_string(record) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Now, as a transcript writes times.
pub(crate) fn now() -> String {
    stamp(chrono::Utc::now())
}

/// A transcript time: UTC to the microsecond. The probe and the scripted model are two
/// processes whose lines are merged by these stamps compared as text, so every stamp has the
/// same width; at milliseconds a model line and the MCP line it caused could tie and sort
/// out of order.
pub(crate) fn stamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// A note's quotation of unreadable input: its first bytes, escaped.
pub(crate) fn quote(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(QUOTED_BYTES)];
    String::from_utf8_lossy(head).escape_debug().to_string()
}

/// The kept headers of a request, names lower-case, credentials redacted.
pub(crate) fn kept_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> BTreeMap<String, String> {
    let mut kept = BTreeMap::new();
    for (name, value) in headers {
        let name = name.to_ascii_lowercase();
        if REDACTED_HEADERS.contains(&name.as_str()) {
            kept.insert(name, "<redacted>".to_string());
        } else if KEPT_HEADERS.contains(&name.as_str()) {
            let value = String::from_utf8_lossy(&value[..value.len().min(1024)]).into_owned();
            kept.entry(name)
                .and_modify(|v: &mut String| {
                    v.push_str(", ");
                    v.push_str(&value)
                })
                .or_insert(value);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_in_the_contract_shape() {
        let mut transcript = Transcript::default();
        transcript.push_at(
            "2026-12-01T23:15:00.123Z".into(),
            Entry::In {
                msg: serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            },
        );
        transcript.push_at(
            "2026-12-01T23:15:00.124Z".into(),
            Entry::Note { note: "x".into() },
        );
        let text = transcript.to_jsonl();
        assert!(text.lines().next().is_some_and(
            |l| l.starts_with(r#"{"t":"2026-12-01T23:15:00.123Z","dir":"in","msg":{"#)
        ));
        assert_eq!(
            Transcript::from_jsonl(&text).records(),
            transcript.records()
        );
    }

    #[test]
    fn a_written_transcript_reads_back_or_names_its_first_bad_line() {
        let good = r#"{"t":"2026-12-01T23:15:00.123Z","dir":"note","note":"x"}"#;
        assert_eq!(
            records_from_jsonl(&format!("{good}\n{good}\n")).map(|r| r.len()),
            Ok(2)
        );
        for (text, line) in [
            (format!("{good}\nnot json\n{good}\n"), 2),
            (format!("{good}\n\n{good}\n"), 2),
            (format!("{good}\n{{\"t\":\"x\",\"dir\":\"sideways\"}}\n"), 2),
        ] {
            let bad = records_from_jsonl(&text).expect_err("a bad line");
            assert_eq!(bad.line, line, "{text}: {}", bad.why);
        }
    }

    /// A request answered in a later millisecond than its body was read still sorts before
    /// its body, and a model line stamped between the two cannot be merged in between them.
    #[test]
    fn an_inserted_request_takes_its_bodys_stamp() {
        let post = Entry::Http {
            http: HttpEvent {
                method: "POST".into(),
                path: "/mcp".into(),
                headers: BTreeMap::new(),
                status: 200,
                stream: "json".into(),
            },
        };
        let note = |note: &str| Entry::Note { note: note.into() };
        let mut transcript = Transcript::default();
        transcript.push_at("2026-12-01T23:15:00.100000Z".into(), note("before"));
        transcript.push_at("2026-12-01T23:15:00.105000Z".into(), note("its body"));
        transcript.insert(1, post.clone());
        transcript.insert(3, post);
        let records = transcript.records();
        assert!(matches!(records[1].entry, Entry::Http { .. }));
        assert_eq!(records[1].t, "2026-12-01T23:15:00.105000Z");
        // Last, it is stamped now: after everything before it.
        assert!(matches!(records[3].entry, Entry::Http { .. }));
        assert!(records[3].t > records[2].t);
        let mut sorted = records.to_vec();
        sorted.sort_by(|a, b| a.t.cmp(&b.t));
        assert_eq!(sorted, records);
    }

    #[test]
    fn a_full_transcript_says_so_once_and_keeps_nothing_more() {
        let mut transcript = Transcript::default();
        let big = "x".repeat(MAX_TRANSCRIPT_BYTES / 3);
        for _ in 0..5 {
            transcript.note(big.clone());
        }
        let records = transcript.records();
        assert_eq!(records.len(), 3);
        assert!(
            matches!(&records[2].entry, Entry::Note { note } if note.starts_with("transcript full"))
        );
    }

    #[test]
    fn credentials_are_redacted_and_unknown_headers_dropped() {
        let kept = kept_headers([
            ("Authorization", b"Bearer secret".as_slice()),
            ("MCP-Protocol-Version", b"2025-06-18".as_slice()),
            ("X-Api-Key", b"secret".as_slice()),
        ]);
        assert_eq!(
            kept.get("authorization").map(String::as_str),
            Some("<redacted>")
        );
        assert_eq!(
            kept.get("mcp-protocol-version").map(String::as_str),
            Some("2025-06-18")
        );
        assert!(!kept.contains_key("x-api-key"));
    }
}
