//! Standard input and output as the server's connection: Content-Length framed JSON-RPC, read
//! so that one bad message is answered with an error and skipped instead of ending the server.
//!
//! lsp-server's own stdio reader ends at the first message serde_json refuses, and serde_json
//! refuses a lone UTF-16 surrogate escape (`"\ud800"`), which JavaScript editors send for text
//! that holds one. Here such an escape is read as U+FFFD (one UTF-16 unit, as the surrogate
//! was, so positions in later edits still line up); a message that is still not JSON-RPC gets
//! a JSON-RPC error (`-32700` or `-32600`) and the next message is read. Only a broken frame
//! (a header that is not `Name: value`, no `Content-Length`) ends the connection: after it
//! there is no telling where the next message starts.

use lsp_server::{Connection, Message};
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};
use std::thread::{self, JoinHandle};

/// The longest message read, from the shared connection policy (a whole file's text,
/// JSON-escaped, fits); a longer one is skipped with an error.
const MAX_MESSAGE_BYTES: usize = crate::net::LSP_MESSAGE_BYTES;

/// The longest header line read.
const MAX_HEADER_BYTES: u64 = 8 << 10;

/// The threads that read standard input and write standard output.
pub(crate) struct Threads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for the writer to send what the server left, once the server's connection is
    /// dropped; the reader's error, if it stopped at a broken frame. A reader still waiting
    /// for input (an editor that said `shutdown` and never `exit`) is left to end with the
    /// process.
    pub(crate) fn join(self) -> io::Result<()> {
        let written = self.writer.join().unwrap_or(Ok(()));
        if self.reader.is_finished() {
            self.reader.join().unwrap_or(Ok(()))?;
        }
        written
    }
}

/// The server's end of a connection over standard input and output.
pub(crate) fn connect() -> (Connection, Threads) {
    let (server, editor) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = editor;
    let writer = thread::spawn(move || {
        for message in from_server {
            message.write(&mut io::stdout().lock())?;
        }
        Ok(())
    });
    let reader = thread::spawn(move || {
        let answer = |reply: Value| {
            let mut out = io::stdout().lock();
            // The editor went away: the reader ends at the end of its input.
            let _ = write_frame(&mut out, &reply.to_string());
        };
        read_messages(
            &mut io::stdin().lock(),
            |m| to_server.send(m).is_ok(),
            answer,
        )
    });
    (server, Threads { reader, writer })
}

/// Reads messages from `input` and hands each to `deliver` (which says whether the server
/// still listens) until the input ends, the server stops listening, or `exit` is read;
/// `answer` writes the errors that answer messages the server never sees.
pub(crate) fn read_messages(
    input: &mut impl BufRead,
    mut deliver: impl FnMut(Message) -> bool,
    mut answer: impl FnMut(Value),
) -> io::Result<()> {
    while let Some(frame) = read_frame(input)? {
        let body = match frame {
            Frame::Body(body) => body,
            Frame::TooLong(size) => {
                let why = format!(
                    "a message of {size} bytes; fieldnotes lsp reads messages of at most \
                     {MAX_MESSAGE_BYTES} bytes"
                );
                answer(error_reply(Value::Null, -32600, &why));
                continue;
            }
        };
        match parse(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if !deliver(message) || exit {
                    return Ok(());
                }
            }
            Err(Some(reply)) => {
                let why = reply["error"]["message"].as_str().unwrap_or("").to_string();
                eprintln!("fieldnotes lsp: skipped a message: {why}");
                answer(reply);
            }
            Err(None) => eprintln!("fieldnotes lsp: skipped a notification it cannot read"),
        }
    }
    Ok(())
}

enum Frame {
    Body(Vec<u8>),
    /// A message over [`MAX_MESSAGE_BYTES`], skipped.
    TooLong(usize),
}

/// The next message's body, `None` at the end of the input.
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut size = None;
    loop {
        let mut line = Vec::new();
        if input.take(MAX_HEADER_BYTES).read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&line);
        let Some(line) = line.strip_suffix("\r\n") else {
            return Err(broken(format!(
                "a header line that does not end in CRLF: {line:?}"
            )));
        };
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(": ") else {
            return Err(broken(format!(
                "a header that is not `Name: value`: {line:?}"
            )));
        };
        if name.eq_ignore_ascii_case("Content-Length") {
            let parsed = value.trim().parse::<usize>();
            size = Some(parsed.map_err(|_| broken(format!("Content-Length {value:?}")))?);
        }
    }
    let size = size.ok_or_else(|| broken("a message without Content-Length".to_string()))?;
    if size > MAX_MESSAGE_BYTES {
        io::copy(&mut input.take(size as u64), &mut io::sink())?;
        return Ok(Some(Frame::TooLong(size)));
    }
    // Grown as bytes arrive: a Content-Length is a claim, not memory to set aside at once.
    let mut body = Vec::new();
    input.take(size as u64).read_to_end(&mut body)?;
    if body.len() < size {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some(Frame::Body(body)))
}

fn broken(what: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("the editor sent {what}, so the next message cannot be found; restart the server"),
    )
}

/// A message from its body; else the error that answers it (`None` for a notification, which
/// gets no answer).
fn parse(body: &[u8]) -> Result<Message, Option<Value>> {
    let text = String::from_utf8_lossy(body);
    let first = match serde_json::from_str(&text) {
        Ok(message) => return Ok(message),
        Err(e) => e,
    };
    if let Some(repaired) = without_lone_surrogates(&text) {
        if let Ok(message) = serde_json::from_str(&repaired) {
            return Ok(message);
        }
    }
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return Err(Some(error_reply(
            Value::Null,
            -32700,
            &format!("not JSON: {first}"),
        )));
    };
    match (value.get("id"), value.get("method")) {
        (Some(id), Some(_)) => {
            let why = format!("not a JSON-RPC request: {first}");
            Err(Some(error_reply(id.clone(), -32600, &why)))
        }
        (None, Some(_)) => Err(None),
        _ => Err(Some(error_reply(
            Value::Null,
            -32600,
            &format!("not a JSON-RPC message: {first}"),
        ))),
    }
}

fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn write_frame(out: &mut impl Write, body: &str) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// `text` with every `\uXXXX` escape of a lone surrogate (a high one not followed by a low
/// one, or a low one alone) written `\ufffd`; `None` when it has none.
fn without_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = text.get(at..at + 6)?.strip_prefix("\\u")?;
        u16::from_str_radix(hex, 16).ok()
    };
    let (mut out, mut copied, mut at, mut changed) = (String::new(), 0, 0, false);
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match unit(at) {
            Some(0xD800..=0xDBFF) if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) => at += 12,
            Some(0xD800..=0xDFFF) => {
                out.push_str(&text[copied..at]);
                out.push_str("\\ufffd");
                changed = true;
                at += 6;
                copied = at;
            }
            // Any other escape: `\\`, `\"`, `\n`, a `\u` of a character.
            _ => at += 2,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let fixed = |text: &str| without_lone_surrogates(text);
        assert_eq!(fixed(r#""a\ud800b""#).as_deref(), Some(r#""a\ufffdb""#));
        assert_eq!(fixed(r#""\udc00""#).as_deref(), Some(r#""\ufffd""#));
        assert_eq!(fixed(r#""\ud83d\ude00""#), None, "a pair is a character");
        assert_eq!(
            fixed(r#""\\ud800""#),
            None,
            "an escaped backslash, then text"
        );
        assert_eq!(
            fixed(r#""\ud800\ud83d\ude00é""#).as_deref(),
            Some(r#""\ufffd\ud83d\ude00é""#)
        );
    }

    fn frames(bodies: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for body in bodies {
            write_frame(&mut out, body).expect("in memory");
        }
        out
    }

    #[test]
    fn a_bad_message_is_answered_and_the_next_one_read() {
        let input = frames(&[
            r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"text":"\ud800"}}"#,
            "{not json",
            r#"{"jsonrpc":"2.0","id":7,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"shutdown"}"#,
        ]);
        let (mut delivered, mut answered) = (Vec::new(), Vec::new());
        let read = read_messages(
            &mut input.as_slice(),
            |m| {
                delivered.push(m);
                true
            },
            |reply| answered.push(reply),
        );
        assert!(read.is_ok());
        assert_eq!(delivered.len(), 2, "{delivered:?}");
        let Message::Notification(open) = &delivered[0] else {
            panic!("{delivered:?}");
        };
        assert_eq!(open.params["text"], "\u{fffd}");
        let codes: Vec<_> = answered
            .iter()
            .map(|r| (&r["id"], &r["error"]["code"]))
            .collect();
        assert_eq!(
            codes,
            [(&json!(null), &json!(-32700)), (&json!(7), &json!(-32600))]
        );
    }

    #[test]
    fn a_broken_frame_ends_the_connection() {
        let input = b"Content-Length 3\r\n\r\n{}\n".to_vec();
        let read = read_messages(&mut input.as_slice(), |_| true, |_| {});
        assert_eq!(read.map_err(|e| e.kind()), Err(io::ErrorKind::InvalidData));
    }
}
