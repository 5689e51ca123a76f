//! Requests no session has taken, kept per connection: a refused `POST`, a `GET` without a
//! session, a `server/discover` a current server refuses. A session begun on the same
//! connection (or, from the same User-Agent, within [`CLAIM_WINDOW`]) takes them as its first
//! lines; otherwise they are written as an observation of their own, `outcome: no-session`.
//! A connection's requests join another's only from the same User-Agent within
//! [`CLAIM_WINDOW`] (a client retrying on a new connection); bounded: at most
//! [`MAX_ATTEMPTS`] groups are kept apart, the rest share one flood record.

use super::Hub;
use crate::probe::session::{Session, Transport};
use crate::probe::transcript::{Entry, Record, Transcript};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// How many connections' refused requests are kept apart; the rest go to the flood record.
pub(crate) const MAX_ATTEMPTS: usize = 16;
/// The most one connection's refused requests keep, in transcript bytes.
const ATTEMPT_BYTES: usize = 256 << 10;
/// How soon after its last refused request a session from the same User-Agent on another
/// connection takes them (a client that falls back opens its stream at once).
pub(crate) const CLAIM_WINDOW: Duration = Duration::from_secs(10);

/// One connection's requests before (or without) a session.
pub(crate) struct Attempt {
    pub session: Session,
    pub user_agent: Option<String>,
}

/// Every connection's unclaimed requests, and the flood record past the cap.
#[derive(Default)]
pub(crate) struct Attempts {
    by_peer: BTreeMap<SocketAddr, Attempt>,
    /// Connections whose requests joined another connection's attempt: the same User-Agent
    /// within [`CLAIM_WINDOW`] of its last request (a client retrying on a new connection).
    alias: BTreeMap<SocketAddr, SocketAddr>,
    flood: Option<Attempt>,
    /// Requests the flood record counted.
    flooded: usize,
}

impl Attempts {
    /// The attempt of `peer`, made if new (past the cap: the flood record).
    pub fn of(&mut self, hub: &Hub, peer: SocketAddr, user_agent: Option<&str>) -> &mut Session {
        let new = |note: Option<String>| {
            let mut session = Session::new(Transport::StreamableHttp, hub.settings);
            session.transcript = Transcript::with_limit(ATTEMPT_BYTES);
            if let Some(note) = note {
                session.note(note);
            }
            Attempt {
                session,
                user_agent: user_agent.map(str::to_string),
            }
        };
        let now = Instant::now();
        let peer = match self
            .alias
            .get(&peer)
            .filter(|p| self.by_peer.contains_key(*p))
        {
            Some(joined) => *joined,
            None if !self.by_peer.contains_key(&peer) && user_agent.is_some() => {
                let same = (self.by_peer.iter())
                    .filter(|(_, a)| {
                        a.user_agent.as_deref() == user_agent
                            && now.duration_since(a.session.last_heard) <= CLAIM_WINDOW
                    })
                    .max_by_key(|(_, a)| a.session.last_heard)
                    .map(|(p, _)| *p);
                match same {
                    Some(joined) => {
                        if self.alias.len() >= 1024 {
                            self.alias.clear();
                        }
                        self.alias.insert(peer, joined);
                        joined
                    }
                    None => peer,
                }
            }
            None => peer,
        };
        if self.by_peer.contains_key(&peer) || self.by_peer.len() < MAX_ATTEMPTS {
            let attempt = self.by_peer.entry(peer).or_insert_with(|| new(None));
            attempt.session.last_heard = now;
            return &mut attempt.session;
        }
        self.flooded += 1;
        let flood = self.flood.get_or_insert_with(|| {
            new(Some(format!(
                "flood: more than {MAX_ATTEMPTS} connections sent requests without a session; \
                 the requests of the others are kept here, in one record"
            )))
        });
        flood.session.last_heard = Instant::now();
        &mut flood.session
    }

    /// Keeps `session`, which the probe ended, as `peer`'s attempt: a session the client
    /// begins next (on that connection, or from the same User-Agent within [`CLAIM_WINDOW`])
    /// takes its lines, so one observation shows the end and what the client did after.
    pub fn adopt(
        &mut self,
        hub: &Hub,
        peer: SocketAddr,
        user_agent: Option<&str>,
        mut session: Session,
    ) {
        session.last_heard = Instant::now();
        if let Some(mut before) = self.by_peer.remove(&peer) {
            // That connection's refused requests join it, in time order.
            hub.writer.remove(&mut before.session);
            let mut records = session.transcript.take();
            records.extend(before.session.transcript.take());
            records.sort_by(|a, b| a.t.cmp(&b.t));
            session.transcript.absorb(records);
        }
        let user_agent = user_agent.map(str::to_string);
        self.by_peer.insert(
            peer,
            Attempt {
                session,
                user_agent,
            },
        );
    }

    /// Records `entry` as a request of `peer`'s.
    pub fn push(&mut self, hub: &Hub, peer: SocketAddr, user_agent: Option<&str>, entry: Entry) {
        self.of(hub, peer, user_agent).transcript.push(entry);
    }

    /// The requests a session begun on `peer` takes: that connection's, else the newest of the
    /// same User-Agent within [`CLAIM_WINDOW`]. What was already written of them is removed.
    pub fn claim(&mut self, hub: &Hub, peer: SocketAddr, user_agent: Option<&str>) -> Vec<Record> {
        let now = Instant::now();
        let peer = self.alias.get(&peer).copied().unwrap_or(peer);
        let key = if self.by_peer.contains_key(&peer) {
            Some(peer)
        } else {
            (self.by_peer.iter())
                .filter(|(_, a)| {
                    a.user_agent.is_some()
                        && a.user_agent.as_deref() == user_agent
                        && now.duration_since(a.session.last_heard) <= CLAIM_WINDOW
                })
                .max_by_key(|(_, a)| a.session.last_heard)
                .map(|(k, _)| *k)
        };
        let Some(mut attempt) = key.and_then(|k| self.by_peer.remove(&k)) else {
            return Vec::new();
        };
        hub.writer.remove(&mut attempt.session);
        attempt.session.transcript.take()
    }

    /// Every kept attempt and the flood record.
    fn all(&mut self) -> impl Iterator<Item = &mut Attempt> {
        self.by_peer.values_mut().chain(self.flood.as_mut())
    }

    /// Writes attempts quiet for `quiet` as no-session observations; drops those idle past
    /// the limit (written first).
    pub fn tick(&mut self, hub: &Hub, now: Instant) {
        self.name_flood();
        for attempt in self.all() {
            let session = &mut attempt.session;
            let idle = session.is_idle(now);
            if session.dirty && (idle || session.is_quiet(now, hub.quiet)) {
                hub.write(session);
            }
        }
        self.by_peer.retain(|_, a| !a.session.is_idle(now));
        if self.flood.as_ref().is_some_and(|f| f.session.is_idle(now)) {
            self.flood = None;
        }
    }

    /// Writes every attempt with something new (the probe is stopping).
    pub fn write_all(&mut self, hub: &Hub) {
        self.name_flood();
        for attempt in self.all() {
            if attempt.session.dirty {
                hub.write(&mut attempt.session);
            }
        }
    }

    /// The flood record is named `flood`, its version the number of requests it counted.
    fn name_flood(&mut self) {
        let flooded = self.flooded;
        if let Some(flood) = self.flood.as_mut().filter(|f| f.session.dirty) {
            flood.session.client_info = Some(serde_json::json!({
                "name": "flood",
                "version": flooded.to_string(),
            }));
        }
    }

    /// The transcript bytes held.
    pub fn bytes(&self) -> usize {
        (self.by_peer.values().chain(self.flood.as_ref()))
            .map(|a| a.session.transcript.bytes())
            .sum()
    }
}
