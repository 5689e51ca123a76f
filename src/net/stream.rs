//! An outgoing event stream with a bound: what is sent waits in a queue until the peer reads
//! it, and once more than [`Policy::stream_bytes`](super::Policy::stream_bytes) would wait,
//! the stream is cut off (the sender sees it closed, the response ends in an error, which
//! closes the connection) rather than buffered without end.

use hyper::body::Bytes;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// A stream and the sender that feeds it, at most `cap` bytes unread.
pub(crate) fn channel(cap: usize) -> (Sender, Receiver) {
    let (tx, rx) = unbounded_channel();
    let shared = Arc::new(Shared::default());
    (
        Sender {
            tx,
            shared: shared.clone(),
            cap,
        },
        Receiver { rx, shared },
    )
}

#[derive(Default)]
struct Shared {
    queued: AtomicUsize,
    cut: AtomicBool,
}

/// Feeds a stream.
pub(crate) struct Sender {
    tx: UnboundedSender<Bytes>,
    shared: Arc<Shared>,
    cap: usize,
}

/// Why a stream ended early: its peer left more than the cap unread.
#[derive(Debug)]
pub(crate) struct Cut;

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the peer did not read its event stream; it was cut off")
    }
}

impl std::error::Error for Cut {}

impl Sender {
    /// Queues `bytes`; `Err` when the stream is closed or cut off (now, or before).
    pub(crate) fn send(&self, bytes: Bytes) -> Result<(), Cut> {
        if self.is_closed() {
            return Err(Cut);
        }
        let queued = self.shared.queued.fetch_add(bytes.len(), Ordering::SeqCst) + bytes.len();
        if queued > self.cap {
            self.shared.cut.store(true, Ordering::SeqCst);
            // Wakes the reader, which then ends the stream.
            let _ = self.tx.send(Bytes::new());
            return Err(Cut);
        }
        self.tx.send(bytes).map_err(|_| Cut)
    }

    /// Whether the stream is gone: its peer closed it, or it was cut off.
    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed() || self.shared.cut.load(Ordering::SeqCst)
    }
}

/// Reads a stream.
pub(crate) struct Receiver {
    rx: UnboundedReceiver<Bytes>,
    shared: Arc<Shared>,
}

impl Receiver {
    /// The next bytes; an error once the stream was cut off; `None` when every sender is gone.
    pub(crate) fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Cut>>> {
        if self.shared.cut.load(Ordering::SeqCst) {
            self.rx.close();
            return Poll::Ready(Some(Err(Cut)));
        }
        self.rx.poll_recv(cx).map(|next| {
            next.map(|bytes| {
                self.shared.queued.fetch_sub(bytes.len(), Ordering::SeqCst);
                match self.shared.cut.load(Ordering::SeqCst) {
                    true => Err(Cut),
                    false => Ok(bytes),
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_nobody_reads_is_cut_off_at_its_cap() {
        let (sender, mut receiver) = channel(100);
        let chunk = Bytes::from(vec![b'x'; 40]);
        assert!(sender.send(chunk.clone()).is_ok());
        assert!(sender.send(chunk.clone()).is_ok());
        assert!(sender.send(chunk.clone()).is_err(), "past the cap");
        assert!(sender.is_closed());
        assert!(sender.send(Bytes::from_static(b"y")).is_err());
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert!(matches!(
            receiver.poll_next(&mut cx),
            Poll::Ready(Some(Err(Cut)))
        ));
    }

    #[test]
    fn what_is_read_makes_room() {
        let (sender, mut receiver) = channel(100);
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        for _ in 0..10 {
            assert!(sender.send(Bytes::from(vec![b'x'; 60])).is_ok());
            assert!(matches!(
                receiver.poll_next(&mut cx),
                Poll::Ready(Some(Ok(_)))
            ));
        }
    }
}
