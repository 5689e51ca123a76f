//! The probe's HTTP response bodies: one whole body, or an event stream fed by a channel
//! that holds at most the connection policy's `stream_bytes` unread (`crate::net::stream`):
//! a client that never reads its stream has it cut off.

use crate::net::stream::{self, Cut};
use hyper::body::{Bytes, Frame};
use std::pin::Pin;
use std::task::{Context, Poll};

/// What feeds an event stream.
pub(crate) type EventSender = stream::Sender;

/// A response body.
pub(crate) enum Body {
    Whole(Option<Bytes>),
    /// Server-sent events, as they are sent; ends when every sender is gone.
    Events(stream::Receiver),
}

impl Body {
    pub fn empty() -> Body {
        Body::Whole(None)
    }

    pub fn text(text: impl Into<String>) -> Body {
        Body::Whole(Some(Bytes::from(text.into())))
    }

    /// An event stream and the sender that feeds it.
    pub fn events() -> (EventSender, Body) {
        let (sender, receiver) = stream::channel(crate::net::PROBE.stream_bytes);
        (sender, Body::Events(receiver))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Cut;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Cut>>> {
        match self.get_mut() {
            Body::Whole(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Body::Events(receiver) => receiver
                .poll_next(cx)
                .map(|b| b.map(|b| b.map(Frame::data))),
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
