//! How many peers the HTTP server takes, and how long they may take: a cap on open
//! connections (past it a new one is closed at once), a deadline for a request's headers, and
//! an accept loop that backs off when accepting fails (out of file descriptors) and says so
//! once per [`REPORT_EVERY`] rather than once per failure.

use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The most connections open at once (a session's event stream holds one).
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// A connection that has not sent a request's headers within this is closed.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the accept loop pauses after a failed accept.
const BACK_OFF: Duration = Duration::from_millis(100);

/// Failed accepts, and connections refused past the cap, are reported at most this often.
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// Admits connections up to a cap and reports what it turned away.
pub(super) struct Gate {
    open: std::sync::Arc<Semaphore>,
    failed: Tally,
    refused: Tally,
}

impl Gate {
    pub(super) fn new(cap: usize) -> Gate {
        Gate {
            open: std::sync::Arc::new(Semaphore::new(cap)),
            failed: Tally::default(),
            refused: Tally::default(),
        }
    }

    /// The next connection within the cap, with the permit that holds its place; `None`
    /// after a failed accept (after a pause) or a connection refused past the cap.
    pub(super) async fn accept(
        &mut self,
        listener: &TcpListener,
    ) -> Option<(TcpStream, OwnedSemaphorePermit)> {
        match listener.accept().await {
            Ok((stream, _)) => match self.open.clone().try_acquire_owned() {
                Ok(permit) => Some((stream, permit)),
                Err(_) => {
                    drop(stream);
                    let cap = MAX_CONNECTIONS;
                    self.refused
                        .count(|n| format!("refused {n} connection(s): {cap} are open already"));
                    None
                }
            },
            Err(error) => {
                self.failed
                    .count(|n| format!("could not accept {n} connection(s) (last: {error})"));
                tokio::time::sleep(BACK_OFF).await;
                None
            }
        }
    }
}

/// Events of one kind, printed as one warning per [`REPORT_EVERY`].
#[derive(Default)]
struct Tally {
    since: Option<Instant>,
    unreported: usize,
}

impl Tally {
    /// Counts one event; prints the first at once, and those after it summed up in one line
    /// once the period is over (`message` gets how many the line stands for).
    fn count(&mut self, message: impl Fn(usize) -> String) {
        self.unreported += 1;
        let now = Instant::now();
        let due = self
            .since
            .is_none_or(|since| now.duration_since(since) >= REPORT_EVERY);
        if due {
            eprintln!("warning: {}", message(self.unreported));
            self.unreported = 0;
            self.since = Some(now);
        }
    }
}
