//! The Streamable HTTP transport: rmcp's service behind hyper, on the loopback address only.
//! As the MCP specification asks of local servers, a request whose `Origin` is not a
//! loopback one (a web page trying to reach this machine) gets 403, and so does one whose
//! `Host` is not (DNS rebinding). Its peers are bounded ([`limits`]): connections, the time
//! to send headers and a body, sessions ([`sessions`]). No SSE priming event (an event with
//! empty data, defined by 2025-11-25) is sent: rmcp cannot send it per session, and clients
//! of older revisions parse every event as JSON-RPC. [`opening`] answers 2026-07-28 requests.

mod limits;
mod opening;
mod sessions;

use super::server::{Peers, Server};
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
pub async fn serve(knowledge: Knowledge, peers: Peers, port: u16) -> Result<()> {
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
        .with_sse_retry(None)
        .with_max_request_body_bytes(opening::MAX_BODY);
    let service: Mcp = StreamableHttpService::new(
        move || Ok(Server::new(knowledge.clone(), peers.clone())),
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
