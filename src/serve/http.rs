//! Answers one HTTP request: a file of the site (HTML pages with the live-reload script),
//! the site's `404.html`, or one of the server's own endpoints under `/__fieldnotes/` — and
//! only to this machine: every request whose `Host`, target host or `Origin` names another
//! (DNS rebinding, a web page elsewhere) is answered 403 (`crate::net::origin`).

use super::events;
use super::paths::{self, content_type};
use super::state::{Files, State};
use super::wire::{Request, Response};
use crate::net::{origin, warn, SERVE};
use crate::render::output::Shared;
use std::net::IpAddr;

/// The prefix of the server's own endpoints.
pub const PREFIX: &str = "/__fieldnotes/";
/// The live-reload and overlay script.
const CLIENT_JS: &str = include_str!("client.js");
/// How long a request for an out-of-date file waits for the rebuild to catch up.
const PENDING_WAIT: std::time::Duration = std::time::Duration::from_secs(10);
/// What is put before `</body>` of every HTML page served.
const SCRIPT_TAG: &str = "<script src=\"/__fieldnotes/client.js\" defer></script>\n";

/// Who the server answers: this machine by name or loopback address, or the address it was
/// bound to ([`crate::net::origin::check`]).
pub struct Hosts {
    bind: IpAddr,
}

impl Hosts {
    /// For a server bound to `bind` (an address, or a name such as `localhost`).
    pub fn new(bind: &str) -> Hosts {
        let bind = (bind.trim_matches(['[', ']']).parse())
            .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
        Hosts { bind }
    }

    /// Why a request with these `Host` fields, absolute-form target and `Origin` may not be
    /// answered, or `Ok`.
    fn check(&self, request: &Request) -> Result<(), String> {
        let target = request.target();
        let authority = (target.strip_prefix("http://"))
            .or_else(|| target.strip_prefix("https://"))
            .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or(rest));
        let origins = request.headers("Origin");
        if origins.len() > 1 {
            return Err("more than one Origin header".to_string());
        }
        let origin = origins.first().copied();
        origin::check(&request.headers("Host"), authority, origin, self.bind)
    }
}

/// Answers `request` (in its own thread: an event stream lasts as long as the page).
pub fn handle(request: Request, state: &State, hosts: &Hosts) {
    if let Err(why) = hosts.check(&request) {
        warn::refused(&why, SERVE.warn_every);
        return request.respond(text(403, &format!("forbidden: {why}\n")));
    }
    if !matches!(request.method(), "GET" | "HEAD") {
        let refusal = text(405, "only GET and HEAD are served\n").with_header("Allow", "GET, HEAD");
        return request.respond(refusal);
    }
    let url = request.target().to_string();
    if let Some(endpoint) = url.strip_prefix(PREFIX) {
        let endpoint = endpoint.split(['?', '#']).next().unwrap_or("");
        return endpoints(request, endpoint, state);
    }
    let path = match paths::clean(&url) {
        Ok(path) => path,
        Err(bad) => {
            return request.respond(text(400, &format!("bad request: {}\n", bad.reason)));
        }
    };
    let path = state.strip_base(&path);
    // A page an edit changed but the rebuild has not caught up with yet is waited for.
    let name_of = |files: &Files| paths::resolve(files, path).map(|(name, _)| name.to_string());
    let Some(files) = state.site_for(name_of, PENDING_WAIT) else {
        let page = format!(
            "<!doctype html><title>Building…</title><p>The site has not built yet.</p>\n{SCRIPT_TAG}"
        );
        return request.respond(bytes(503, "text/html; charset=utf-8", page.into_bytes()));
    };
    let (status, name, body) = match paths::resolve(&files, path) {
        Some((name, body)) => (200, name, body.clone()),
        None => match files.get_key_value("404.html") {
            Some((name, body)) => (404, name.as_str(), body.clone()),
            None => return request.respond(text(404, "not found\n")),
        },
    };
    let kind = content_type(name);
    let body = if kind.starts_with("text/html") {
        inject(&body)
    } else {
        body.to_vec()
    };
    request.respond(bytes(status, kind, body));
}

/// `/__fieldnotes/…`: the event stream, the status, the script.
fn endpoints(request: Request, endpoint: &str, state: &State) {
    if endpoint == "client.js" {
        let body = CLIENT_JS.as_bytes().to_vec();
        return request.respond(bytes(200, "text/javascript; charset=utf-8", body));
    }
    if !matches!(endpoint, "events" | "status") {
        return request.respond(text(404, "not found\n"));
    }
    if endpoint == "status" {
        let json = serde_json::to_vec(&*state.status()).unwrap_or_default();
        return request.respond(bytes(200, "application/json", json));
    }
    let receiver = state.hub.subscribe();
    events::stream(request.into_stream(), &receiver);
}

/// An HTML page with the live-reload script before its last `</body>` (or at its end).
fn inject(html: &Shared) -> Vec<u8> {
    let at = find_last_ci(html, b"</body>").unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + SCRIPT_TAG.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(SCRIPT_TAG.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

/// Where the last `needle` (ASCII, any case) starts in `haystack`.
fn find_last_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    (0..=haystack.len().checked_sub(needle.len())?)
        .rev()
        .find(|&i| haystack[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// A response with `body` (left out for HEAD), never cached or sniffed.
fn bytes(status: u16, kind: &str, body: Vec<u8>) -> Response {
    Response::new(status, body)
        .with_header("Content-Type", kind)
        .with_header("Cache-Control", "no-store")
        .with_header("X-Content-Type-Options", "nosniff")
}

fn text(status: u16, message: &str) -> Response {
    bytes(
        status,
        "text/plain; charset=utf-8",
        message.as_bytes().to_vec(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_before_the_last_body_end() {
        let page: Shared = std::sync::Arc::new(b"<html><body><p>x</p></BODY></html>".to_vec());
        let out = String::from_utf8(inject(&page)).expect("utf-8");
        assert_eq!(
            out,
            format!("<html><body><p>x</p>{SCRIPT_TAG}</BODY></html>")
        );
    }
}
