//! `fieldnotes probe http --auth oauth` end to end, by raw requests: the 401 challenge, the
//! discovery documents `--discovery` offers (the rest 404), the flow written as an
//! observation when no session follows, and `probe browser` refusing other hosts.

use super::probe::{exits, observations, read_observation, serve_http};
use std::io::{Read, Write};
use std::net::TcpStream;
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
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(exits(&mut child).success());
    let mds = observations(out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (front, lines) = read_observation(&mds[0]);
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
