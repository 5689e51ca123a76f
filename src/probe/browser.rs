//! `fieldnotes probe browser URL`: a scripted browser for `probe http --auth oauth` runs, set
//! as `$BROWSER` or as `xdg-open` on `PATH`. It GETs the client's authorization URL and
//! follows each redirect (the probe's `/authorize` approves at once and sends it to the
//! client's loopback callback) with a plain HTTP/1.1 client. Every hop must be `http` on this
//! machine: any other host is refused, never contacted. Query values are not printed (they
//! hold codes and state). When the URL is the probe's own `/auth/authorize`, the browser then
//! tells the probe how the client's callback answered (`POST /auth/browser`), so the flow log
//! can say whether a code reached the client: the one leg of a sign-in the probe cannot see.

use crate::error::{Error, Result};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The most of an answer read (its head is all that is used).
const MAX_ANSWER: u64 = 1 << 20;
/// How long one hop may take.
const HOP_TIME: Duration = Duration::from_secs(15);

/// One `http://` URL on this machine.
#[derive(Debug, PartialEq, Eq)]
struct Target {
    host: String,
    port: u16,
    path: String,
}

/// Why `url` may not be followed, or where it goes.
fn target(url: &str) -> std::result::Result<Target, String> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        format!(
            "{}: only http:// URLs on this machine are followed",
            shown(url)
        )
    })?;
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && !p.contains(']') => (
            h,
            p.parse::<u16>()
                .map_err(|_| format!("{}: the port is not a number", shown(url)))?,
        ),
        _ => (authority, 80),
    };
    if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
        return Err(format!(
            "{}: `{host}` is not this machine; the scripted browser follows only 127.0.0.1, \
             localhost and [::1]",
            shown(url)
        ));
    }
    let path = if path.starts_with('?') {
        format!("/{path}")
    } else {
        path.to_string()
    };
    Ok(Target {
        host: host.to_string(),
        port,
        path,
    })
}

/// `url` with its query values hidden, for messages.
fn shown(url: &str) -> String {
    super::scrub::query(url)
}

/// The next URL of a `Location`: absolute, or a path on the same host.
fn next(from: &Target, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        location.to_string()
    } else {
        format!("http://{}:{}{}", from.host, from.port, location)
    }
}

/// A connection to `target` (loopback only), a refused one retried while the client's
/// callback server may still be starting.
fn connect(target: &Target) -> std::result::Result<TcpStream, String> {
    let host = target.host.trim_start_matches('[').trim_end_matches(']');
    let address = (host, target.port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}:{}: {e}", target.port))?
        .find(|a| a.ip().is_loopback())
        .ok_or_else(|| format!("{host} does not resolve to a loopback address"))?;
    // The client's callback server may still be starting: a refused connection is retried.
    let mut stream = None;
    for _ in 0..20 {
        match TcpStream::connect_timeout(&address, HOP_TIME) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                std::thread::sleep(Duration::from_millis(250))
            }
            Err(e) => return Err(format!("{address}: {e}")),
        }
    }
    let stream = stream.ok_or_else(|| format!("{address}: connection refused"))?;
    let _ = stream.set_read_timeout(Some(HOP_TIME));
    let _ = stream.set_write_timeout(Some(HOP_TIME));
    Ok(stream)
}

/// What an answer said that the browser uses: its status, `Location`, and the report key a
/// probe's redirect carries.
struct Answer {
    status: u16,
    location: Option<String>,
    report_key: Option<String>,
}

/// Sends `method` to `target` (with `body`, form-encoded, if any): what the answer said.
fn request(method: &str, target: &Target, body: &str) -> std::result::Result<Answer, String> {
    let mut stream = connect(target)?;
    let address = format!("{}:{}", target.host, target.port);
    let form = if body.is_empty() {
        String::new()
    } else {
        format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        )
    };
    let request = format!(
        "{method} {} HTTP/1.1\r\nHost: {}:{}\r\nUser-Agent: fieldnotes-probe-browser/{}\r\n\
         Accept: text/html,*/*\r\n{form}Connection: close\r\n\r\n{body}",
        target.path,
        target.host,
        target.port,
        env!("CARGO_PKG_VERSION")
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("{address}: {e}"))?;
    let mut answer = Vec::new();
    let _ = stream.take(MAX_ANSWER).read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let head = text.split("\r\n\r\n").next().unwrap_or("");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("{address}: no HTTP answer"))?;
    let headers: Vec<(&str, &str)> = lines.filter_map(|l| l.split_once(':')).collect();
    let header = |wanted: &str| {
        (headers.iter())
            .find(|(name, _)| name.trim().eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.trim().to_string())
    };
    Ok(Answer {
        status,
        location: header("location"),
        report_key: header(crate::probe::http::oauth::REPORT_KEY_HEADER),
    })
}

/// How the client's callback answered: its status, or `unreached`.
#[derive(Debug, PartialEq, Eq)]
enum Callback {
    Answered(u16),
    Unreached,
}

/// What a run saw besides its outcome: how the first hop off the page's own origin (the
/// client's callback) answered, if the flow got that far, and the report key the page's
/// origin handed over.
#[derive(Default)]
struct Seen {
    callback: Option<Callback>,
    report_key: Option<String>,
}

/// Follows `url` to its end: the last answer's status, or why it stopped.
fn follow(url: &str, max_redirects: u32, seen: &mut Seen) -> std::result::Result<u16, String> {
    let mut url = url.to_string();
    let mut origin = None;
    for _ in 0..=max_redirects {
        let here = target(&url)?;
        let origin = origin.get_or_insert_with(|| (here.host.clone(), here.port));
        let off_origin = (&here.host, here.port) != (&origin.0, origin.1);
        let answered = request("GET", &here, "");
        if off_origin && seen.callback.is_none() {
            seen.callback = Some(match &answered {
                Ok(answer) => Callback::Answered(answer.status),
                Err(_) => Callback::Unreached,
            });
        }
        let answer = answered?;
        if !off_origin && answer.report_key.is_some() {
            seen.report_key = answer.report_key;
        }
        eprintln!("probe browser: GET {} -> {}", shown(&url), answer.status);
        match (answer.status, answer.location) {
            (300..=399, Some(location)) => url = next(&here, &location),
            (status @ 200..=299, _) => return Ok(status),
            (status, _) => {
                return Err(format!(
                    "{} answered {status}: the flow did not reach the client's callback",
                    shown(&url)
                ))
            }
        }
    }
    Err(format!(
        "more than {max_redirects} redirects: give --max-redirects"
    ))
}

/// Tells the probe at `first`'s origin how the client's callback answered, with the key its
/// redirect handed over (best effort: a probe that is gone is only mentioned).
fn report(first: &Target, callback: &Callback, key: &str) {
    let value = match callback {
        Callback::Answered(status) => status.to_string(),
        Callback::Unreached => "unreached".to_string(),
    };
    let to = Target {
        host: first.host.clone(),
        port: first.port,
        path: BROWSER_REPORT.to_string(),
    };
    if let Err(e) = request("POST", &to, &format!("callback={value}&key={key}")) {
        eprintln!("probe browser: could not tell the probe how the callback answered: {e}");
    }
}

/// Where the probe takes its browser's report of the callback.
const BROWSER_REPORT: &str = "/auth/browser";

/// Follows `url` to its end: exit status 0 when the last answer is 2xx. When the probe's
/// `/authorize` handed over a report key, it then reports how the client's callback answered.
pub fn browser(url: &str, max_redirects: u32) -> Result<u8> {
    let fail = |message: String| Error::Usage {
        message: format!("probe browser: {message}"),
    };
    let first = target(url).map_err(fail)?;
    let mut seen = Seen::default();
    let outcome = follow(url, max_redirects, &mut seen);
    // Only the probe's `/authorize` redirect hands over a key: without one, nobody asked.
    if let Some(key) = &seen.report_key {
        let callback = seen.callback.as_ref().unwrap_or(&Callback::Unreached);
        report(&first, callback, key);
    }
    outcome.map(|_| 0).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_http_is_followed() {
        assert_eq!(
            target("http://127.0.0.1:8080/auth/authorize?x=1"),
            Ok(Target {
                host: "127.0.0.1".into(),
                port: 8080,
                path: "/auth/authorize?x=1".into()
            })
        );
        assert!(target("http://localhost:9/cb").is_ok());
        assert!(target("http://[::1]:9/cb").is_ok());
        let far = target("http://example.com/cb?code=secret").unwrap_err();
        assert!(far.contains("`example.com` is not this machine"), "{far}");
        assert!(!far.contains("secret"), "{far}");
        assert!(target("https://127.0.0.1/").is_err());
        assert!(target("http://127.0.0.1.example.com/").is_err());
    }

    #[test]
    fn a_relative_location_stays_on_its_host() {
        let here = target("http://localhost:5/a").expect("loopback");
        assert_eq!(next(&here, "/b?c=d"), "http://localhost:5/b?c=d");
        assert_eq!(next(&here, "http://x/"), "http://x/");
    }
}
