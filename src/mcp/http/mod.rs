//! The Streamable HTTP transport: rmcp's service behind hyper, on the loopback address only.
//! As the MCP specification asks of local servers, a request whose `Origin` is not a
//! loopback one (a web page trying to reach this machine) gets 403, and so does one whose
//! `Host` is not (DNS rebinding). Its peers are bounded ([`limits`]): connections, the time
//! to send headers and a body, sessions ([`sessions`]). Requests of the revisions with
//! `initialize` are served in sessions, each primed as its revision expects ([`priming`]);
//! 2026-07-28 requests (`_meta` naming the revision) are served statelessly by rmcp, which
//! checks their `Mcp-Method`/`Mcp-Name` headers against the body. [`opening`] reads bodies.

mod limits;
mod opening;
mod priming;
mod sessions;

use super::changes::Listeners;
use super::server::Server;
use super::site::Knowledge;
use crate::error::{Error, Result};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use sessions::MAX_SESSIONS;

/// The path printed for clients to connect to (the service answers on any path).
pub const ENDPOINT: &str = "/mcp";

/// The browser origins allowed: pages served from this machine, on any port.
pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// The service every connection is handed to.
pub(super) type Mcp = StreamableHttpService<Server, sessions::CappedSessions>;

/// Serves MCP over Streamable HTTP on `127.0.0.1:port` until the process is stopped.
pub async fn serve(knowledge: Knowledge, listeners: Listeners, port: u16) -> Result<()> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| Error::Usage {
            message: format!("could not listen on {address}: {e}; choose another --port"),
        })?;
    let address = listener.local_addr().unwrap_or(address);
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1"])
        .with_allowed_origins(LOOPBACK_ORIGINS)
        .enforce_origin_validation()
        // Sessions prime their own streams ([`priming`]); stateless ones are not resumable.
        .with_sse_retry(None)
        .with_max_request_body_bytes(opening::MAX_BODY);
    let service: Mcp = StreamableHttpService::new(
        move || Ok(Server::new(knowledge.clone(), listeners.clone())),
        Arc::new(sessions::CappedSessions::new(MAX_SESSIONS)),
        config,
    );
    eprintln!("serving MCP over Streamable HTTP at http://{address}{ENDPOINT} (Ctrl-C stops)");
    let gate = crate::net::gate::Gate::new(limits::POLICY);
    let forever = std::future::pending();
    crate::net::http1::serve(listener, gate, forever, move |request| {
        let service = service.clone();
        async move {
            match limits::refused(&request) {
                Some(refusal) => refusal,
                None => opening::handle(&service, request).await,
            }
        }
    })
    .await;
    Ok(())
}
