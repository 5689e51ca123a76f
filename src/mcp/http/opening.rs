//! Every HTTP request before rmcp sees it: a POST's body is read once, within [`MAX_BODY`]
//! bytes and [`BODY_TIMEOUT`], so that a slow or huge body cannot hold a connection.

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

/// Answers one HTTP request through rmcp, a POST's body read within the bounds first.
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
    service
        .handle(Request::from_parts(parts, Full::new(body)))
        .await
}

fn plain(status: StatusCode, message: String) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response
}
