//! The probe's HTTP response bodies: one whole body, or an event stream fed by a channel.

use hyper::body::{Bytes, Frame};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// A response body.
pub(crate) enum Body {
    Whole(Option<Bytes>),
    /// Server-sent events, as they are sent; ends when every sender is gone.
    Events(UnboundedReceiver<Bytes>),
}

impl Body {
    pub fn empty() -> Body {
        Body::Whole(None)
    }

    pub fn text(text: impl Into<String>) -> Body {
        Body::Whole(Some(Bytes::from(text.into())))
    }

    /// An event stream and the sender that feeds it.
    pub fn events() -> (UnboundedSender<Bytes>, Body) {
        let (sender, receiver) = unbounded_channel();
        (sender, Body::Events(receiver))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Body::Whole(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Body::Events(receiver) => receiver
                .poll_recv(cx)
                .map(|b| b.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Whole(None))
    }
}

/// One server-sent event: `event: <name>` (when named) and its data.
pub(crate) fn event(name: Option<&str>, data: &str) -> Bytes {
    let mut text = String::new();
    if let Some(name) = name {
        text.push_str("event: ");
        text.push_str(name);
        text.push('\n');
    }
    for line in data.lines() {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    Bytes::from(text)
}

/// A comment line that keeps a stream alive, and shows whether the client is still there.
pub(crate) fn keep_alive() -> Bytes {
    Bytes::from_static(b": keep-alive\n\n")
}
