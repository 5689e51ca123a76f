//! Every HTTP request before rmcp sees it: a POST's body is read once, within [`MAX_BODY`]
//! bytes and [`BODY_TIMEOUT`], and a request of the 2026-07-28 lifecycle (not offered, see
//! `super::super::revision`) is answered here with 400 and a JSON-RPC "method not found", as
//! that revision's backward-compatibility rules expect of a server that predates it.

use super::super::revision::{self, Opening};
use super::Mcp;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;
use std::time::Duration;

/// The largest request body read (rmcp's own limit too).
pub(super) const MAX_BODY: usize = 4 * 1024 * 1024;

/// A body not sent in full within this is refused.
pub(super) const BODY_TIMEOUT: Duration = Duration::from_secs(30);

type Answer = Response<BoxBody<Bytes, Infallible>>;

/// Answers one HTTP request: 2026-07-28 openings here, everything else through rmcp.
pub(super) async fn handle(service: &Mcp, request: Request<Incoming>) -> Answer {
    if request.method() != Method::POST {
        return service.handle(request).await;
    }
    let (parts, body) = request.into_parts();
    let body =
        match tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY).collect()).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(_)) => {
                return plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body is cut off or over {MAX_BODY} bytes"),
                )
            }
            Err(_) => {
                return plain(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("the request body was not sent within {BODY_TIMEOUT:?}"),
                )
            }
        };
    let in_session = parts.headers.contains_key("mcp-session-id");
    if let Some(refused) = refused(&body, in_session) {
        return refused;
    }
    service
        .handle(Request::from_parts(parts, Full::new(body)))
        .await
}

/// The answer to a JSON-RPC request of the 2026-07-28 lifecycle; `None` for anything else
/// (including bodies that are not JSON: rmcp says what is wrong with those).
fn refused(body: &[u8], in_session: bool) -> Option<Answer> {
    let message: serde_json::Value = serde_json::from_slice(body).ok()?;
    let method = message.get("method")?.as_str()?;
    let id = message.get("id")?.clone();
    let names_revision = message
        .pointer("/params/_meta")
        .and_then(|meta| meta.get(revision::VERSION_META))
        .is_some();
    let error = revision::refusal(&Opening {
        method,
        names_revision,
        in_session,
    })?;
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error});
    Some(
        Response::builder()
            .status(StatusCode::BAD_REQUEST)
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(answer.to_string())).boxed())
            .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()).boxed())),
    )
}

fn plain(status: StatusCode, message: String) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response
}
