//! The HTTP sessions (of the revisions with `initialize`), bounded: rmcp's in-memory
//! sessions, each closed after [`IDLE`] without a request, and past [`MAX_SESSIONS`] the one
//! idle longest closed to make room (its client gets 404 and, as the specification asks,
//! starts a new session). Each session's streams are primed as its revision expects
//! ([`super::priming`]).

use super::priming::{self, Primed};
use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionConfig,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most sessions open at once (each holds ~65 KB: 20,000 took 1.3 GB).
pub(crate) const MAX_SESSIONS: usize = 64;

/// A session with no request for this long is closed.
pub(crate) const IDLE: Duration = Duration::from_secs(10 * 60);

/// rmcp's session manager, with a cap, the time each session was last used, and whether it
/// is primed.
pub(crate) struct CappedSessions {
    inner: LocalSessionManager,
    used: Mutex<HashMap<SessionId, Instant>>,
    primed: Mutex<HashMap<SessionId, bool>>,
    cap: usize,
}

impl CappedSessions {
    /// Sessions that close when idle, their streams primed per revision.
    pub(super) fn new(cap: usize) -> Self {
        let mut inner = LocalSessionManager::default();
        let mut config = SessionConfig::default();
        config.keep_alive = Some(IDLE);
        config.sse_retry = Some(priming::RETRY);
        inner.session_config = config;
        CappedSessions {
            inner,
            used: Mutex::default(),
            primed: Mutex::default(),
            cap,
        }
    }

    fn touch(&self, id: &SessionId) {
        if let Ok(mut used) = self.used.lock() {
            if let Some(at) = used.get_mut(id) {
                *at = Instant::now();
            }
        }
    }

    /// Whether the session's streams carry priming events (not before it is initialized).
    fn primes(&self, id: &SessionId) -> bool {
        self.primed
            .lock()
            .is_ok_and(|primed| primed.get(id).copied().unwrap_or(false))
    }

    fn forget(&self, id: &SessionId) {
        if let Ok(mut used) = self.used.lock() {
            used.remove(id);
        }
        if let Ok(mut primed) = self.primed.lock() {
            primed.remove(id);
        }
    }

    /// Records a new session; returns the sessions to close to stay within the cap: those
    /// rmcp already closed (idle), then the least recently used.
    async fn admit(&self, id: &SessionId) -> Vec<SessionId> {
        let open = self.inner.sessions.read().await;
        let Ok(mut used) = self.used.lock() else {
            return Vec::new();
        };
        used.retain(|id, _| open.contains_key(id));
        if let Ok(mut primed) = self.primed.lock() {
            primed.retain(|id, _| open.contains_key(id));
        }
        used.insert(id.clone(), Instant::now());
        let mut by_age: Vec<(Instant, SessionId)> =
            used.iter().map(|(id, at)| (*at, id.clone())).collect();
        by_age.sort();
        let excess = used.len().saturating_sub(self.cap);
        let evicted: Vec<SessionId> = by_age.into_iter().take(excess).map(|(_, id)| id).collect();
        for id in &evicted {
            used.remove(id);
        }
        evicted
    }
}

impl SessionManager for CappedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        for old in self.admit(&id).await {
            // Closing a session that closed itself meanwhile is no error.
            let _ = self.inner.close_session(&old).await;
        }
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        let answer = self.inner.initialize_session(id, message).await?;
        if let Ok(mut primed) = self.primed.lock() {
            primed.insert(id.clone(), priming::primes_after(&answer));
        }
        Ok(answer)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.forget(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        let stream = self.inner.create_stream(id, message).await?;
        Ok(Primed::new(stream, self.primes(id)))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(priming::standalone(stream, self.primes(id)))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(Primed::new(stream, self.primes(id)))
    }
}
