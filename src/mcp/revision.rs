//! The protocol revisions served: every one with an `initialize` handshake, up to 2025-11-25.
//! 2026-07-28 (per-request `_meta` in place of `initialize`, `subscriptions/listen`) is not
//! offered, so the server answers as that revision tells a legacy server to: `server/discover`,
//! and any request that opens the stateless lifecycle, get "method not found" (an error that
//! is not one of the revision's own), and a client that speaks both falls back to
//! `initialize`.

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, GetMeta, ProtocolVersion,
    ServerJsonRpcMessage,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::borrow::Cow;

/// The newest revision `initialize` agrees to.
pub(crate) const NEWEST: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// The revisions `initialize` may agree to, oldest first.
pub(super) fn supported() -> Cow<'static, [ProtocolVersion]> {
    Cow::Borrowed(ProtocolVersion::known_up_to(&NEWEST))
}

/// The `_meta` key with which a 2026-07-28 request names its revision.
pub(super) const VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// What a request is, as far as the revision check needs to know.
pub(super) struct Opening<'a> {
    pub method: &'a str,
    /// Whether its `_meta` names a protocol revision (the 2026-07-28 lifecycle).
    pub names_revision: bool,
    /// Whether it comes after `initialize` (stdio) or inside an HTTP session.
    pub in_session: bool,
}

/// The error a request of the 2026-07-28 lifecycle gets, or `None` for any other request.
pub(super) fn refusal(request: &Opening) -> Option<ErrorData> {
    let modern = request.method == "server/discover"
        || (request.names_revision && !request.in_session && request.method != "initialize");
    modern.then(|| {
        ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "method not found: `{}` belongs to MCP 2026-07-28, which this server does not \
                 speak; send `initialize` (revisions up to {NEWEST})",
                request.method
            ),
            None,
        )
    })
}

/// A transport that answers 2026-07-28 requests itself (see [`refusal`]) and passes on the rest.
pub(super) struct LegacyOnly<T> {
    inner: T,
    initialized: bool,
}

impl<T> LegacyOnly<T> {
    pub(super) fn new(inner: T) -> Self {
        LegacyOnly {
            inner,
            initialized: false,
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for LegacyOnly<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let message = self.inner.receive().await?;
            let ClientJsonRpcMessage::Request(request) = &message else {
                return Some(message);
            };
            let opening = Opening {
                method: request.request.method(),
                names_revision: request.request.get_meta().protocol_version().is_some(),
                in_session: self.initialized,
            };
            if matches!(request.request, ClientRequest::InitializeRequest(_)) {
                self.initialized = true;
            }
            match refusal(&opening) {
                None => return Some(message),
                Some(error) => {
                    let answer = ServerJsonRpcMessage::error(error, Some(request.id.clone()));
                    // A client that hung up is seen by the next `receive`.
                    let _ = self.inner.send(answer).await;
                }
            }
        }
    }

    fn close(&mut self) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
