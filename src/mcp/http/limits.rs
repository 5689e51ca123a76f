//! How many peers the HTTP server takes and how long they may take: the shared connection
//! policy [`crate::net::MCP`], applied by [`crate::net::http1::serve`] (a cap on open
//! connections that closes the one idle longest to make room, a deadline for a request's
//! headers, back-off when accepting fails, writes a peer never reads cut off, warnings at
//! most once per period), and its `Host`/`Origin` rule on every request ([`refused`]).

use crate::net::{http1, warn, Policy, MCP};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, Response, StatusCode};
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};

/// The numbers `mcp --http` runs with.
pub(super) const POLICY: Policy = MCP;

// The body cap `opening` enforces is the policy's.
const _: () = assert!(super::opening::MAX_BODY == POLICY.body_bytes);

/// The 403 answer to a request whose `Host` or `Origin` is not this machine (rmcp checks
/// them too; this is the same rule as `serve` and the probe), or `None`.
pub(super) fn refused<B>(request: &Request<B>) -> Option<Response<BoxBody<Bytes, Infallible>>> {
    let why = http1::check(request, IpAddr::V4(Ipv4Addr::LOCALHOST)).err()?;
    warn::refused(&why, POLICY.warn_every);
    let mut response = Response::new(Full::new(Bytes::from(format!("forbidden: {why}\n"))).boxed());
    *response.status_mut() = StatusCode::FORBIDDEN;
    Some(response)
}
