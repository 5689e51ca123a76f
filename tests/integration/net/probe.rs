//! `fieldnotes probe http` under a hostile peer: with few file descriptors, silent
//! connections and half-sent requests do not keep an honest client out (nor spin the CPU
//! writing warnings), refused requests are warned about in a line or two, and an event
//! stream its client never reads is cut off with the probe's memory bounded.

use super::{answered, ask, hold, Running, Trickle};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// File descriptors the probe may open: fewer than the flood below.
const FILES: u32 = 256;
/// More connections than the probe has descriptors for.
const FLOOD: usize = 400;

fn start(out: &std::path::Path) -> Running {
    let out = out.to_str().expect("a UTF-8 path");
    let args = [
        "probe",
        "http",
        "--port",
        "0",
        "--out",
        out,
        "--quiet-timeout",
        "1",
    ];
    Running::start(&args, FILES)
}

fn initialize(port: u16, host: &str) -> Vec<u8> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"honest","version":"1"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[test]
fn probe_answers_an_honest_client_past_silent_connections() {
    let out = tempfile::tempdir().expect("temp");
    let server = start(out.path());
    let honest = initialize(server.port, "127.0.0.1");
    assert!(answered(server.port, &honest, 200, Duration::from_secs(30)).is_some());
    let before = server.stderr_bytes();
    let held = hold(server.port, FLOOD, b"");
    std::thread::sleep(Duration::from_millis(300));
    let waited = answered(server.port, &honest, 200, Duration::from_secs(3));
    assert!(
        waited.is_some(),
        "{} silent connections kept a client out for 3 s",
        held.len()
    );
    assert!(
        server.open_files() < FILES as usize,
        "the probe holds {} descriptors",
        server.open_files()
    );
    let warned = server.stderr_bytes() - before;
    assert!(warned < 4096, "{warned} bytes of warnings during the flood");
}

#[test]
fn probe_answers_an_honest_client_past_half_sent_requests() {
    let out = tempfile::tempdir().expect("temp");
    let server = start(out.path());
    let port = server.port;
    let honest = initialize(port, "127.0.0.1");
    assert!(answered(port, &honest, 200, Duration::from_secs(30)).is_some());
    let head = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    let body = format!(
        "{head}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"jsonrpc\":"
    );
    let mut held = hold(port, FLOOD / 2, head.as_bytes());
    held.extend(hold(port, FLOOD / 2, body.as_bytes()));
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
fn probe_answers_an_honest_client_past_trickled_bodies() {
    let out = tempfile::tempdir().expect("temp");
    let server = start(out.path());
    let port = server.port;
    let honest = initialize(port, "127.0.0.1");
    assert!(answered(port, &honest, 200, Duration::from_secs(30)).is_some());
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: 100000\r\n\r\n{{"
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

#[test]
fn probe_warns_about_refused_requests_once_per_period() {
    let out = tempfile::tempdir().expect("temp");
    let server = start(out.path());
    let port = server.port;
    let foreign = initialize(port, "evil.example");
    let before = server.stderr_bytes();
    for _ in 0..1000 {
        assert_eq!(ask(port, &foreign, Duration::from_secs(30)), Some(403));
    }
    let warned = server.stderr_bytes() - before;
    assert!(
        warned < 1024,
        "{warned} bytes of warnings for 1000 refusals"
    );
}

/// Reads the stream's head and first event (the legacy transport's `endpoint`): the URL to
/// post messages to.
fn endpoint(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("sessionId=") || seen.last() != Some(&b'\n') {
        assert!(seen.len() < 4096, "no endpoint event");
        stream
            .read_exact(&mut byte)
            .expect("the stream's first event");
        seen.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&seen);
    let at = text.find("/messages?").expect("an endpoint");
    text[at..].trim().to_string()
}

#[test]
fn probe_cuts_off_a_stream_never_read_with_memory_bounded() {
    let out = tempfile::tempdir().expect("temp");
    let server = start(out.path());
    let port = server.port;
    let address = ([127, 0, 0, 1], port).into();
    let mut stream =
        TcpStream::connect_timeout(&address, Duration::from_secs(30)).expect("connects");
    let open =
        format!("GET /sse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(open.as_bytes()).expect("sends");
    let endpoint = endpoint(&mut stream);
    let before = server.memory_kib("VmRSS");
    // Each ping's reply repeats its 256 KiB id on the stream, which is never read.
    let id = "x".repeat(256 << 10);
    let ping = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"ping"}}"#);
    let post = format!(
        "POST {endpoint} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{ping}",
        ping.len()
    );
    let started = Instant::now();
    let mut cut = false;
    for _ in 0..400 {
        match ask(port, post.as_bytes(), Duration::from_secs(30)) {
            Some(202) => {}
            // The session went with its stream: the probe cut it off.
            Some(404) => {
                cut = true;
                break;
            }
            other => panic!("a post was answered {other:?}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "posting took too long"
        );
    }
    let grown = server.memory_kib("VmRSS").saturating_sub(before);
    assert!(
        cut,
        "400 replies of 256 KiB were queued on a stream never read"
    );
    assert!(grown < 64 << 10, "the probe grew by {grown} KiB");
    // The stream itself ends: whatever was sent before, then the end (or a reset).
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut sink = Vec::new();
    let ended = match stream.read_to_end(&mut sink) {
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    };
    assert!(
        ended,
        "the stream was still open after {} bytes",
        sink.len()
    );
}
