//! Who may talk to the HTTP probe: the connection policy's `Host`/`Origin` rule
//! (`crate::net::origin`): a request whose `Host` is not this machine (DNS rebinding) or whose
//! `Origin` is a web page elsewhere gets 403. With `--bind` to another address, that address
//! is allowed too. Refusals are warned about at most once per period.

use super::body::Body;
use super::plain;
use crate::net::{http1, warn, PROBE};
use hyper::{Request, StatusCode};
use std::net::IpAddr;

// The body cap the probe reads messages within is the policy's.
const _: () = assert!(crate::probe::transcript::MAX_MESSAGE_BYTES == PROBE.body_bytes);

/// The 403 answer to a request from elsewhere, or `None` when it may go on.
pub(crate) fn refused<B>(request: &Request<B>, bind: IpAddr) -> Option<hyper::Response<Body>> {
    let why = http1::check(request, bind).err()?;
    warn::refused(&why, PROBE.warn_every);
    Some(plain(StatusCode::FORBIDDEN, format!("forbidden: {why}")))
}
