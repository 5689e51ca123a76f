//! Live reload: the Server-Sent Events hub that tells open pages the site was rebuilt. Each
//! open stream holds at most [`QUEUED`] events its page has not read (the connection
//! policy's `stream_bytes`, an event being well under 1 KiB); a page that falls further
//! behind is dropped, and a write it does not read within the policy's `write_stall` ends it.

use std::io::Write;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Mutex;
use std::time::Duration;

/// How often an idle stream sends a comment, so a closed tab is noticed and dropped.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// Events an open stream may hold unread.
const QUEUED: usize = crate::net::SERVE.stream_bytes / 1024;

/// The open event streams; each rebuild is sent to all of them.
#[derive(Default)]
pub struct Hub {
    subscribers: Mutex<Vec<SyncSender<String>>>,
}

impl Hub {
    /// A new stream that receives every event sent from now on.
    pub fn subscribe(&self) -> Receiver<String> {
        let (tx, rx) = mpsc::sync_channel(QUEUED);
        self.lock().push(tx);
        rx
    }

    /// Sends `event` (an SSE event name) with `data` (one line) to every open stream,
    /// dropping those whose page has gone or has fallen [`QUEUED`] events behind.
    pub fn send(&self, event: &str, data: &str) {
        let message = format!("event: {event}\ndata: {}\n\n", data.replace('\n', " "));
        self.lock().retain(|tx| match tx.try_send(message.clone()) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
        });
    }

    /// How many streams are open (tests).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<SyncSender<String>>> {
        // A panic while holding the lock leaves a plain list behind: still usable.
        self.subscribers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Writes an event stream to `writer` (the raw connection) until the page goes away or the
/// hub is dropped: the response head, then each event as it comes, flushed at once.
pub fn stream(mut writer: impl Write, events: &Receiver<String>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\
                X-Content-Type-Options: nosniff\r\n\r\nretry: 1000\n\n";
    if writer
        .write_all(head.as_bytes())
        .and_then(|_| writer.flush())
        .is_err()
    {
        return;
    }
    loop {
        let chunk = match events.recv_timeout(KEEPALIVE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => ": keepalive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if writer
            .write_all(chunk.as_bytes())
            .and_then(|_| writer.flush())
            .is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_reach_every_open_stream_and_closed_ones_go() {
        let hub = Hub::default();
        let a = hub.subscribe();
        let b = hub.subscribe();
        drop(b);
        hub.send("reload", "1");
        assert_eq!(hub.len(), 1);
        assert_eq!(a.try_recv().as_deref(), Ok("event: reload\ndata: 1\n\n"));
    }

    #[test]
    fn a_stream_that_falls_behind_is_dropped() {
        let hub = Hub::default();
        let _unread = hub.subscribe();
        for n in 0..QUEUED {
            hub.send("status", &n.to_string());
        }
        assert_eq!(hub.len(), 1);
        hub.send("status", "one more");
        assert_eq!(hub.len(), 0);
    }
}
