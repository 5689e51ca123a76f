//! The probe on standard input and output: one session, newline-delimited JSON-RPC, read
//! with a bound on each line; what falls due (questions, list changes) is sent when its time
//! comes; written at each quiet spell and when the client goes (end of input, SIGINT,
//! SIGTERM, SIGHUP) or stays silent past the idle limit.

use super::observation::Writer;
use super::session::{Session, Transport};
use super::settings::Settings;
use super::transcript::{quote, MAX_MESSAGE_BYTES};
use crate::error::{Error, Result};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt};
use tokio::signal::unix::{signal, SignalKind};

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    Message(Vec<u8>),
    /// A line over the limit: its length and first bytes (the rest was not kept).
    TooLong(usize, Vec<u8>),
    Eof,
}

/// Reads lines of at most `limit` bytes, keeping no more than that of a longer one. Its
/// state lives here, not in the future, so a read dropped by `select!` loses nothing.
#[derive(Debug)]
pub(crate) struct LineReader {
    limit: usize,
    line: Vec<u8>,
    /// The length of the line so far, once it is over the limit.
    over: Option<usize>,
}

impl LineReader {
    pub fn new(limit: usize) -> LineReader {
        LineReader {
            limit,
            line: Vec::new(),
            over: None,
        }
    }

    pub async fn next(&mut self, input: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Line> {
        loop {
            let data = input.fill_buf().await?;
            if data.is_empty() {
                return Ok(if self.line.is_empty() && self.over.is_none() {
                    Line::Eof
                } else {
                    self.finish()
                });
            }
            let (chunk, used, done) = match data.iter().position(|b| *b == b'\n') {
                Some(at) => (&data[..at], at + 1, true),
                None => (data, data.len(), false),
            };
            match &mut self.over {
                Some(length) => *length += chunk.len(),
                None if self.line.len() + chunk.len() > self.limit => {
                    self.over = Some(self.line.len() + chunk.len());
                    let room = 200usize.saturating_sub(self.line.len());
                    self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                }
                None => self.line.extend_from_slice(chunk),
            }
            input.consume(used);
            if done {
                return Ok(self.finish());
            }
        }
    }

    fn finish(&mut self) -> Line {
        let line = std::mem::take(&mut self.line);
        match self.over.take() {
            Some(length) => Line::TooLong(length, line),
            None => Line::Message(line),
        }
    }
}

/// Serves one client until it goes, writing its observation at each quiet spell and at the end.
pub(crate) async fn serve(writer: &Writer, settings: Settings, quiet: Duration) -> Result<()> {
    let signals =
        |kind| signal(kind).map_err(|e| Error::io("signal handler", "listen for signals", e));
    let mut terminate = signals(SignalKind::terminate())?;
    let mut interrupt = signals(SignalKind::interrupt())?;
    let mut hangup = signals(SignalKind::hangup())?;
    let mut input = tokio::io::BufReader::new(tokio::io::stdin());
    let mut output = tokio::io::stdout();
    let mut reader = LineReader::new(MAX_MESSAGE_BYTES);
    let mut session = Session::new(Transport::Stdio, settings);
    loop {
        let now = Instant::now();
        let deadline = session.next_deadline(now, quiet);
        let wait = tokio::time::sleep_until(deadline.into());
        let end = tokio::select! {
            line = reader.next(&mut input) => match line {
                Ok(Line::Message(bytes)) if bytes.iter().all(u8::is_ascii_whitespace) => None,
                Ok(Line::Message(bytes)) => {
                    let mut replies = session.receive_bytes(&bytes);
                    session.due(Instant::now());
                    replies.extend(session.drain_outbound());
                    send(&mut output, &replies).await.err().map(|e| format!("could not write to stdout ({e}): the client is gone"))
                }
                Ok(Line::TooLong(length, head)) => {
                    session.note(format!(
                        "line of {length} bytes over the {MAX_MESSAGE_BYTES}-byte limit, not read; it began: {}",
                        quote(&head)
                    ));
                    None
                }
                Ok(Line::Eof) => Some("client closed stdin".to_string()),
                Err(e) => Some(format!("could not read stdin ({e})")),
            },
            _ = terminate.recv() => Some("probe received SIGTERM".to_string()),
            _ = interrupt.recv() => Some("probe received SIGINT".to_string()),
            _ = hangup.recv() => Some("probe received SIGHUP".to_string()),
            () = wait => {
                let now = Instant::now();
                session.expire(now);
                session.due(now);
                let due = session.drain_outbound();
                let gone = send(&mut output, &due).await.err();
                if session.is_quiet(now, quiet) && session.dirty {
                    say(writer.write(&mut session)?);
                }
                match gone {
                    Some(e) => Some(format!("could not write to stdout ({e}): the client is gone")),
                    None if session.is_idle(now) => Some(format!(
                        "idle limit: the client sent nothing for {} ms; the probe ended the session",
                        settings.idle.as_millis()
                    )),
                    None => None,
                }
            }
        };
        if let Some(reason) = end {
            session.note(reason);
            break;
        }
    }
    say(writer.write(&mut session)?);
    Ok(())
}

/// Writes each message as one line, then flushes.
async fn send(
    output: &mut tokio::io::Stdout,
    messages: &[serde_json::Value],
) -> std::io::Result<()> {
    if messages.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    for message in messages {
        text.push_str(&message.to_string());
        text.push('\n');
    }
    output.write_all(text.as_bytes()).await?;
    output.flush().await
}

/// Says on standard error where an observation was written.
pub(crate) fn say(path: Option<std::path::PathBuf>) {
    if let Some(path) = path {
        eprintln!("fieldnotes probe: wrote {}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_a_last_line_without_newline_counts() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let input = format!("{{\"a\":1}}\n{}\nlast", "x".repeat(50));
            let mut input = tokio::io::BufReader::with_capacity(8, input.as_bytes());
            let mut reader = LineReader::new(20);
            assert_eq!(
                reader.next(&mut input).await.expect("read"),
                Line::Message(b"{\"a\":1}".to_vec())
            );
            match reader.next(&mut input).await.expect("read") {
                Line::TooLong(50, head) => assert!(head.len() <= 200 && head.starts_with(b"xxxx")),
                other => panic!("{other:?}"),
            }
            assert_eq!(
                reader.next(&mut input).await.expect("read"),
                Line::Message(b"last".to_vec())
            );
            assert_eq!(reader.next(&mut input).await.expect("read"), Line::Eof);
        });
    }
}
