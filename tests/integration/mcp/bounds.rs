//! `mcp --http` bounds its peers (all on 127.0.0.1, every loop bounded): connections past the
//! cap are closed at once, one that never finishes its headers is closed after the header
//! timeout, failing accepts (no file descriptors left) are reported in a few lines rather
//! than a line each, sessions past the cap close the oldest, and a slow tool call in one
//! session does not hold up another.

use super::{example_site, initialize, post, HttpServer};
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// `fieldnotes::mcp`'s caps, as its docs state them (a test fails here if they drift).
const MAX_CONNECTIONS: usize = 256;
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
const MAX_SESSIONS: usize = 64;

/// Opens `count` connections that each send half a request and then nothing.
fn half_sent(port: u16, count: usize) -> Vec<TcpStream> {
    (0..count)
        .filter_map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
            stream
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .ok()?;
            Some(stream)
        })
        .collect()
}

#[test]
fn half_sent_requests_are_capped_then_closed_after_the_header_timeout() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let before = server.open_files();
    let mut held = half_sent(server.port, MAX_CONNECTIONS + 200);
    std::thread::sleep(Duration::from_millis(500));
    let during = server.open_files();
    assert!(
        during <= before + MAX_CONNECTIONS + 8,
        "{during} files open with {} half-sent requests ({before} before)",
        held.len()
    );
    // After the header timeout every one of them has been closed by the server.
    std::thread::sleep(HEADER_TIMEOUT + Duration::from_secs(2));
    for stream in &mut held {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("timeout");
        let mut byte = [0u8; 512];
        let closed = match stream.read(&mut byte) {
            Ok(_) => true, // end of stream, or an error answer before it
            Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
        };
        assert!(
            closed,
            "a connection silent for longer than the header timeout is open"
        );
    }
    drop(held);
    let answer = post(
        server.port,
        &[],
        &initialize("2025-06-18"),
        Duration::from_secs(10),
    );
    assert_eq!(answer.status, 200, "a client after the flood is served");
}

#[test]
fn failing_accepts_are_reported_in_a_few_lines() {
    let site = example_site();
    // Few descriptors: the connections below exhaust them, and `accept` fails.
    let server = HttpServer::start_with_file_limit(site.path(), 64);
    let held = half_sent(server.port, 150);
    std::thread::sleep(Duration::from_secs(3));
    let written = server
        .stderr_bytes
        .load(std::sync::atomic::Ordering::Relaxed);
    assert!(written < 4096, "{written} bytes of warnings in 3 s");
    drop(held);
}

/// Opens a session; returns its id.
fn session(port: u16) -> String {
    let answer = post(
        port,
        &[],
        &initialize("2025-06-18"),
        Duration::from_secs(10),
    );
    assert_eq!(answer.status, 200, "{}", answer.head);
    let id = (answer.head.lines())
        .find(|l| l.to_ascii_lowercase().starts_with("mcp-session-id:"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, id)| id.trim().to_string())
        .expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(
        port,
        &with(&id),
        &initialized.to_string(),
        Duration::from_secs(5),
    );
    id
}

fn with(session: &str) -> [(&str, &str); 2] {
    [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-06-18"),
    ]
}

fn list_tools(port: u16, session: &str) -> u16 {
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    post(
        port,
        &with(session),
        &list.to_string(),
        Duration::from_secs(60),
    )
    .status
}

#[test]
fn sessions_past_the_cap_close_the_oldest() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let first = session(server.port);
    let rest: Vec<String> = (0..MAX_SESSIONS + 10)
        .map(|_| session(server.port))
        .collect();
    assert_eq!(
        list_tools(server.port, &first),
        404,
        "the oldest session is closed"
    );
    let newest = rest.last().expect("sessions");
    assert_eq!(
        list_tools(server.port, newest),
        200,
        "the newest session is served"
    );
}

#[test]
fn a_slow_tool_call_does_not_hold_up_other_sessions() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let (slow, quick) = (session(server.port), session(server.port));
    // A draft with 100,000 broken links: linting it takes a while.
    let mut draft =
        String::from("---\nid: a-slow-draft\ntitle: Slow\nkind: behavior\nsummary: s\n---\n");
    for n in 0..100_000 {
        draft.push_str(&format!("[x](/research/none-{n}.md)\n"));
    }
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "lint", "arguments": {"text": draft}}})
    .to_string();
    let port = server.port;
    let started = Instant::now();
    let linting = std::thread::spawn(move || {
        post(port, &with(&slow), &call, Duration::from_secs(120));
        started.elapsed()
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    assert_eq!(list_tools(server.port, &quick), 200);
    let waited = asked.elapsed();
    let linted = linting.join().expect("the lint call");
    assert!(
        linted > Duration::from_secs(1),
        "the draft linted in {linted:?}: make it slower, or the test proves nothing"
    );
    assert!(
        waited < linted / 3,
        "tools/list in another session waited {waited:?} behind a {linted:?} lint"
    );
}
