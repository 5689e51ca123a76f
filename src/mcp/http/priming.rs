//! The SSE priming event per session (SEP-1699): sessions of 2025-11-25 and later get it
//! (an event with an id and empty data, carrying `retry`, first on each stream), sessions of
//! older revisions get none, since their clients parse every event's data as JSON-RPC and
//! some fail on the empty one (Gemini CLI 0.61 on 2025-06-18). rmcp primes every session
//! alike, so its streams pass through [`Primed`], which drops the priming events of the
//! sessions that must not see them.

use super::super::revision;
use futures_core::Stream;
use rmcp::model::{ServerJsonRpcMessage, ServerResult};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// How long a client waits before it reconnects a stream that closed (rmcp's default).
pub(crate) const RETRY: Duration = Duration::from_secs(3);

/// Whether the answer to `initialize` opens a session that is primed: the revision it
/// agreed to is 2025-11-25 or later. An answer that is not a result primes nothing.
pub(super) fn primes_after(answer: &ServerJsonRpcMessage) -> bool {
    match answer {
        ServerJsonRpcMessage::Response(response) => match &response.result {
            ServerResult::InitializeResult(result) => {
                revision::primes(result.protocol_version.as_str())
            }
            _ => false,
        },
        _ => false,
    }
}

/// A session's stream, with its priming events dropped unless the session is primed.
pub(crate) struct Primed<S> {
    inner: Pin<Box<S>>,
    primes: bool,
}

impl<S> Primed<S> {
    pub(super) fn new(inner: S, primes: bool) -> Self {
        Primed {
            inner: Box::pin(inner),
            primes,
        }
    }
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Primed<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            match self.inner.as_mut().poll_next(cx) {
                // A priming event carries no message.
                Poll::Ready(Some(event)) if event.message.is_none() && !self.primes => continue,
                other => return other,
            }
        }
    }
}

/// The stream a client opens with GET, primed first when its session is (rmcp primes only
/// the streams that answer a POST).
pub(super) fn standalone<S>(inner: S, primes: bool) -> impl Stream<Item = ServerSseMessage>
where
    S: Stream<Item = ServerSseMessage>,
{
    Leading {
        first: primes.then(|| ServerSseMessage::priming("0", RETRY)),
        rest: Box::pin(inner),
    }
}

/// One event, then a stream.
struct Leading<S> {
    first: Option<ServerSseMessage>,
    rest: Pin<Box<S>>,
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Leading<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(first));
        }
        self.rest.as_mut().poll_next(cx)
    }
}
