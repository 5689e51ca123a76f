//! A connection as the async servers read and write it: each byte read is reported to the
//! gate (so it knows who is silent), and a write the peer does not take within
//! [`Policy::write_stall`] fails, which closes the connection: a peer that never reads its
//! event stream loses it instead of holding its place and its buffers for good.

use super::gate::Conn;
use super::Policy;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `inner`, watched.
pub(crate) struct Watched<T> {
    inner: T,
    conn: Arc<Conn>,
    write_stall: Duration,
    /// Armed while a write waits for the peer.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<T> Watched<T> {
    pub(crate) fn new(inner: T, conn: Arc<Conn>, policy: &Policy) -> Watched<T> {
        Watched {
            inner,
            conn,
            write_stall: policy.write_stall,
            stalled: None,
        }
    }

    /// What a pending write becomes: still pending, or an error once it has waited too long.
    fn waiting<R>(
        &mut self,
        cx: &mut Context<'_>,
        done: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if done.is_ready() {
            self.stalled = None;
            return done;
        }
        let stall = self.write_stall;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the peer read nothing for {stall:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.conn.read(buf.filled().len() - before);
        }
        read
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_write(cx, data);
        this.waiting(cx, done)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_write_vectored(cx, data);
        this.waiting(cx, done)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_flush(cx);
        this.waiting(cx, done)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.waiting(cx, done)
    }
}
