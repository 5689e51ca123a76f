//! Tests: the `serve` process answers every route, reloads pages after an edit (a listing
//! asked for before it is rendered again waits for it), keeps the last good build when an
//! edit breaks the site, refuses traversal, guards its endpoints by Host and Origin, and
//! reads requests within fixed limits.

use crate::serve_rebuild::{full_build, read, ALPHA, BETA};
use crate::support::TestSite;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A `fieldnotes serve` child process on a free port, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    /// What it prints on standard error, line by line.
    lines: mpsc::Receiver<String>,
}

/// The longest a test waits for the server to do something (the machine may be slow).
const PATIENCE: Duration = Duration::from_secs(90);

impl Server {
    fn start(site: &TestSite) -> Server {
        Server::start_with(site, &[], None)
    }

    /// Starts `serve` with `args` more, and `path` as its `PATH` when given.
    fn start_with(site: &TestSite, args: &[&str], path: Option<String>) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        if let Some(path) = path {
            command.env("PATH", path);
        }
        let mut child = command
            .arg("--root")
            .arg(site.root())
            .args(["serve", "--port", "0", "--today", "2026-11-30"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fieldnotes serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            port: 0,
            lines,
        };
        let line = server.wait_for_line("serving http://");
        let url = line.split_whitespace().nth(1).expect("a URL");
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        server.port = port;
        server
    }

    /// Waits for a printed line holding `text`, and returns it.
    fn wait_for_line(&mut self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(text) => return line,
                Ok(line) => seen.push(line),
                Err(_) => break,
            }
        }
        panic!(
            "no line with {text:?}; the server printed:\n{}",
            seen.join("\n")
        );
    }

    fn get(&self, path: &str) -> Response {
        let host = format!("127.0.0.1:{}", self.port);
        request(self.port, path, &[("Host", &host)])
    }

    /// Polls `path` until `check` holds for its response.
    fn poll(&self, path: &str, check: impl Fn(&Response) -> bool) -> Response {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let response = self.get(path);
            if check(&response) {
                return response;
            }
            assert!(
                Instant::now() < deadline,
                "{path} never became as expected: {} {}",
                response.status,
                response.text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response, as the tiny client below reads it.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `GET path` (written as is, not encoded) with `headers`, and reads the response.
fn request(port: u16, path: &str, headers: &[(&str, &str)]) -> Response {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let mut head = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("sends");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut response = Response {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    };
    if response
        .header("Transfer-Encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        response.body = dechunk(&response.body);
    }
    response
}

/// The body of a chunked response.
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&data[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
    out
}

#[test]
fn every_route_answers() {
    let site = TestSite::fixture("basic");
    let files = full_build(&site);
    let server = Server::start(&site);
    let home = server.get("/");
    assert_eq!(home.status, 200);
    assert!(
        home.text().contains("/__fieldnotes/client.js"),
        "the reload script is injected"
    );
    for path in files.keys() {
        let response = server.get(&format!("/{path}"));
        assert_eq!(response.status, 200, "/{path}");
        if let Some(page) = path.strip_suffix(".html") {
            let response = server.get(&format!("/{page}"));
            assert_eq!(response.status, 200, "/{page}");
            assert!(response
                .header("Content-Type")
                .is_some_and(|t| t.starts_with("text/html")));
        } else {
            // Only served HTML pages carry the script; other files are served as built.
            assert_eq!(response.body, files[path], "/{path} as built");
        }
    }
    let md = server.get("/research/alpha-defaults-to-sse.md");
    assert!(md
        .header("Content-Type")
        .is_some_and(|t| t.starts_with("text/markdown")));
    let css = server.get(&format!("/{}", stylesheet_of(&home.text())));
    assert!(css
        .header("Content-Type")
        .is_some_and(|t| t.starts_with("text/css")));
    let json = server.get("/api/notes.json");
    assert_eq!(json.header("Content-Type"), Some("application/json"));
    let missing = server.get("/research/no-such-note");
    assert_eq!(missing.status, 404);
    let not_found = String::from_utf8_lossy(&files["404.html"]).into_owned();
    assert!(missing
        .text()
        .starts_with(not_found.split("</body>").next().unwrap_or("")));
}

#[test]
fn an_edit_reloads_open_pages_with_the_new_content() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let mut events = TcpStream::connect(("127.0.0.1", server.port)).expect("connects");
    events.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let host = format!("127.0.0.1:{}", server.port);
    let origin = format!("http://{host}");
    write!(
        events,
        "GET /__fieldnotes/events HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n\r\n"
    )
    .expect("sends");
    let mut reader = BufReader::new(events);
    let mut seen = String::new();
    while !seen.contains("retry:") {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).expect("reads") > 0,
            "stream closed: {seen}"
        );
        seen.push_str(&line);
    }
    assert!(seen.contains("text/event-stream"), "{seen}");
    let alpha = read(&site, ALPHA);
    site.write(
        ALPHA,
        &format!("{alpha}\nA sentence added while serving.\n"),
    );
    let mut line = String::new();
    while !line.starts_with("event: reload") {
        line.clear();
        assert!(reader.read_line(&mut line).expect("reads an event") > 0);
    }
    let page = server.get("/research/alpha-defaults-to-sse");
    assert!(page.text().contains("A sentence added while serving."));

    // A new title: the research index is rendered after the note, and a request for it
    // in between waits for it rather than getting the old one. (Events still due from the
    // edit above, if the watcher saw its write twice, are read first.)
    drain(&mut reader, Duration::from_millis(500));
    let beta = read(&site, BETA).replacen("title: Beta Client", "title: Beta Renamed", 1);
    site.write(BETA, &beta);
    line.clear();
    while !line.starts_with("event: reload") {
        line.clear();
        assert!(reader.read_line(&mut line).expect("reads an event") > 0);
    }
    assert!(server.get("/research").text().contains("Beta Renamed"));
    assert!(server
        .get("/api/notes.json")
        .text()
        .contains("Beta Renamed"));

    // A changed stylesheet is published under a new hashed name, which the reloaded pages
    // name; the old name is gone.
    drain(&mut reader, Duration::from_millis(500));
    let before = stylesheet_of(&server.get("/").text());
    site.write("static/style.css", "body { color: rebeccapurple; }\n");
    line.clear();
    while !line.starts_with("event: reload") {
        line.clear();
        assert!(reader.read_line(&mut line).expect("reads an event") > 0);
    }
    let after = stylesheet_of(&server.get("/").text());
    assert_ne!(before, after);
    assert!(server
        .get(&format!("/{after}"))
        .text()
        .starts_with("body { color: rebeccapurple; }\n"));
    assert_eq!(server.get(&format!("/{before}")).status, 404);
}

/// The stylesheet a page links (its hashed name, relative to the site root).
fn stylesheet_of(html: &str) -> String {
    let start = html
        .find(r#"<link rel="stylesheet" href=""#)
        .map(|at| at + r#"<link rel="stylesheet" href=""#.len())
        .expect("a stylesheet");
    let href = &html[start..start + html[start..].find('"').expect("closed")];
    href.trim_start_matches('/').to_string()
}

/// Reads events until none comes for `quiet`.
fn drain(reader: &mut BufReader<TcpStream>, quiet: Duration) {
    reader
        .get_ref()
        .set_read_timeout(Some(quiet))
        .expect("timeout");
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|read| read > 0) {
        line.clear();
    }
    reader
        .get_ref()
        .set_read_timeout(Some(PATIENCE))
        .expect("timeout");
}

#[test]
fn a_broken_edit_keeps_the_last_good_page_and_reports_the_error() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let good = server.get("/research/alpha-defaults-to-sse");
    assert_eq!(good.status, 200);
    site.write(
        ALPHA,
        "---\nid: alpha-defaults-to-sse\ntitle: Broken\n\nNo closing fence.\n",
    );
    let status = server.poll("/__fieldnotes/status", |r| {
        r.text().contains("\"ok\":false")
    });
    let json: serde_json::Value = serde_json::from_slice(&status.body).expect("JSON");
    let errors = json["errors"].as_array().expect("errors");
    assert!(
        errors
            .iter()
            .any(|e| e["file"] == ALPHA && e["code"] == "FN003" && e["line"] == 1),
        "{json}"
    );
    let still = server.get("/research/alpha-defaults-to-sse");
    assert_eq!(still.status, 200);
    assert_eq!(still.body, good.body, "the last good page is still served");
}

#[test]
fn traversal_is_refused() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let secret = read(&site, "site.yaml");
    for path in [
        "/../site.yaml",
        "/%2e%2e/site.yaml",
        "/..%2fsite.yaml",
        "/research\\..\\x",
        "/%00",
        "/research/%2e%2e/%2e%2e/site.yaml",
        "/%5c..%5csite.yaml",
    ] {
        let response = server.get(path);
        assert!(
            matches!(response.status, 400 | 404),
            "{path}: {}",
            response.status
        );
        assert!(
            !response.text().contains(&secret),
            "{path} leaked site.yaml"
        );
    }
}

#[test]
fn endpoints_refuse_other_hosts_and_origins() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    for endpoint in ["/__fieldnotes/events", "/__fieldnotes/status"] {
        let evil = request(port, endpoint, &[("Host", "evil.example")]);
        assert_eq!(evil.status, 403, "{endpoint} with a bad Host");
        let evil = request(
            port,
            endpoint,
            &[("Host", &host), ("Origin", "http://evil.example")],
        );
        assert_eq!(evil.status, 403, "{endpoint} with a bad Origin");
    }
    let ok = request(
        port,
        "/__fieldnotes/status",
        &[("Host", &format!("localhost:{port}"))],
    );
    assert_eq!(ok.status, 200);
}

/// Sends `raw` on a new connection and reads until the server closes it.
fn raw_exchange(port: u16, raw: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    stream.write_all(raw).expect("sends");
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .expect("the server closes the connection");
    answer
}

#[test]
fn requests_over_a_limit_are_refused_with_their_status() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let host = format!("Host: 127.0.0.1:{}\r\n", server.port);
    let long_target = format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(9000));
    let long_field = format!("GET / HTTP/1.1\r\n{host}X: {}\r\n\r\n", "a".repeat(9000));
    let many_fields = format!("GET / HTTP/1.1\r\n{host}{}\r\n", "X: y\r\n".repeat(101));
    let body = format!("POST / HTTP/1.1\r\n{host}Content-Length: 5\r\n\r\nhello");
    let version = format!("GET / HTTP/2.0\r\n{host}\r\n");
    let bad = format!("GET / HTTP/1.1\r\n{host}No colon\r\n\r\n");
    for (raw, status) in [
        (long_target, 414),
        (long_field, 431),
        (many_fields, 431),
        (body, 413),
        (version, 505),
        (bad, 400),
    ] {
        let answer = parse_response(&raw_exchange(server.port, raw.as_bytes()));
        assert_eq!(answer.status, status, "{}", &raw[..raw.len().min(60)]);
        assert_eq!(answer.header("Connection"), Some("close"));
    }
    let head = raw_exchange(
        server.port,
        format!("HEAD / HTTP/1.1\r\n{host}\r\n").as_bytes(),
    );
    let head = parse_response(&head);
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "no body for HEAD");
    assert_ne!(head.header("Content-Length"), Some("0"));
    assert_eq!(server.get("/").status, 200, "the server still answers");
}

/// The resident memory of process `pid`, in KiB.
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// A header that never ends is cut off after a few KiB: the server stops reading (answers 431
/// and closes) long before 64 MiB is sent, and its memory does not grow with what was sent.
#[cfg(target_os = "linux")]
#[test]
fn a_header_that_never_ends_is_cut_off_with_memory_bounded() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    assert_eq!(server.get("/").status, 200);
    let before = resident_kib(server.child.id());
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connects");
    stream
        .set_write_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: ")
        .expect("sends");
    let total = 64 << 20;
    let chunk = vec![b'a'; 64 << 10];
    let started = Instant::now();
    let mut sent = 0;
    while sent < total {
        match stream.write(&chunk) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
    }
    assert!(
        sent < total,
        "the server read all {sent} bytes of one header field"
    );
    assert!(
        started.elapsed() < PATIENCE,
        "cut off after {:?}",
        started.elapsed()
    );
    // What was answered (431), if the reset after it left it to read.
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let mut answer = Vec::new();
    match stream.read_to_end(&mut answer) {
        Ok(_) => assert!(
            answer.is_empty() || answer.starts_with(b"HTTP/1.1 431 "),
            "{}",
            String::from_utf8_lossy(&answer)
        ),
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
    }
    let grown = resident_kib(server.child.id()).saturating_sub(before);
    assert!(grown < 16 << 10, "the server grew by {grown} KiB");
    assert_eq!(server.get("/").status, 200, "the server still answers");
}

/// `build --quiet` (beside `serve` in the same change): warnings and the summary line go,
/// errors stay.
#[test]
fn build_quiet_prints_errors_only() {
    let site = TestSite::fixture("basic");
    let beta = read(&site, BETA);
    site.write(BETA, &format!("{beta}\nSome <b>raw</b> HTML.\n"));
    let build = |quiet: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        command
            .arg("--root")
            .arg(site.root())
            .args(["build", "--today", "2026-11-30"]);
        if quiet {
            command.arg("--quiet");
        }
        command.output().expect("build runs")
    };
    let loud = build(false);
    assert!(loud.status.success());
    let loud = String::from_utf8_lossy(&loud.stderr).into_owned();
    assert!(loud.contains("FN604") && loud.contains("built "), "{loud}");
    let quiet = build(true);
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
    site.write(ALPHA, "---\nid: alpha-defaults-to-sse\n");
    let broken = build(true);
    assert_eq!(broken.status.code(), Some(1));
    let broken = String::from_utf8_lossy(&broken.stderr).into_owned();
    assert!(
        broken.contains("FN003") && !broken.contains("FN604"),
        "{broken}"
    );
}

/// `--open` starts the desktop's opener (`xdg-open` here: a stand-in that writes down what
/// it was given) with the served URL.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn open_starts_the_browser_at_the_served_url() {
    use std::os::unix::fs::PermissionsExt;
    let site = TestSite::fixture("basic");
    let bin = site.root().join("fake-bin");
    let opened = site.root().join("opened.txt");
    std::fs::create_dir_all(&bin).expect("bin folder");
    let opener = bin.join("xdg-open");
    let script = format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display());
    std::fs::write(&opener, script).expect("opener");
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let server = Server::start_with(&site, &["--open"], Some(path));
    let expected = format!("http://127.0.0.1:{}/", server.port);
    let started = Instant::now();
    let mut url = String::new();
    while url != expected && started.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(20));
        url = std::fs::read_to_string(&opened).unwrap_or_default();
    }
    assert_eq!(url, expected, "the opener was given the served URL");
}

/// `-q` on `serve`: no status line after a rebuild (errors and warnings still print); without
/// it, each rebuild says what it built.
#[test]
fn quiet_serve_prints_no_rebuild_status() {
    let edit = |site: &TestSite| {
        let path = "content/research/alpha-defaults-to-sse.md";
        let text = std::fs::read_to_string(site.root().join(path)).expect("note");
        site.write(path, &format!("{text}\nOne more line.\n"));
    };
    let loud_site = TestSite::fixture("basic");
    let mut loud = Server::start(&loud_site);
    edit(&loud_site);
    assert!(loud.wait_for_line("built ").contains("pages in"));
    let quiet_site = TestSite::fixture("basic");
    let quiet = Server::start_with(&quiet_site, &["-q"], None);
    edit(&quiet_site);
    std::thread::sleep(Duration::from_secs(2));
    let printed: Vec<String> = quiet.lines.try_iter().collect();
    assert!(
        !printed.iter().any(|line| line.starts_with("built ")),
        "{printed:?}"
    );
}

/// The search index follows edits, saves that come faster than it is made included (the
/// server gives up making it when another save comes in, and makes it after that save): once
/// the saves stop, it is the search index of a full build of the last save.
#[test]
fn the_search_index_follows_a_burst_of_saves() {
    let site = TestSite::fixture("basic");
    let server = Server::start(&site);
    let alpha = read(&site, ALPHA);
    for n in 0..6 {
        site.write(ALPHA, &format!("{alpha}\nSaved as quokka{n}.\n"));
        std::thread::sleep(Duration::from_millis(30));
    }
    server.poll("/search/terms/qu.json", |r| {
        r.status == 200 && r.text().contains("\"quokka5\"")
    });
    let full = full_build(&site);
    let search: Vec<&String> = (full.keys())
        .filter(|path| path.starts_with("search/"))
        .collect();
    assert!(!search.is_empty());
    for path in search {
        let served = server.get(&format!("/{path}"));
        assert!(
            served.body == full[path],
            "/{path} differs from a full build's"
        );
    }
}
