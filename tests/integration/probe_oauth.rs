//! `fieldnotes probe http --auth oauth` end to end, by raw requests: the 401 challenge, the
//! discovery documents `--discovery` offers (the rest 404), the flow written as an
//! observation when no session follows, `probe browser` refusing other hosts, and its word on
//! whether the code reached the client's callback.

use super::probe::{exits, observations, read_observation, serve_http};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::time::Duration;

/// One request on a fresh connection: the whole answer as text.
fn ask(address: &str, method: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nUser-Agent: oauth-test/1\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// Stops the probe (SIGTERM) and reads the one observation it wrote: front matter and
/// transcript lines.
fn stopped(
    child: &mut std::process::Child,
    out: &std::path::Path,
) -> (serde_yaml::Value, Vec<serde_json::Value>) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(exits(child).success());
    let mds = observations(out);
    assert_eq!(mds.len(), 1, "{mds:?}");
    read_observation(&mds[0])
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"oauth-test","version":"1"}}}"#;

#[test]
fn an_unauthorized_client_is_challenged_and_its_discovery_recorded() {
    let out = tempfile::tempdir().expect("temp");
    let (mut child, address) = serve_http(
        out.path(),
        &[
            "--auth",
            "oauth",
            "--discovery",
            "header,prm-path,oauth-path",
        ],
    );
    let refused = ask(&address, "POST", "/mcp", INIT);
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    let challenge = format!(
        "www-authenticate: Bearer resource_metadata=\"http://{address}/.well-known/oauth-protected-resource/mcp\""
    );
    assert!(refused.contains(&challenge), "{refused}");
    let prm = ask(
        &address,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        "",
    );
    assert!(prm.starts_with("HTTP/1.1 200"), "{prm}");
    assert!(prm.contains(&format!(
        "\"authorization_servers\":[\"http://{address}/auth\"]"
    )));
    let oidc = ask(&address, "GET", "/.well-known/openid-configuration", "");
    assert!(oidc.starts_with("HTTP/1.1 404"), "{oidc}");
    let server = ask(
        &address,
        "GET",
        "/.well-known/oauth-authorization-server/auth",
        "",
    );
    assert!(
        server.contains("\"code_challenge_methods_supported\":[\"S256\"]"),
        "{server}"
    );
    assert!(server.contains("\"registration_endpoint\""), "{server}");
    let (front, lines) = stopped(&mut child, out.path());
    assert_eq!(front["outcome"].as_str(), Some("no-session"));
    assert_eq!(front["client"].as_str(), Some("oauth-test"));
    assert!(front["probe"]["auth"]
        .as_str()
        .is_some_and(|a| a.contains("registration=both")));
    let prm = &front["results"]["authorization.protectedResourceMetadata"];
    assert_eq!(prm["status"].as_str(), Some("yes"));
    let why = prm["why"].as_str().expect("why");
    assert!(
        why.contains("prm path 200, oidc root 404, oauth path 200"),
        "{why}"
    );
    // No sign-in was begun: nothing more than unknown is claimed of it.
    let oauth = &front["results"]["authorization.oauth"];
    assert_eq!(oauth["status"].as_str(), Some("unknown"));
    let cited = oauth["messages"][0].as_u64().expect("a line") as usize;
    assert_eq!(lines[cited - 1]["auth"]["status"], 401);
}

#[test]
fn the_scripted_browser_refuses_other_hosts() {
    let output = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["probe", "browser", "http://example.com/cb?code=abc"])
        .output()
        .expect("run");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`example.com` is not this machine"),
        "{stderr}"
    );
    assert!(!stderr.contains("abc"), "{stderr}");
}

/// The probe's own authorization URL for a Client ID Metadata Document client whose callback
/// is `callback` (a 43-character S256 challenge, as clients send).
fn authorize_url(address: &str, callback: u16) -> String {
    format!(
        "http://{address}/auth/authorize?response_type=code\
         &client_id=https%3A%2F%2Fclient.example%2Fmetadata.json\
         &redirect_uri=http%3A%2F%2F127.0.0.1%3A{callback}%2Fcallback&state=s\
         &code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
    )
}

/// Runs `probe browser URL` against a probe, stops the probe, and gives back its flow's
/// observation: `authorization.oauth` and the browser's record in the transcript.
fn flow_after_browser(
    url_for: impl Fn(&str) -> String,
) -> (serde_yaml::Value, Vec<serde_json::Value>, bool) {
    let out = tempfile::tempdir().expect("temp");
    let (mut child, address) = serve_http(out.path(), &["--auth", "oauth"]);
    assert!(ask(&address, "POST", "/mcp", INIT).starts_with("HTTP/1.1 401"));
    let browsed = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["probe", "browser", &url_for(&address)])
        .output()
        .expect("run");
    let (front, lines) = stopped(&mut child, out.path());
    (front, lines, browsed.status.success())
}

/// The code reached the client's callback (answered 200) and the client never exchanged it:
/// that is the client's doing, so `no`; the browser's report is a line of the flow.
#[test]
fn a_code_that_reached_the_callback_and_was_never_exchanged_is_no() {
    let callback = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = callback.local_addr().expect("address").port();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = callback.accept().expect("accept");
        let mut seen = [0u8; 2048];
        let _ = stream.read(&mut seen);
        let _ = stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
    });
    let (front, lines, browsed) = flow_after_browser(|address| authorize_url(address, port));
    server.join().expect("callback served");
    assert!(browsed);
    let oauth = &front["results"]["authorization.oauth"];
    assert_eq!(oauth["status"].as_str(), Some("no"), "{oauth:?}");
    let why = oauth["why"].as_str().expect("why");
    assert!(
        why.contains("the code reached its callback (the browser was answered 200)"),
        "{why}"
    );
    let report = lines
        .iter()
        .find(|l| l["auth"]["step"] == "browser")
        .expect("the browser's report is recorded");
    assert_eq!(report["auth"]["callback"], 200);
}

/// A callback nobody listens on: the code never reached the client, so nothing is said
/// against it (`unknown`, and why).
#[test]
fn a_callback_the_browser_could_not_reach_leaves_the_flow_unknown() {
    let free = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = free.local_addr().expect("address").port();
    drop(free);
    let (front, lines, browsed) = flow_after_browser(|address| authorize_url(address, port));
    assert!(!browsed);
    let oauth = &front["results"]["authorization.oauth"];
    assert_eq!(oauth["status"].as_str(), Some("unknown"), "{oauth:?}");
    let why = oauth["why"].as_str().expect("why");
    assert!(
        why.contains("could not hand the code to its callback (unreached)"),
        "{why}"
    );
    assert!(lines.iter().any(|l| l["auth"]["callback"] == "unreached"));
}

/// A report counts only as `callback=STATUS` or `callback=unreached` with a key the probe
/// handed to a browser in an `/authorize` redirect: the client under observation never sees
/// one, so whatever it posts there is refused and never recorded as a callback.
#[test]
fn a_browser_report_needs_the_key_of_a_redirect_the_probe_gave() {
    let out = tempfile::tempdir().expect("temp");
    let (mut child, address) = serve_http(out.path(), &["--auth", "oauth"]);
    for body in [
        "callback=unreached",
        "callback=200&key=guessed",
        "callback=%3Cscript%3E",
        "callback=99999",
        "nothing=1",
    ] {
        let answer = ask(&address, "POST", "/auth/browser", body);
        assert!(answer.starts_with("HTTP/1.1 400"), "{body}: {answer}");
    }
    // The key comes in the redirect's headers, to the browser alone.
    let redirect = ask(
        &address,
        "GET",
        &authorize_url(&address, 9).replace(&format!("http://{address}"), ""),
        "",
    );
    assert!(redirect.starts_with("HTTP/1.1 302"), "{redirect}");
    let key = redirect
        .lines()
        .find_map(|l| l.strip_prefix("fieldnotes-report-key: "))
        .expect("a report key")
        .trim()
        .to_string();
    // The client sees only the Location it is sent to, which carries no key.
    let location = (redirect.lines())
        .find(|l| l.to_ascii_lowercase().starts_with("location:"))
        .expect("a location");
    assert!(!location.contains(&key), "{location}");
    let taken = ask(
        &address,
        "POST",
        "/auth/browser",
        &format!("callback=200&key={key}"),
    );
    assert!(taken.starts_with("HTTP/1.1 204"), "{taken}");
    // Used once.
    let again = ask(
        &address,
        "POST",
        "/auth/browser",
        &format!("callback=unreached&key={key}"),
    );
    assert!(again.starts_with("HTTP/1.1 400"), "{again}");
    let (_, lines) = stopped(&mut child, out.path());
    let callbacks: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["auth"]["step"] == "browser")
        .map(|l| &l["auth"]["callback"])
        .collect();
    assert_eq!(callbacks, [&serde_json::json!(200)]);
}
