//! The Streamable HTTP transport: rmcp's service behind hyper, on the loopback address only.
//! As the MCP specification asks of local servers, a request whose `Origin` is not a
//! loopback one (a web page trying to reach this machine) gets 403, and so does one whose
//! `Host` is not (DNS rebinding).

use super::server::{Peers, Server};
use super::site::Knowledge;
use crate::error::{Error, Result};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

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
        .enforce_origin_validation();
    let service = StreamableHttpService::new(
        move || Ok(Server::new(knowledge.clone(), peers.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    eprintln!("serving MCP over Streamable HTTP at http://{address}{ENDPOINT} (Ctrl-C stops)");
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("warning: could not accept a connection: {e}");
                continue;
            }
        };
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            // A client that goes away mid-request is no error of the server's.
            let _ = connection.await;
        });
    }
}
