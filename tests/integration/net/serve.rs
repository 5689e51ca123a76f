//! `fieldnotes serve` under a hostile peer: flooded with silent connections or half-sent
//! heads it still answers an honest client at once, and it answers no page to a request
//! whose `Host`, target or `Origin` names another machine (DNS rebinding), warning about
//! them in a line or two.

use super::{answered_past, ask, hold, Running};
use crate::support::TestSite;
use std::time::Duration;

/// More connections than the policy's cap (256).
const FLOOD: usize = 300;

fn start(site: &TestSite) -> Running {
    let root = site.root().to_str().expect("a UTF-8 path");
    let args = [
        "--root",
        root,
        "serve",
        "--port",
        "0",
        "--today",
        "2026-11-30",
        "-q",
    ];
    Running::start(&args, 4096)
}

fn get(host: &str, more: &str) -> Vec<u8> {
    format!("GET / HTTP/1.1\r\nHost: {host}\r\n{more}Connection: close\r\n\r\n").into_bytes()
}

#[test]
fn serve_answers_an_honest_client_past_silent_connections() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let port = server.port;
    let honest = get(&format!("127.0.0.1:{port}"), "");
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
fn serve_answers_an_honest_client_past_half_sent_heads() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let honest = get(&host, "");
    let half = format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-Slow: a");
    let flood = || hold(port, FLOOD, half.as_bytes());
    answered_past(
        port,
        &honest,
        200,
        Duration::from_secs(3),
        flood,
        "half-sent heads",
    );
}

#[test]
fn serve_refuses_a_foreign_host_or_origin_on_every_answer() {
    let site = TestSite::fixture("basic");
    let server = start(&site);
    let port = server.port;
    let ours = format!("127.0.0.1:{port}");
    let wait = Duration::from_secs(30);
    for host in [
        format!("127.0.0.1:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(ask(port, &get(&host, ""), wait), Some(200), "{host}");
    }
    let refused = [
        get(&format!("evil.example:{port}"), ""),
        get("evil.example", ""),
        get(&format!("localhost.:{port}"), ""),
        get(&format!("localhost:{port}@evil.example"), ""),
        get(&ours, "Origin: http://evil.example\r\n"),
        get(&ours, "Origin: null\r\n"),
        get(&ours, &format!("Host: evil.example:{port}\r\n")),
        format!("GET http://evil.example/ HTTP/1.1\r\nHost: {ours}\r\n\r\n").into_bytes(),
        b"GET / HTTP/1.0\r\n\r\n".to_vec(),
        format!("GET /__fieldnotes/client.js HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n")
            .into_bytes(),
        format!("HEAD /404.html HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n").into_bytes(),
    ];
    let before = server.stderr_bytes();
    for _ in 0..100 {
        for raw in &refused {
            assert_eq!(
                ask(port, raw, wait),
                Some(403),
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
    }
    let warned = server.stderr_bytes() - before;
    assert!(
        warned < 1024,
        "{warned} bytes of warnings for {} refusals",
        100 * refused.len()
    );
}
