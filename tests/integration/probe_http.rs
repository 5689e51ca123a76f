//! `fieldnotes probe http` under what the audit found: every attempt recorded (a refused POST
//! with no fallback is an observation saying so), one observation per connection, a flood
//! grouped into one record, query strings scrubbed, and `--package` checked and written.

use super::probe::{exits, http, observations, read_observation, serve_http, status};
use super::support::TestSite;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// One request on a fresh connection: its status.
fn raw(address: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> u16 {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut head = [0u8; 12];
    let _ = stream.read(&mut head);
    String::from_utf8_lossy(&head[9..12]).parse().unwrap_or(0)
}

/// Stops the probe (SIGTERM: it writes what it holds) and lists the observations.
fn stop(mut child: Child, out: &Path) -> Vec<PathBuf> {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(exits(&mut child).success());
    observations(out)
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"no-fallback","version":"9.9.9"}}}"#;

#[test]
fn a_refused_post_without_fallback_is_a_no_session_observation_saying_so() {
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &["--mode", "legacy-only-405"]);
    assert_eq!(raw(&address, "POST", "/mcp", &[], INIT), 405);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (front, lines) = read_observation(&mds[0]);
    assert_eq!(front["outcome"].as_str(), Some("no-session"));
    assert_eq!(front["client"].as_str(), Some("no-fallback"));
    assert_eq!(status(&front, "transports.sse"), Some("no"));
    let sse = &front["results"]["transports.sse"];
    assert_eq!(sse["basis"].as_str(), Some("absent"));
    let cited = sse["messages"][0].as_u64().expect("a line") as usize;
    assert_eq!(lines[cited - 1]["http"]["status"], 405);
    // Nothing else is claimed of a client that began no session.
    assert_eq!(front["results"].as_mapping().map(|m| m.len()), Some(1));
}

#[test]
fn sessionless_requests_of_two_processes_are_two_observations() {
    // Two processes of the same client (one User-Agent), each beginning with server/discover
    // on its own connection: two observations. A second connection of one process (its first
    // request not server/discover, as Claude Code's requests beside its subscription stream)
    // joins that process's session.
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &["--protocol", "2026-07-28"]);
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"twin","version":"1"}}"#;
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{meta}}}}}"#);
    let list = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}}}}"#);
    let agent = [("User-Agent", "twin/1")];
    assert_eq!(raw(&address, "POST", "/mcp", &agent, &discover), 200);
    assert_eq!(raw(&address, "POST", "/mcp", &agent, &list), 200);
    assert_eq!(raw(&address, "POST", "/mcp", &agent, &discover), 200);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 2, "one observation per process: {mds:?}");
    let listed: Vec<Option<String>> = mds
        .iter()
        .map(|md| status(&read_observation(md).0, "tools.list").map(str::to_string))
        .collect();
    // One page of the probe's two was asked for: partial.
    assert!(
        listed.contains(&Some("partial".to_string())) && listed.contains(&None),
        "the tools/list joined the first process only: {listed:?}"
    );
}

#[test]
fn a_flood_of_sessionless_requests_is_grouped_and_bounded() {
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &[]);
    let junk = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let padding = "x".repeat(1000);
    for n in 0..200 {
        let agent = format!("flood-{n}-{padding}");
        assert_eq!(
            raw(&address, "POST", "/mcp", &[("User-Agent", &agent)], junk),
            400
        );
    }
    let mds = stop(child, out.path());
    assert!(mds.len() <= 17, "{} observations", mds.len());
    let floods = mds
        .iter()
        .filter(|p| p.to_string_lossy().contains("flood"))
        .count();
    assert_eq!(floods, 1, "{mds:?}");
    let bytes: u64 = std::fs::read_dir(out.path())
        .expect("list")
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    assert!(bytes < 6 << 20, "{bytes} bytes written");
}

#[test]
fn query_strings_never_reach_the_transcript() {
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &[]);
    let path = "/mcp?token=s3cr3t-token-value&api_key=k3y-value";
    assert_eq!(raw(&address, "POST", path, &[], INIT), 200);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (_, lines) = read_observation(&mds[0]);
    let text: String = lines.iter().map(|l| l.to_string()).collect();
    assert!(
        !text.contains("s3cr3t") && !text.contains("k3y-value"),
        "{text}"
    );
    assert!(text.contains("token=<redacted>"), "{text}");
}

#[test]
fn the_package_that_ran_names_the_observation_and_a_bad_one_is_refused() {
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &["--package", "npm:@scope/some-cli@1.5.47"]);
    assert_eq!(raw(&address, "POST", "/mcp", &[], INIT), 200);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    assert!(
        mds[0].to_string_lossy().contains("no-fallback-1-5-47-"),
        "{mds:?}"
    );
    let (front, _) = read_observation(&mds[0]);
    assert_eq!(front["package"]["ecosystem"].as_str(), Some("npm"));
    assert_eq!(front["package"]["name"].as_str(), Some("@scope/some-cli"));
    assert_eq!(front["package"]["version"].as_str(), Some("1.5.47"));
    assert_eq!(front["clientInfo"]["version"].as_str(), Some("9.9.9"));
    let started = Instant::now();
    let refused = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["probe", "stdio", "--package", "npm:x@1.0.0\"; touch pwned"])
        .output()
        .expect("run");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("not a SemVer version"), "{said}");
}

#[test]
fn a_stateless_clients_answers_to_the_probe_join_its_session() {
    // Goose 1.52.0 answers the probe's roots/list over 2026-07-28 as a POST holding only the
    // result, with no session and no `_meta`: it belongs to the session that asked, not to a
    // refused attempt of an unknown client.
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &["--protocol", "2026-07-28"]);
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"answerer","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}"#;
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{meta}}}}}"#);
    let answer = r#"{"jsonrpc":"2.0","id":"fieldnotes-probe/roots","result":{"roots":[]}}"#;
    let agent = [("User-Agent", "answerer/1")];
    assert_eq!(raw(&address, "POST", "/mcp", &agent, &discover), 200);
    assert_eq!(raw(&address, "POST", "/mcp", &agent, answer), 202);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "one observation, no refused attempt: {mds:?}");
    let (front, lines) = read_observation(&mds[0]);
    assert_eq!(front["client"].as_str(), Some("answerer"));
    assert!(
        lines
            .iter()
            .any(|l| l["msg"]["id"] == "fieldnotes-probe/roots"),
        "the answer is in the session's transcript"
    );
}

#[test]
fn a_refused_get_without_a_session_is_a_no_session_observation() {
    // OpenClaw 2026.9.6 given a Streamable HTTP URL with no transport opens an SSE stream
    // (GET), is refused and gives up: that attempt is recorded, not lost.
    let out = tempfile::tempdir().expect("temp");
    let args = [
        "--client",
        "client-a",
        "--command",
        "a GET of /mcp, as a test",
    ];
    let (child, address) = serve_http(out.path(), &args);
    let agent = [
        ("User-Agent", "sse-only/1"),
        ("Accept", "text/event-stream"),
    ];
    assert_eq!(raw(&address, "GET", "/mcp", &agent, ""), 400);
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (front, lines) = read_observation(&mds[0]);
    assert_eq!(front["outcome"].as_str(), Some("no-session"));
    assert_eq!(lines[0]["http"]["method"], "GET");
    assert_eq!(lines[0]["http"]["status"], 400);
    // It sent no clientInfo: none is written, and the observation lints clean as it is.
    assert_eq!(front["client"].as_str(), Some("client-a"));
    assert!(front.get("clientInfo").is_none(), "{front:?}");
    let site = TestSite::fixture("basic");
    for md in &mds {
        let name = md.file_name().expect("name").to_string_lossy().into_owned();
        let jsonl = name.replace(".md", ".jsonl");
        let read = |p: &Path| std::fs::read_to_string(p).expect("read");
        site.write(&format!("content/observations/{name}"), &read(md));
        site.write(
            &format!("content/observations/{jsonl}"),
            &read(&md.with_extension("jsonl")),
        );
    }
    assert_eq!(
        site.lint(),
        vec![],
        "a probe-written observation lints clean"
    );
}

/// `initialize` over Streamable HTTP on a fresh connection, with `User-Agent: agent`: the
/// session id the probe gave.
fn begin(address: &str) -> String {
    let (code, response) = http(address, "POST", &[("User-Agent", "agent")], INIT);
    assert_eq!(code, 200, "{response}");
    let id = response
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "));
    id.expect("a session id").trim().to_string()
}

#[test]
fn an_expired_session_and_the_one_begun_after_it_are_one_observation() {
    let out = tempfile::tempdir().expect("temp");
    let (child, address) = serve_http(out.path(), &["--mode", "expire-session"]);
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe_echo","arguments":{"text":"hi"}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let first = begin(&address);
    let on = |id: &str| {
        [
            ("Mcp-Session-Id", id.to_string()),
            ("User-Agent", "agent".to_string()),
        ]
    };
    let post = |id: &str, body: &str| {
        let headers = on(id);
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        http(&address, "POST", &headers, body).0
    };
    assert_eq!(post(&first, initialized), 202);
    assert_eq!(
        post(&first, call),
        404,
        "the probe ends the session at its first call"
    );
    assert_eq!(post(&first, call), 404, "and it stays ended");
    let second = begin(&address);
    assert_ne!(first, second);
    assert_eq!(post(&second, initialized), 202);
    assert_eq!(post(&second, call), 200, "the probe ends one session only");
    let mds = stop(child, out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (front, lines) = read_observation(&mds[0]);
    assert!(
        front["id"]
            .as_str()
            .is_some_and(|id| id.contains("-expire-session-")),
        "{front:?}"
    );
    assert_eq!(status(&front, "transports.sessions"), Some("yes"));
    let why = front["results"]["transports.sessions"]["why"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.ends_with("it began a new one with initialize and sent its tools/call again there"),
        "{why}"
    );
    let initializes = (lines.iter())
        .filter(|l| l["dir"] == "in" && l["msg"]["method"] == "initialize")
        .count();
    assert_eq!(initializes, 2, "both sessions' lines are in it");
}
