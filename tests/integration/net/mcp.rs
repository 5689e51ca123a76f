//! `fieldnotes mcp --http` under a hostile peer: flooded with silent connections, half-sent
//! heads or half-sent bodies, it still answers an honest client within seconds, not after
//! the flood's timeouts.

use super::{answered_past, hold, initialize, Running, Trickle, JSON};
use crate::support::TestSite;
use std::time::Duration;

/// More connections than the policy's cap (256).
const FLOOD: usize = 300;

fn start(site: &TestSite) -> Running {
    let root = site.root().to_str().expect("a UTF-8 path");
    let args = [
        "mcp",
        "--root",
        root,
        "--today",
        "2026-12-01",
        "--http",
        "--port",
        "0",
    ];
    Running::start(&args, 4096)
}

#[test]
fn mcp_answers_an_honest_client_past_silent_connections() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let (port, honest) = (server.port, initialize(server.port, "127.0.0.1"));
    let flood = || hold(port, FLOOD, b"");
    answered_past(
        port,
        &honest,
        200,
        Duration::from_secs(3),
        flood,
        "silent connections",
    );
}

#[test]
fn mcp_answers_an_honest_client_past_half_sent_requests() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let (port, honest) = (server.port, initialize(server.port, "127.0.0.1"));
    let head = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    let body = format!("{head}{JSON}Content-Length: 1000\r\n\r\n{{\"jsonrpc\":");
    let flood = || {
        [
            hold(port, FLOOD / 2, head.as_bytes()),
            hold(port, FLOOD, body.as_bytes()),
        ]
    };
    // A stalled body may hold its place for the policy's read stall (2 s), no longer.
    answered_past(
        port,
        &honest,
        200,
        Duration::from_secs(6),
        flood,
        "half-sent requests",
    );
}

#[test]
fn mcp_answers_an_honest_client_past_trickled_bodies() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let (port, honest) = (server.port, initialize(server.port, "127.0.0.1"));
    let head = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{JSON}");
    let head = format!("{head}Content-Length: 100000\r\n\r\n{{");
    let flood = || Trickle::start(port, FLOOD, head.as_bytes());
    // A body slower than the policy's rate may hold its place for its read stall (2 s).
    answered_past(
        port,
        &honest,
        200,
        Duration::from_secs(8),
        flood,
        "trickled bodies",
    );
}
