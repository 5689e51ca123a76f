//! Rate-limited warnings: a flood of failed accepts or refused requests prints at most one
//! line per kind per period, with how many it stands for, never a line each.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Events of one kind since the last line printed for it.
struct Tally {
    since: Instant,
    unreported: usize,
}

/// The tallies of every kind, for the whole process (one server runs per process).
fn tallies() -> &'static Mutex<HashMap<&'static str, Tally>> {
    static TALLIES: OnceLock<Mutex<HashMap<&'static str, Tally>>> = OnceLock::new();
    TALLIES.get_or_init(Mutex::default)
}

/// Counts one event of `kind`; prints `warning: <message>` for the first at once, and then at
/// most one line per `every`, for the event that comes once the period is over, saying how
/// many the line stands for. Returns whether a line was printed.
pub(crate) fn warn(kind: &'static str, every: Duration, message: impl FnOnce() -> String) -> bool {
    let count = {
        let mut tallies = tallies().lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let tally = tallies.entry(kind).or_insert(Tally {
            since: now.checked_sub(every).unwrap_or(now),
            unreported: 0,
        });
        tally.unreported += 1;
        if now.duration_since(tally.since) < every {
            return false;
        }
        tally.since = now;
        std::mem::take(&mut tally.unreported)
    };
    let times = match count {
        1 => String::new(),
        n => format!(" ({n} times in {every:?})"),
    };
    // Printed outside the lock: a blocked stderr holds up no other connection's tally.
    let _ = writeln!(std::io::stderr().lock(), "warning: {}{times}", message());
    true
}

/// A request refused (`why`).
pub(crate) fn refused(why: &str, every: Duration) {
    warn("refused-request", every, || {
        format!("refused a request: {why}")
    });
}

/// An accept that failed (out of file descriptors, say).
pub(crate) fn accept_failed(error: &std::io::Error, every: Duration) {
    warn("accept-failed", every, || {
        format!("could not accept a connection ({error}); backing off")
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_period_with_the_count() {
        let every = Duration::from_millis(300);
        let started = Instant::now();
        let mut events = 0;
        let mut lines = Vec::new();
        while started.elapsed() < Duration::from_millis(700) {
            events += 1;
            if warn("test-kind", every, String::new) {
                lines.push(events);
            }
        }
        assert!(events > 100, "{events} events");
        assert!((2..=3).contains(&lines.len()), "{lines:?}");
        assert_eq!(lines.first(), Some(&1));
    }
}
