//! HTTP/1.1 on the wire, as little of it as `serve` needs, with every read bounded: a request
//! head is read within fixed limits of size, count and time ([`LIMITS`], from the shared
//! connection policy [`crate::net::SERVE`]), a request may carry no body, one request is
//! answered per connection, and connections pass the policy's gate ([`crate::net::gate`]):
//! at its cap the connection idle longest (no head yet) is closed to make room, and only when
//! every one is answering is a new one answered 503. What breaks a limit is answered (414,
//! 431, 413, 400, 408, 505 or 503) and the connection closed; nothing a client sends is kept
//! beyond the limits.

use crate::net::gate::Gate;
use crate::net::{warn, SERVE};
use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How much a client may send and how long it may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The request line (`GET /path HTTP/1.1`), in bytes; longer is answered 414.
    pub request_line: usize,
    /// One header line, in bytes; longer is answered 431.
    pub header_line: usize,
    /// Header lines; more are answered 431.
    pub headers: usize,
    /// The whole head (request line and headers), in bytes; more is answered 431.
    pub head: usize,
    /// The time the whole head may take to arrive; longer is answered 408.
    pub head_time: Duration,
    /// The time one write of a response may wait for the client to read.
    pub write_time: Duration,
    /// Connections open at once (event streams included); see [`accept`].
    pub connections: usize,
}

/// The limits `serve` runs with: ample for any browser, small for a server on a laptop.
pub const LIMITS: Limits = Limits {
    request_line: 8 * 1024,
    header_line: 8 * 1024,
    headers: 100,
    head: SERVE.header_bytes,
    head_time: SERVE.head_time,
    write_time: SERVE.write_stall,
    connections: SERVE.connections,
};

/// How long the accept loop pauses after a failed accept (out of file descriptors, say).
const BACK_OFF: Duration = Duration::from_millis(100);

/// What a connection sends after its response, read and dropped so that the client gets the
/// response rather than a reset: at most this much, for at most this long.
const LINGER_BYTES: u64 = 64 * 1024;
const LINGER_TIME: Duration = Duration::from_secs(1);

/// A request head: the request line's method and target, and the header fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
}

/// Why a head was not read: the status to answer with and a few words why, or nothing to
/// answer (the client closed the connection or it failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Answer(u16, &'static str),
    Closed,
}

/// One request on its connection, answered by [`Request::respond`] or by writing to
/// [`Request::into_stream`].
pub struct Request {
    head: Head,
    stream: TcpStream,
}

impl Request {
    pub fn method(&self) -> &str {
        &self.head.method
    }

    /// The request target as sent (`/research/x?y`).
    pub fn target(&self) -> &str {
        &self.head.target
    }

    /// The values of every header field named `name` (any case), in the order sent.
    pub fn headers(&self, name: &str) -> Vec<&str> {
        (self.head.headers.iter())
            .filter(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
            .collect()
    }

    /// Sends `response` (without its body to a HEAD request) and closes the connection.
    pub fn respond(mut self, response: Response) {
        let head_only = self.head.method == "HEAD";
        if response.write(&mut self.stream, head_only).is_ok() {
            linger(&self.stream);
        }
    }

    /// The connection, for a response written as it comes (the event stream).
    pub fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// A response: status, header fields and body. Every response closes its connection.
pub struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body,
        }
    }

    pub fn with_header(mut self, name: &'static str, value: &str) -> Response {
        self.headers.push((name, value.to_string()));
        self
    }

    /// A short plain-text response.
    pub fn text(status: u16, message: &str) -> Response {
        Response::new(status, message.as_bytes().to_vec())
            .with_header("Content-Type", "text/plain; charset=utf-8")
    }

    fn write(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        ));
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        out.flush()
    }
}

/// The reason phrase of the statuses `serve` answers with.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Accepts connections on `listener` for ever: each is read on a thread of its own and its
/// request given to `handle` there. At most [`Limits::connections`] are open at once (fewer
/// when the process may open fewer files); at the cap the one idle longest makes room.
pub fn accept<H>(listener: TcpListener, limits: Limits, handle: H)
where
    H: Fn(Request) + Send + Sync + 'static,
{
    let handle = Arc::new(handle);
    let policy = crate::net::Policy {
        connections: limits.connections,
        ..SERVE
    };
    let gate = Gate::new(policy);
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                warn::accept_failed(&error, policy.warn_every);
                std::thread::sleep(BACK_OFF);
                continue;
            }
        };
        // A copy of the socket, to close it by when the connection must make room.
        let Ok(closer) = stream.try_clone() else {
            continue;
        };
        let Some(admitted) = gate.admit(move || drop(closer.shutdown(Shutdown::Both))) else {
            let busy = Response::text(503, "too many connections; try again\n");
            let _ = stream.set_write_timeout(Some(limits.write_time));
            let _ = busy.write(&mut stream, false);
            continue;
        };
        let handle = handle.clone();
        // A thread that cannot be started drops its connection (and its place) unanswered.
        let _ = std::thread::Builder::new().spawn(move || {
            let conn = admitted.conn().clone();
            serve_connection(stream, limits, &|request| {
                let _answering = conn.answering();
                handle(request)
            });
            drop(admitted);
        });
    }
}

/// Reads one request from `stream` and hands it to `handle`, or answers why it cannot.
fn serve_connection(mut stream: TcpStream, limits: Limits, handle: &dyn Fn(Request)) {
    if stream.set_write_timeout(Some(limits.write_time)).is_err() {
        return;
    }
    let read = {
        let deadline = Deadline {
            stream: &stream,
            until: Instant::now() + limits.head_time,
        };
        read_head(&mut BufReader::new(deadline), &limits)
    };
    match read {
        Ok(head) => handle(Request { head, stream }),
        Err(Refusal::Answer(status, why)) => {
            let refusal = Response::text(status, &format!("{why}\n"));
            if refusal.write(&mut stream, false).is_ok() {
                linger(&stream);
            }
        }
        Err(Refusal::Closed) => {}
    }
}

/// Ends the response, then reads (a little, briefly) what the client still sends, so that
/// closing does not reset the connection before the client has read the response.
fn linger(stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    if stream.set_read_timeout(Some(LINGER_TIME)).is_ok() {
        let _ = io::copy(&mut stream.take(LINGER_BYTES), &mut io::sink());
    }
}

/// A connection read with a deadline for all reads together, not for each.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Reads a request head within `limits`: the request line, then header lines up to an empty
/// one. A request with a body (`Content-Length` above 0, or `Transfer-Encoding`) is refused.
pub fn read_head(reader: &mut impl BufRead, limits: &Limits) -> Result<Head, Refusal> {
    let mut budget = limits.head;
    let too_long = Refusal::Answer(414, "the request line is too long");
    // Empty lines before a request line are allowed (and counted).
    let mut line = read_line(reader, limits.request_line, &mut budget, too_long)?;
    while line.is_empty() {
        line = read_line(reader, limits.request_line, &mut budget, too_long)?;
    }
    let (method, target) = request_line(&line)?;
    let too_large = Refusal::Answer(431, "the request's header fields are too large");
    let mut headers = Vec::new();
    loop {
        let line = read_line(reader, limits.header_line, &mut budget, too_large)?;
        if line.is_empty() {
            break;
        }
        if headers.len() == limits.headers {
            return Err(Refusal::Answer(
                431,
                "the request has too many header fields",
            ));
        }
        headers.push(header_field(&line)?);
    }
    refuse_body(&headers)?;
    Ok(Head {
        method,
        target,
        headers,
    })
}

/// `METHOD TARGET HTTP/1.x` into its method and target.
fn request_line(line: &[u8]) -> Result<(String, String), Refusal> {
    let bad = Refusal::Answer(400, "bad request line");
    let line = std::str::from_utf8(line).map_err(|_| bad)?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad);
    };
    if !is_token(method) || target.is_empty() || target.chars().any(char::is_control) {
        return Err(bad);
    }
    match version {
        "HTTP/1.0" | "HTTP/1.1" => Ok((method.to_string(), target.to_string())),
        v if v.starts_with("HTTP/") => Err(Refusal::Answer(505, "only HTTP/1.x is served")),
        _ => Err(bad),
    }
}

/// `Name: value` into its name and value (surrounding blanks removed).
fn header_field(line: &[u8]) -> Result<(String, String), Refusal> {
    let bad = Refusal::Answer(400, "bad header field");
    let colon = line.iter().position(|&b| b == b':').ok_or(bad)?;
    let name = std::str::from_utf8(&line[..colon]).map_err(|_| bad)?;
    let value = &line[colon + 1..];
    if !is_token(name) || value.iter().any(|&b| b != b'\t' && b.is_ascii_control()) {
        return Err(bad);
    }
    let value = String::from_utf8_lossy(value);
    Ok((
        name.to_string(),
        value.trim_matches([' ', '\t']).to_string(),
    ))
}

/// Refuses a request that says it has a body: `serve` reads none.
fn refuse_body(headers: &[(String, String)]) -> Result<(), Refusal> {
    let too_large = Refusal::Answer(413, "serve takes no request body");
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("Transfer-Encoding") {
            return Err(too_large);
        }
        if name.eq_ignore_ascii_case("Content-Length") {
            let length: u64 =
                (value.parse()).map_err(|_| Refusal::Answer(400, "bad Content-Length"))?;
            if length > SERVE.body_bytes as u64 {
                return Err(too_large);
            }
        }
    }
    Ok(())
}

/// An HTTP token: a method or a header field's name.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// One line of at most `limit` bytes, its line end (`\n` or `\r\n`) removed; the bytes read,
/// line end included, are taken from `budget`. Longer than either is `too_long`; the
/// connection ending first is [`Refusal::Closed`]; the head's time running out is 408.
fn read_line(
    reader: &mut impl BufRead,
    limit: usize,
    budget: &mut usize,
    too_long: Refusal,
) -> Result<Vec<u8>, Refusal> {
    let mut line = Vec::new();
    // The limit, its line end, and one byte more to tell a line that is too long.
    let most = limit.min(*budget) as u64 + 3;
    let read = match reader.take(most).read_until(b'\n', &mut line) {
        Ok(read) => read,
        Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
            return Err(Refusal::Answer(408, "the request took too long to arrive"))
        }
        Err(_) => return Err(Refusal::Closed),
    };
    let ended = line.last() == Some(&b'\n');
    if ended {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    if line.len() > limit || read > *budget {
        return Err(too_long);
    }
    if !ended {
        return Err(Refusal::Closed);
    }
    *budget -= read;
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(raw: &[u8]) -> Result<Head, Refusal> {
        read_head(&mut io::Cursor::new(raw), &LIMITS)
    }

    fn status(raw: &[u8]) -> Option<u16> {
        match head(raw) {
            Err(Refusal::Answer(status, _)) => Some(status),
            _ => None,
        }
    }

    #[test]
    fn a_head_is_read_into_method_target_and_fields() {
        let read =
            head(b"\r\nGET /a?b HTTP/1.1\r\nHost: x:1\r\nX-Empty:\r\nAccept:\t*/* \n\r\nrest")
                .expect("a head");
        assert_eq!(
            (read.method.as_str(), read.target.as_str()),
            ("GET", "/a?b")
        );
        assert_eq!(
            read.headers,
            [("Host", "x:1"), ("X-Empty", ""), ("Accept", "*/*")]
                .map(|(n, v)| (n.to_string(), v.to_string()))
        );
    }

    #[test]
    fn each_limit_is_answered() {
        let long = |n: usize| "a".repeat(n);
        let target = format!("GET /{} HTTP/1.1\r\n\r\n", long(LIMITS.request_line));
        assert_eq!(status(target.as_bytes()), Some(414));
        let field = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", long(LIMITS.header_line));
        assert_eq!(status(field.as_bytes()), Some(431));
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(LIMITS.headers + 1)
        );
        assert_eq!(status(many.as_bytes()), Some(431));
        let total = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            format!("X: {}\r\n", long(LIMITS.header_line - 10)).repeat(LIMITS.headers - 1)
        );
        assert_eq!(status(total.as_bytes()), Some(431));
        let body = b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
        assert_eq!(status(body), Some(413));
        let chunked = b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(status(chunked), Some(413));
        assert!(head(b"GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").is_ok());
        let blank_lines = "\r\n".repeat(LIMITS.head);
        assert_eq!(status(blank_lines.as_bytes()), Some(414));
    }

    #[test]
    fn malformed_heads_are_bad_requests() {
        for raw in [
            &b"GET /\r\n\r\n"[..],
            b"GET  / HTTP/1.1\r\n\r\n",
            b"G(T / HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nNo colon\r\n\r\n",
            b"GET / HTTP/1.1\r\n folded: x\r\n\r\n",
            b"GET / HTTP/1.1\r\nX: a\x1bb\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        ] {
            assert_eq!(status(raw), Some(400), "{}", String::from_utf8_lossy(raw));
        }
        assert_eq!(status(b"GET / HTTP/2.0\r\n\r\n"), Some(505));
        assert_eq!(head(b"GET / HTTP/1.1\r\nHost: x"), Err(Refusal::Closed));
        assert_eq!(head(b""), Err(Refusal::Closed));
    }

    /// What the server answered before closing ("" when it closed or reset the connection).
    fn answer(stream: &mut TcpStream) -> String {
        let mut text = String::new();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        let _ = stream.read_to_string(&mut text);
        text
    }

    /// At the cap a connection still sending its head makes room for a new one; one that
    /// takes too long alone is answered 408; with every connection answering, 503.
    #[test]
    fn slow_heads_make_room_time_out_and_answers_are_capped() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binds");
        let port = listener.local_addr().expect("address").port();
        let limits = Limits {
            head_time: Duration::from_secs(2),
            connections: 1,
            ..LIMITS
        };
        std::thread::spawn(move || {
            accept(listener, limits, |r| {
                if r.target() == "/slow" {
                    std::thread::sleep(Duration::from_secs(2));
                }
                r.respond(Response::text(200, "ok"))
            })
        });
        let connect = || TcpStream::connect(("127.0.0.1", port)).expect("connects");
        let mut slow = connect();
        slow.write_all(b"GET / HTTP/1.1\r\nHost: x").expect("sends");
        std::thread::sleep(Duration::from_millis(200));
        let mut honest = connect();
        honest.write_all(b"GET / HTTP/1.1\r\n\r\n").expect("sends");
        assert!(answer(&mut honest).starts_with("HTTP/1.1 200 "));
        assert_eq!(answer(&mut slow), "", "the slow head was closed for room");
        // Its answer done, the honest connection goes (rather than linger).
        drop(honest);
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        let mut alone = connect();
        alone
            .write_all(b"GET / HTTP/1.1\r\nHost: x")
            .expect("sends");
        assert!(answer(&mut alone).starts_with("HTTP/1.1 408 "));
        assert!(started.elapsed() >= limits.head_time);
        drop(alone);
        // Its place is free again once its thread has closed it; a slow answer holds it.
        let freed = (0..100).any(|_| {
            let mut next = connect();
            let _ = next.write_all(b"GET /slow HTTP/1.1\r\n\r\n");
            std::thread::sleep(Duration::from_millis(300));
            let mut second = connect();
            let busy = answer(&mut second).starts_with("HTTP/1.1 503 ");
            busy && answer(&mut next).starts_with("HTTP/1.1 200 ")
        });
        assert!(freed, "a connection answering was closed for room");
    }

    #[test]
    fn responses_close_and_leave_the_body_out_for_head() {
        let response = Response::text(404, "not found\n");
        let mut out = Vec::new();
        response.write(&mut out, true).expect("written");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Length: 10\r\nConnection: close\r\n\r\n"
        );
    }
}
