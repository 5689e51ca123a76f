//! The revisions with `initialize`, as before 2026-07-28 was served beside them: a client
//! that prefers 2026-07-28 gets it and one that initializes gets a session, `initialize`
//! never agrees to 2026-07-28 (that revision has no handshake), and SSE priming events go to
//! 2025-11-25 sessions only (clients of older revisions fail to parse an event that carries
//! no JSON-RPC message); their lists carry no 2026-07-28 cache hints.

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

/// A dual-era client (Claude Code's way) over HTTP gets 2026-07-28; one that initializes
/// gets a 2025-11-25 session over either transport. (Over stdio a dual-era client's probe
/// times out after 10 s, which a debug build loading the site on a busy machine can take; the
/// stdio `server/discover` is checked in `super::modern`.)
#[test]
fn a_dual_era_client_gets_2026_07_28_and_one_that_initializes_2025_11_25() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    runtime().block_on(async {
        let http = || StreamableHttpClientTransport::from_uri(server.url());
        let stdio = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let initialize = || ClientLifecycleMode::Initialize;
        for (client, revision) in [
            (
                ().serve_with_lifecycle(http(), dual_era()).await,
                ProtocolVersion::V_2026_07_28,
            ),
            (
                ().serve_with_lifecycle(http(), initialize()).await,
                ProtocolVersion::V_2025_11_25,
            ),
            (
                ().serve_with_lifecycle(stdio, initialize()).await,
                ProtocolVersion::V_2025_11_25,
            ),
        ] {
            let client = client.expect("a session");
            let info = client.peer_info().expect("the server's answer");
            assert_eq!(info.protocol_version, revision);
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
fn initialize_never_agrees_to_2026_07_28() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let answer = post(
        server.port,
        &[],
        &initialize("2026-07-28"),
        Duration::from_secs(10),
    );
    assert_eq!(answer.status, 200, "{}", answer.head);
    let message = events(&answer.body)
        .into_iter()
        .find(|m| m.get("result").is_some())
        .unwrap_or_else(|| panic!("a result in {}", answer.body));
    assert_eq!(
        message["result"]["protocolVersion"], "2025-11-25",
        "{message}"
    );
}

/// The `data` of each SSE event in `body` that carries any, each parsed as JSON (failing on
/// one that is not).
fn events(body: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter(|event| {
            event.lines().any(|l| {
                l.strip_prefix("data:")
                    .is_some_and(|d| !d.trim().is_empty())
            })
        })
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

/// The priming events in `body`: an id and empty data (and `retry`).
fn primings(body: &str) -> Vec<&str> {
    body.split("\n\n")
        .filter(|event| event.lines().any(|l| l.starts_with("id:")))
        .filter(|event| {
            event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .all(|d| d.trim().is_empty())
        })
        .collect()
}

#[test]
fn priming_events_go_to_2025_11_25_sessions_only() {
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
        assert!(
            messages[0]["result"].get("ttlMs").is_none(),
            "{revision}: no cache hints before 2026-07-28"
        );
        let primed = primings(&answer.body);
        if revision == "2025-11-25" {
            assert_eq!(primed.len(), 1, "{revision}: {}", answer.body);
            assert!(primed[0].contains("retry:"), "{revision}: {}", answer.body);
            assert!(
                answer.body.trim_start().starts_with(primed[0]),
                "{revision}: the priming event comes first: {}",
                answer.body
            );
        } else {
            assert!(primed.is_empty(), "{revision}: {}", answer.body);
        }
    }
}
