//! Tests: every local server (`serve`, `mcp --http`, `probe http`) under a hostile peer on
//! loopback, as the shared connection policy (`src/net/`) promises: silent connections and
//! half-sent requests do not keep an honest client out, a stream never read is cut off with
//! memory bounded, warnings come at most one line per period, and `serve` answers only
//! requests whose `Host` and `Origin` name this machine. Every loop here is bounded and every
//! wait has a deadline.

mod mcp;
mod probe;
mod serve;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// A server started for a test, killed when dropped.
pub struct Running {
    child: Child,
    pub port: u16,
    /// Bytes it wrote on standard error so far.
    stderr_bytes: Arc<AtomicUsize>,
}

impl Running {
    /// `fieldnotes ARGS` with at most `files` file descriptors (`ulimit -n`); its port is
    /// the first `http://127.0.0.1:PORT` it prints, on either stream.
    pub fn start(args: &[&str], files: u32) -> Running {
        Running::start_in(Path::new("."), args, files)
    }

    /// The same, run in folder `dir` (a probe outside any site reads no client names).
    pub fn start_in(dir: &Path, args: &[&str], files: u32) -> Running {
        let mut child = Command::new("sh")
            .current_dir(dir)
            .arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_fieldnotes"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let (tx, ports) = mpsc::channel();
        let stderr_bytes = Arc::new(AtomicUsize::new(0));
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        let err = BufReader::new(child.stderr.take().expect("stderr"));
        for (mut reader, counted) in [
            (Box::new(out) as Box<dyn BufRead + Send>, None),
            (Box::new(err), Some(stderr_bytes.clone())),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut line = Vec::new();
                // Read to the end, so the server never blocks on a full pipe.
                while let Ok(n @ 1..) = reader.read_until(b'\n', &mut line) {
                    if let Some(counted) = &counted {
                        counted.fetch_add(n, Ordering::Relaxed);
                    }
                    let text = String::from_utf8_lossy(&line);
                    if let Some(port) = port_in(&text) {
                        let _ = tx.send(port);
                    }
                    line.clear();
                }
            });
        }
        let port = ports
            .recv_timeout(Duration::from_secs(90))
            .expect("the server prints its URL");
        Running {
            child,
            port,
            stderr_bytes,
        }
    }

    pub fn stderr_bytes(&self) -> usize {
        self.stderr_bytes.load(Ordering::Relaxed)
    }

    /// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`: the peak).
    pub fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server is running");
        (status.lines())
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a memory figure")
    }

    /// How many file descriptors the server holds.
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).map_or(0, |d| d.count())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn port_in(text: &str) -> Option<u16> {
    let rest = text.split("http://127.0.0.1:").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The header fields of a JSON-RPC POST.
pub const JSON: &str =
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";

/// An MCP `initialize` POST to `host:port`, on a connection closed after it.
pub fn initialize(port: u16, host: &str) -> Vec<u8> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"honest","version":"1"}}}"#;
    let length = body.len();
    let head =
        format!("POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\n{JSON}Content-Length: {length}");
    format!("{head}\r\nConnection: close\r\n\r\n{body}").into_bytes()
}

/// Opens up to `count` connections to `port` that each send `prefix` and then nothing (a
/// server that stops accepting leaves the rest unopened, after a second each at most).
pub fn hold(port: u16, count: usize, prefix: &[u8]) -> Vec<TcpStream> {
    let address = ([127, 0, 0, 1], port).into();
    let started = Instant::now();
    (0..count)
        .take_while(|_| started.elapsed() < Duration::from_secs(20))
        .filter_map(|_| {
            let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(1)).ok()?;
            if !prefix.is_empty() {
                stream.write_all(prefix).ok()?;
            }
            Some(stream)
        })
        .collect()
}

/// Asserts that `honest` is answered `status`, and still is within `within` once `flood`
/// (started after that first answer) holds its connections; returns the flood, still held.
pub fn answered_past<T>(
    port: u16,
    honest: &[u8],
    status: u16,
    within: Duration,
    flood: impl FnOnce() -> T,
    what: &str,
) -> T {
    let first = answered(port, honest, status, Duration::from_secs(30));
    assert!(first.is_some(), "no answer before the flood");
    let held = flood();
    std::thread::sleep(Duration::from_millis(300));
    let waited = answered(port, honest, status, within);
    assert!(waited.is_some(), "{what} kept a client out for {within:?}");
    held
}

/// Connections whose request bodies come a byte at a time, every half second each, until
/// dropped (or 20 s have passed).
pub struct Trickle {
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Trickle {
    /// Up to `count` connections to `port`, each having sent `head` (with a long
    /// `Content-Length`).
    pub fn start(port: u16, count: usize, head: &[u8]) -> Trickle {
        let mut held = hold(port, count, head);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            while !stopped.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(20) {
                for stream in &mut held {
                    let _ = stream.write(b" ");
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        });
        Trickle { stop }
    }
}

impl Drop for Trickle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The status of the answer to `raw`, sent on a fresh connection, if one comes within `wait`.
pub fn ask(port: u16, raw: &[u8], wait: Duration) -> Option<u16> {
    let mut stream = TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), wait).ok()?;
    stream.set_read_timeout(Some(wait)).ok()?;
    stream.set_write_timeout(Some(wait)).ok()?;
    stream.write_all(raw).ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    let line = String::from_utf8_lossy(&head);
    line.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// How long an honest client, asking again as a browser would, waits for an answer to `raw`
/// with status `status`; `None` when none came within `within`.
pub fn answered(port: u16, raw: &[u8], status: u16, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < within {
        let left = within.saturating_sub(started.elapsed());
        if ask(port, raw, left) == Some(status) {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}
