//! `fieldnotes mcp` driven by a client this project did not write: rmcp's own client, over
//! stdio and Streamable HTTP, on a copy of the example site at the repository root
//! ([`clients`]); the tools' schemas as strict clients read them ([`schemas`]); 2026-07-28
//! served ([`modern`]) beside the older revisions and what goes over the wire for those
//! ([`revisions`]); the HTTP server's bounds
//! on its peers ([`bounds`]). The official Python and TypeScript SDKs drive it too, from
//! `.ci/run` (tests/mcp/), since they need Python and Node.

mod bounds;
mod clients;
mod modern;
mod revisions;
mod schemas;

use crate::support::copy_dir;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The day the site's ages count to.
pub const TODAY: &str = "2026-12-01";

/// A copy of the example site (the repository root) to serve and edit.
pub fn example_site() -> tempfile::TempDir {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = tempfile::tempdir().expect("temp dir");
    std::fs::copy(repository.join("site.yaml"), copy.path().join("site.yaml")).expect("site.yaml");
    for folder in ["content", "templates", "themes", "static"] {
        if repository.join(folder).is_dir() {
            copy_dir(&repository.join(folder), &copy.path().join(folder));
        }
    }
    copy
}

/// The command that serves `site` over stdio.
pub fn stdio_command(site: &Path) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command
        .arg("mcp")
        .arg("--root")
        .arg(site)
        .args(["--today", TODAY])
        .stderr(Stdio::null());
    command
}

/// `fieldnotes mcp --http` on a free port, stopped when dropped.
pub struct HttpServer {
    child: Child,
    pub port: u16,
    /// How many bytes it wrote on stderr after its first line.
    pub stderr_bytes: Arc<AtomicUsize>,
}

impl HttpServer {
    pub fn start(site: &Path) -> HttpServer {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        command.arg("mcp");
        HttpServer::spawn(command, site)
    }

    /// The server with at most `files` file descriptors (through the shell's `ulimit -n`).
    pub fn start_with_file_limit(site: &Path, files: u32) -> HttpServer {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_fieldnotes"))
            .arg("mcp");
        HttpServer::spawn(command, site)
    }

    fn spawn(mut command: Command, site: &Path) -> HttpServer {
        let mut child = command
            .arg("--root")
            .arg(site)
            .args(["--today", TODAY, "--http", "--port", "0"])
            .stderr(Stdio::piped())
            .spawn()
            .expect("start fieldnotes mcp --http");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr
            .read_line(&mut line)
            .expect("read the server's first line");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        // Keep reading stderr (counting it) so that the server never blocks on a full pipe.
        let stderr_bytes = Arc::new(AtomicUsize::new(0));
        let counted = stderr_bytes.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 65536];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                counted.fetch_add(n, Ordering::Relaxed);
            }
        });
        HttpServer {
            child,
            port,
            stderr_bytes,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How many file descriptors the server has open.
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .map(|entries| entries.count())
            .unwrap_or(0)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw HTTP/1.1 exchange: status, headers and body (read until the server closes, or
/// `wait` passes).
pub struct Exchange {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// Sends one POST of `body` (with `headers`) and reads the answer for at most `wait`.
pub fn post(port: u16, headers: &[(&str, &str)], body: &str, wait: Duration) -> Exchange {
    let mut with = vec![("Accept", "application/json, text/event-stream")];
    with.extend_from_slice(headers);
    request(&format!("127.0.0.1:{port}"), "POST", &with, body, wait)
}

/// Sends one `method` request for `/mcp` to `address` (`host:port`) with a JSON `body` and
/// `headers`, on a fresh connection, and reads the answer for at most `wait`.
pub fn request(
    address: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
    wait: Duration,
) -> Exchange {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(wait)).expect("timeout");
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let mut buffer = [0u8; 8192];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..n]);
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Exchange {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// The `initialize` request of a client that speaks `revision`.
pub fn initialize(revision: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": revision, "capabilities": {},
                   "clientInfo": {"name": "wire-check", "version": "1"}}
    })
    .to_string()
}

/// A runtime for rmcp's client.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}
