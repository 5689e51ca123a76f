//! The cap on open connections, and what happens at it. Each connection is admitted with a
//! way to close it ([`Gate::admit`]); when the cap is reached, the connection that has read
//! nothing for longest and is not answering a request is closed to make room: first one with
//! no request under way (silent, or a head still arriving), then one whose request body has
//! stalled for [`Policy::read_stall`] or, under way that long, has come slower on average
//! than [`Policy::read_rate`] (a body trickled a byte at a time), slowest first. A connection answering (a page being sent, an event
//! stream) is never closed for room: its writes are bounded by time instead (`super::io`).
//! Only when no connection can give way is the new one turned away.
//!
//! On loopback every peer has the same address, so a cap per peer would add nothing: making
//! room is what keeps a flood from starving an honest client.

use super::{warn, Policy};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a connection is closed from outside (shut its socket, wake its task).
type Kick = Box<dyn FnOnce() + Send>;

/// The open connections of one server.
pub(crate) struct Gate {
    policy: Policy,
    cap: usize,
    started: Instant,
    open: Mutex<HashMap<u64, Open>>,
    next: AtomicU64,
}

struct Open {
    conn: Arc<Conn>,
    kick: Option<Kick>,
}

/// What the gate knows of one connection: when it last read a byte, and what it is doing.
pub(crate) struct Conn {
    started: Instant,
    /// Milliseconds from `started` to the last byte read.
    last_read: AtomicU64,
    /// Bytes read so far.
    bytes: AtomicU64,
    /// Milliseconds from `started` to when the request under way began, and `bytes` then.
    work_began: AtomicU64,
    work_bytes: AtomicU64,
    /// Requests whose head has arrived and whose answer has not begun.
    working: AtomicUsize,
    /// Answers being written.
    answering: AtomicUsize,
}

/// A connection's place within the cap, given back when dropped.
pub(crate) struct Admitted {
    id: u64,
    conn: Arc<Conn>,
    gate: Arc<Gate>,
}

impl Gate {
    /// A gate for `policy`, its cap lowered so that the connections fit in the file
    /// descriptors the process may open (two each, with room to spare).
    pub(crate) fn new(policy: Policy) -> Arc<Gate> {
        let cap = policy.connections.min(descriptor_room()).max(1);
        Arc::new(Gate {
            policy,
            cap,
            started: Instant::now(),
            open: Mutex::default(),
            next: AtomicU64::new(0),
        })
    }

    /// The policy the gate was made with.
    pub(crate) fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Admits a new connection (`kick` closes it), making room when the cap is reached;
    /// `None` when no connection can give way (warned about at most once per period).
    pub(crate) fn admit(
        self: &Arc<Gate>,
        kick: impl FnOnce() + Send + 'static,
    ) -> Option<Admitted> {
        let conn = Arc::new(Conn {
            started: self.started,
            last_read: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            work_began: AtomicU64::new(0),
            work_bytes: AtomicU64::new(0),
            working: AtomicUsize::new(0),
            answering: AtomicUsize::new(0),
        });
        conn.read(0);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let evicted = {
            let mut open = self.lock();
            let evicted = match open.len() >= self.cap {
                true => match self.victim(&open) {
                    Some(victim) => open.remove(&victim).and_then(|o| o.kick),
                    None => {
                        drop(open);
                        let cap = self.cap;
                        warn::warn("refused-connection", self.policy.warn_every, || {
                            format!("refused a connection: all {cap} open are answering")
                        });
                        return None;
                    }
                },
                false => None,
            };
            let kick: Kick = Box::new(kick);
            open.insert(
                id,
                Open {
                    conn: conn.clone(),
                    kick: Some(kick),
                },
            );
            evicted
        };
        if let Some(kick) = evicted {
            kick();
            let cap = self.cap;
            warn::warn("closed-idle", self.policy.warn_every, || {
                format!("{cap} connections open: closed the one idle longest to make room")
            });
        }
        Some(Admitted {
            id,
            conn,
            gate: self.clone(),
        })
    }

    /// The connection to close for room: idle ones before stalled or slow ones (the one
    /// silent longest first; of those under way, the slowest); never one answering.
    fn victim(&self, open: &HashMap<u64, Open>) -> Option<u64> {
        let now = self.started.elapsed();
        (open.iter())
            .filter(|(_, o)| o.conn.answering.load(Ordering::SeqCst) == 0)
            .filter_map(|(id, o)| {
                let working = o.conn.working.load(Ordering::SeqCst) > 0;
                let rate = match working {
                    true => o.conn.slow(now, &self.policy)?,
                    false => 0,
                };
                Some(((working, rate, o.conn.since_read()), *id))
            })
            .min()
            .map(|(_, id)| id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Open>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many connections are open (tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }
}

impl Conn {
    /// Notes that `bytes` were read just now.
    pub(crate) fn read(&self, bytes: usize) {
        let now = self.started.elapsed().as_millis() as u64;
        self.last_read.fetch_max(now, Ordering::Relaxed);
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// For a request under way at `now`: its average rate in bytes a second when it has
    /// stalled for the policy's `read_stall`, or been under way that long and come slower
    /// than its `read_rate`; `None` while it is neither.
    fn slow(&self, now: Duration, policy: &Policy) -> Option<u64> {
        let began = Duration::from_millis(self.work_began.load(Ordering::Relaxed));
        let under_way = now.saturating_sub(began);
        let sent = (self.bytes.load(Ordering::Relaxed))
            .saturating_sub(self.work_bytes.load(Ordering::Relaxed));
        let rate = sent * 1000 / (under_way.as_millis() as u64).max(1);
        let stalled = now.saturating_sub(self.since_read()) >= policy.read_stall;
        let trickled = under_way >= policy.read_stall && rate < policy.read_rate as u64;
        (stalled || trickled).then_some(rate)
    }

    /// The time from the gate's start to the last byte read.
    fn since_read(&self) -> Duration {
        Duration::from_millis(self.last_read.load(Ordering::Relaxed))
    }

    /// Marks a request under way (its head arrived) until the guard is dropped.
    pub(crate) fn working(self: &Arc<Conn>) -> Mark {
        Mark::new(self.clone(), Doing::Working)
    }

    /// Marks an answer being written until the guard is dropped.
    pub(crate) fn answering(self: &Arc<Conn>) -> Mark {
        Mark::new(self.clone(), Doing::Answering)
    }
}

#[derive(Clone, Copy)]
enum Doing {
    Working,
    Answering,
}

/// What a connection is doing, for as long as this lives.
pub(crate) struct Mark {
    conn: Arc<Conn>,
    doing: Doing,
}

impl Mark {
    fn new(conn: Arc<Conn>, doing: Doing) -> Mark {
        if let Doing::Working = doing {
            let now = conn.started.elapsed().as_millis() as u64;
            conn.work_began.store(now, Ordering::Relaxed);
            (conn.work_bytes).store(conn.bytes.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        Mark::count(&conn, doing).fetch_add(1, Ordering::SeqCst);
        Mark { conn, doing }
    }

    fn count(conn: &Conn, doing: Doing) -> &AtomicUsize {
        match doing {
            Doing::Working => &conn.working,
            Doing::Answering => &conn.answering,
        }
    }
}

impl Drop for Mark {
    fn drop(&mut self) {
        Mark::count(&self.conn, self.doing).fetch_sub(1, Ordering::SeqCst);
    }
}

impl Admitted {
    pub(crate) fn conn(&self) -> &Arc<Conn> {
        &self.conn
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.gate.lock().remove(&self.id);
    }
}

/// How many connections fit in the process's file-descriptor limit: two descriptors each
/// (a socket and, for `serve`, its copy to close it by), with a quarter of the limit (at most
/// 64) kept for everything else.
fn descriptor_room() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    if got != 0 {
        return usize::MAX;
    }
    let files = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
    files.saturating_sub((files / 4).min(64)) / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn flag() -> (Arc<AtomicBool>, impl FnOnce() + Send + 'static) {
        let kicked = Arc::new(AtomicBool::new(false));
        let set = kicked.clone();
        (kicked, move || set.store(true, Ordering::SeqCst))
    }

    #[test]
    fn at_the_cap_the_idle_connection_gives_way_then_a_stalled_one_never_an_answer() {
        let policy = Policy {
            connections: 3,
            read_stall: Duration::from_millis(200),
            ..super::super::MCP
        };
        let gate = Gate::new(policy);
        let (answering_kicked, kick) = flag();
        let answering = gate.admit(kick).expect("admitted");
        let _mark = answering.conn().answering();
        let (working_kicked, kick) = flag();
        let working = gate.admit(kick).expect("admitted");
        let _work = working.conn().working();
        let (idle_kicked, kick) = flag();
        let _idle = gate.admit(kick).expect("admitted");
        // Full: the idle one gives way.
        let (_, kick) = flag();
        let newer = gate.admit(kick).expect("room made");
        assert!(idle_kicked.load(Ordering::SeqCst));
        assert_eq!(gate.len(), 3);
        // The newest is idle too: it gives way next, not the working one.
        let (_, kick) = flag();
        let _newest = gate.admit(kick).expect("room made");
        assert!(!working_kicked.load(Ordering::SeqCst));
        drop(newer);
        // Once the working one has stalled, it can give way; the answering one never.
        let _ = gate.admit(|| {}).expect("room");
        std::thread::sleep(Duration::from_millis(250));
        let filler = gate.admit(|| {}).expect("room");
        let _busy = filler.conn().answering();
        let last = gate.admit(|| {}).expect("the stalled one gives way");
        assert!(working_kicked.load(Ordering::SeqCst));
        // With every connection answering, a new one is turned away.
        let _answer = last.conn().answering();
        assert!(gate.admit(|| {}).is_none());
        assert!(!answering_kicked.load(Ordering::SeqCst));
    }
}
