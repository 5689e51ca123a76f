//! Which protocol revisions are spoken, and what goes over the wire: 2026-07-28 is not
//! offered (`server/discover` is "method not found", as that revision's rules expect of an
//! older server, so a client that speaks both falls back to `initialize`), and every SSE
//! event carries a JSON-RPC message (no empty "priming" event, which clients of revisions
//! before 2025-11-25 fail to parse).

use super::{example_site, initialize, post, runtime, stdio_command, HttpServer};
use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{json, Value};
use std::time::Duration;

/// A client that prefers 2026-07-28 and falls back to `initialize` (as Claude Code does).
fn dual_era() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: None,
    }
}

#[test]
fn a_client_preferring_2026_07_28_falls_back_to_2025_11_25_over_both_transports() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    runtime().block_on(async {
        let stdio = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let http = StreamableHttpClientTransport::from_uri(server.url());
        for client in [
            ().serve_with_lifecycle(stdio, dual_era()).await,
            ().serve_with_lifecycle(http, dual_era()).await,
        ] {
            let client = client.expect("a session, after falling back to initialize");
            let info = client.peer_info().expect("initialize answer");
            assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
            assert!(!client
                .list_all_tools()
                .await
                .expect("tools/list")
                .is_empty());
            client.cancel().await.expect("close");
        }
    });
}

#[test]
fn server_discover_is_method_not_found_and_initialize_never_agrees_to_2026_07_28() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let discover = json!({
        "jsonrpc": "2.0", "id": 7, "method": "server/discover",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "wire-check", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}}
    });
    let answer = post(
        server.port,
        &[("MCP-Protocol-Version", "2026-07-28")],
        &discover.to_string(),
        Duration::from_secs(10),
    );
    assert_eq!(answer.status, 400, "{}\n{}", answer.head, answer.body);
    let error: Value = serde_json::from_str(&answer.body).expect("a JSON-RPC error body");
    assert_eq!(error["id"], 7);
    assert_eq!(error["error"]["code"], -32601, "{error}");

    let answer = post(
        server.port,
        &[],
        &initialize("2026-07-28"),
        Duration::from_secs(10),
    );
    assert_eq!(answer.status, 200, "{}", answer.head);
    let [ref message] = events(&answer.body)[..] else {
        panic!("one message, got {}", answer.body)
    };
    assert_eq!(
        message["result"]["protocolVersion"], "2025-11-25",
        "{message}"
    );
}

/// The `data` of each SSE event in `body`, each parsed as JSON (failing on one that is not).
fn events(body: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter(|event| event.lines().any(|l| l.starts_with("data")))
        .map(|event| {
            let data: String = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .collect();
            serde_json::from_str(&data)
                .unwrap_or_else(|_| panic!("an SSE event whose data is not JSON: {event:?}"))
        })
        .collect()
}

#[test]
fn every_sse_event_carries_a_json_rpc_message_in_every_revision() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    for revision in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let answer = post(
            server.port,
            &[],
            &initialize(revision),
            Duration::from_secs(10),
        );
        assert_eq!(answer.status, 200, "{revision}: {}", answer.head);
        let session = answer
            .head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("mcp-session-id:")
                    .map(|_| l)
            })
            .and_then(|l| l.split_once(':'))
            .map(|(_, id)| id.trim().to_string())
            .expect("a session id");
        assert_eq!(events(&answer.body).len(), 1, "{revision}: {}", answer.body);
        let headers = [
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", revision),
        ];
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(
            server.port,
            &headers,
            &initialized.to_string(),
            Duration::from_secs(5),
        );
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
        let answer = post(
            server.port,
            &headers,
            &list.to_string(),
            Duration::from_secs(10),
        );
        let messages = events(&answer.body);
        assert_eq!(messages.len(), 1, "{revision}: {}", answer.body);
        assert!(
            messages[0]["result"]["tools"].is_array(),
            "{revision}: {}",
            answer.body
        );
    }
}
