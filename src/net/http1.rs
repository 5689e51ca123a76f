//! The accept loop and HTTP/1.1 connection setup shared by `mcp --http` and `probe http`:
//! accepting backs off (and says so once per period) when it fails, e.g. with no file
//! descriptors left, instead of spinning; each connection passes the [`Gate`]; its head must
//! arrive within [`Policy::head_time`] and fit in [`Policy::header_bytes`]; its reads and
//! writes are watched ([`Watched`]); and [`check`] applies the `Host`/`Origin` rule of
//! [`super::origin`] to a request.

use super::gate::{Gate, Mark};
use super::io::Watched;
use super::{origin, warn};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// How long the accept loop pauses after a failed accept.
const BACK_OFF: Duration = Duration::from_millis(100);

/// Serves `listener` with `handle` until `stop` resolves: every connection within the
/// gate's policy, each on a task of its own.
pub(crate) async fn serve<H, F, B>(
    listener: TcpListener,
    gate: Arc<Gate>,
    stop: impl Future<Output = ()>,
    handle: H,
) where
    H: Fn(Request<Incoming>) -> F + Clone + Send + 'static,
    F: Future<Output = Response<B>> + Send + 'static,
    B: Body + Unpin + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    tokio::pin!(stop);
    let policy = *gate.policy();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                warn::accept_failed(&error, policy.warn_every);
                tokio::time::sleep(BACK_OFF).await;
                continue;
            }
        };
        let kicked = Arc::new(Notify::new());
        let kick = kicked.clone();
        let Some(admitted) = gate.admit(move || kick.notify_one()) else {
            continue;
        };
        let handle = handle.clone();
        tokio::spawn(async move {
            let conn = admitted.conn().clone();
            let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                let handle = handle.clone();
                let conn = conn.clone();
                request.extensions_mut().insert(Peer(peer));
                async move {
                    let working = conn.working();
                    let response = handle(request).await;
                    drop(working);
                    let mark = conn.answering();
                    Ok::<_, Infallible>(response.map(|body| Marked { body, _mark: mark }))
                }
            });
            let io = TokioIo::new(Watched::new(stream, admitted.conn().clone(), &policy));
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(policy.head_time)
                .max_buf_size(policy.header_bytes.max(8192))
                .serve_connection(io, service);
            // A peer that goes away mid-request is no error of the server's; one closed for
            // room is dropped here, which closes its socket.
            tokio::select! {
                _ = connection => {}
                () = kicked.notified() => {}
            }
            drop(admitted);
        });
    }
}

/// The address of the connection a request came on, which [`serve`] puts in its extensions.
#[derive(Debug, Clone, Copy)]
struct Peer(SocketAddr);

/// The address of the connection `request` came on (each connection has its own port), or
/// the unspecified address for a request [`serve`] did not accept.
pub(crate) fn peer<T>(request: &Request<T>) -> SocketAddr {
    request
        .extensions()
        .get::<Peer>()
        .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |peer| peer.0)
}

/// A response body that keeps its connection marked as answering until it is sent or
/// dropped.
struct Marked<B> {
    body: B,
    _mark: Mark,
}

impl<B: Body + Unpin> Body for Marked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Why `request` may not be answered (its `Host`, its target's host, or its `Origin` is not
/// this machine, see [`origin::check`]), or `Ok`.
pub(crate) fn check<B>(request: &Request<B>, bind: IpAddr) -> Result<(), String> {
    let values = |name: &str| -> Result<Vec<&str>, String> {
        (request.headers().get_all(name).iter())
            .map(|value| {
                value
                    .to_str()
                    .map_err(|_| format!("a {name} header that is not text"))
            })
            .collect()
    };
    let hosts = values("host")?;
    let origins = values("origin")?;
    let origin = match origins.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => return Err("more than one Origin header".to_string()),
    };
    let authority = request.uri().authority().map(|a| a.as_str());
    origin::check(&hosts, authority, origin, bind)
}
