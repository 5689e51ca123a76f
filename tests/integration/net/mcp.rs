//! `fieldnotes mcp --http` under a hostile peer: flooded with silent connections, half-sent
//! heads or half-sent bodies, it still answers an honest client within seconds, not after
//! the flood's timeouts.

use super::{answered, hold, Running, Trickle};
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

fn initialize(port: u16) -> Vec<u8> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"honest","version":"1"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn mcp_answers_an_honest_client_past_silent_connections() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let honest = initialize(server.port);
    assert!(answered(server.port, &honest, 200, Duration::from_secs(30)).is_some());
    let held = hold(server.port, FLOOD, b"");
    std::thread::sleep(Duration::from_millis(300));
    let waited = answered(server.port, &honest, 200, Duration::from_secs(3));
    assert!(
        waited.is_some(),
        "{} silent connections kept a client out for 3 s",
        held.len()
    );
}

#[test]
fn mcp_answers_an_honest_client_past_half_sent_requests() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let port = server.port;
    let honest = initialize(port);
    assert!(answered(port, &honest, 200, Duration::from_secs(30)).is_some());
    let head = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    let body = format!(
        "{head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: 1000\r\n\r\n{{\"jsonrpc\":"
    );
    let mut held = hold(port, FLOOD / 2, head.as_bytes());
    held.extend(hold(port, FLOOD, body.as_bytes()));
    std::thread::sleep(Duration::from_millis(300));
    // A stalled body may hold its place for the policy's read stall (2 s), no longer.
    let waited = answered(port, &honest, 200, Duration::from_secs(6));
    assert!(
        waited.is_some(),
        "{} half-sent requests kept a client out for 6 s",
        held.len()
    );
}

#[test]
fn mcp_answers_an_honest_client_past_trickled_bodies() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let port = server.port;
    let honest = initialize(port);
    assert!(answered(port, &honest, 200, Duration::from_secs(30)).is_some());
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{{"
    );
    let _trickle = Trickle::start(port, FLOOD, head.as_bytes());
    std::thread::sleep(Duration::from_millis(300));
    // A body slower than the policy's rate may hold its place for its read stall (2 s).
    let waited = answered(port, &honest, 200, Duration::from_secs(8));
    assert!(
        waited.is_some(),
        "bodies trickled a byte at a time kept a client out for 8 s"
    );
}
