//! MCP 2026-07-28, served beside the older revisions: `server/discover`, requests that carry
//! their revision, capabilities and client info in `_meta` (no session), the `Mcp-Method` and
//! `Mcp-Name` headers checked against the body, cache hints on lists, `subscriptions/listen`
//! told of a page edited and a note added, and `lint` asking where a draft goes (multi
//! round-trip) — driven by rmcp's client (not written here) and by raw HTTP.

use super::{example_site, post, runtime, stdio_command, HttpServer};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, InputRequest, ProtocolVersion, ServerNotification,
    SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::ErrorData;
use serde_json::{json, Value};
use std::time::Duration;

/// A client that speaks only 2026-07-28: `server/discover`, then self-contained requests.
fn modern() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

fn arguments(value: Value) -> rmcp::model::JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

/// Lists the tools and calls `support`, at 2026-07-28.
async fn list_and_call<S: rmcp::Service<RoleClient>>(client: &RunningService<RoleClient, S>) {
    let info = client.peer_info().expect("the server's discover answer");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28);
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == "support"), "{tools:?}");
    super::clients::calls_support(client).await;
}

#[test]
fn a_2026_07_28_client_discovers_lists_and_calls_a_tool_over_both_transports() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    runtime().block_on(async {
        let stdio = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let client = ().serve_with_lifecycle(stdio, modern()).await;
        let client = client.expect("discover over stdio");
        list_and_call(&client).await;
        client.cancel().await.expect("close");

        let http = StreamableHttpClientTransport::from_uri(server.url());
        let client = ().serve_with_lifecycle(http, modern()).await;
        let client = client.expect("discover over HTTP");
        list_and_call(&client).await;
        client.cancel().await.expect("close");
    });
}

/// The `_meta` of a self-contained 2026-07-28 request.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "wire-check", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// The one JSON-RPC message of an answer: a JSON body, or an SSE stream's last event.
fn message(body: &str) -> Value {
    if let Ok(value) = serde_json::from_str(body) {
        return value;
    }
    let data = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .unwrap_or_else(|| panic!("no message in {body:?}"));
    serde_json::from_str(data).unwrap_or_else(|_| panic!("not JSON: {data:?}"))
}

#[test]
fn over_http_discover_answers_and_a_stateless_call_is_checked_against_its_headers() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let wait = Duration::from_secs(10);
    let version = ("MCP-Protocol-Version", "2026-07-28");

    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                          "params": {"_meta": meta()}});
    let headers = [version, ("Mcp-Method", "server/discover")];
    let answer = post(server.port, &headers, &discover.to_string(), wait);
    assert_eq!(answer.status, 200, "{}\n{}", answer.head, answer.body);
    let result = &message(&answer.body)["result"];
    let versions = result["supportedVersions"].to_string();
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        assert!(versions.contains(revision), "{result}");
    }

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "support", "_meta": meta(),
                                 "arguments": {"client": "cline", "capability": "transport.sse"}}});
    let call = call.to_string();
    let matching = [
        version,
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "support"),
    ];
    let answer = post(server.port, &matching, &call, wait);
    assert_eq!(answer.status, 200, "{}\n{}", answer.head, answer.body);
    assert!(
        !answer.head.to_ascii_lowercase().contains("mcp-session-id"),
        "a stateless request opens no session: {}",
        answer.head
    );
    let called = message(&answer.body);
    assert_eq!(called["id"], 2);
    assert_eq!(
        called["result"]["structuredContent"]["cells"][0]["client"],
        "cline"
    );

    let wrong_name = [
        version,
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "search"),
    ];
    let no_headers = [version];
    for headers in [&wrong_name[..], &no_headers[..]] {
        let answer = post(server.port, headers, &call, wait);
        assert_eq!(answer.status, 400, "{headers:?}: {}", answer.body);
        let error = message(&answer.body);
        assert_eq!(error["error"]["code"], -32020, "{headers:?}: {error}");
    }
}

#[test]
fn lists_carry_cache_hints_at_2026_07_28_only() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let wait = Duration::from_secs(10);
    let list = |method: &str| {
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": method,
                          "params": {"_meta": meta()}});
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", method),
        ];
        let answer = post(server.port, &headers, &body.to_string(), wait);
        assert_eq!(answer.status, 200, "{method}: {}", answer.body);
        message(&answer.body)["result"].clone()
    };
    let tools = list("tools/list");
    assert_eq!(tools["ttlMs"], 3_600_000, "{}", tools["ttlMs"]);
    assert_eq!(tools["cacheScope"], "public");
    let prompts = list("prompts/list");
    assert_eq!(prompts["ttlMs"], 3_600_000);
    let resources = list("resources/list");
    assert_eq!(
        resources["ttlMs"], 0,
        "pages change while the site is edited"
    );
    assert_eq!(resources["cacheScope"], "public");
}

/// The next notification of a subscription, within 30 s.
async fn next(subscription: &mut rmcp::service::Subscription) -> ServerNotification {
    tokio::time::timeout(Duration::from_secs(30), subscription.next())
        .await
        .expect("a notification within 30 s")
        .expect("the subscription stays open")
        .expect("a notification, not the end")
}

#[test]
fn subscriptions_listen_is_told_of_a_page_edited_and_a_note_added() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let research = site.path().join("content/research");
    let note = "cline-defaults-a-url-server-to-sse";
    let uri = format!("https://canimcp.io/research/{note}.md");
    runtime().block_on(async {
        let http = StreamableHttpClientTransport::from_uri(server.url());
        let client = ().serve_with_lifecycle(http, modern()).await;
        let client = client.expect("discover over HTTP");
        let filter = SubscriptionFilter::builder()
            .resources_list_changed()
            .tools_list_changed()
            .resource_subscription(uri.clone())
            .build();
        let mut subscription = client.peer().listen(filter).await.expect("listen");
        let accepted = subscription.acknowledged().clone();
        assert_eq!(accepted.resources_list_changed, Some(true));
        assert_eq!(accepted.tools_list_changed, None, "the tools never change");
        assert_eq!(accepted.resource_subscriptions, Some(vec![uri.clone()]));

        let path = research.join(format!("{note}.md"));
        let text = std::fs::read_to_string(&path).expect("read the note");
        std::fs::write(&path, format!("{text}\nOne more line.\n")).expect("edit the note");
        match next(&mut subscription).await {
            ServerNotification::ResourceUpdatedNotification(updated) => {
                assert_eq!(updated.params.uri, uri)
            }
            other => panic!("expected resources/updated, got {other:?}"),
        }

        let added = text.replace(&format!("id: {note}"), "id: a-note-added-while-listening");
        std::fs::write(research.join("a-note-added-while-listening.md"), added)
            .expect("add a note");
        match next(&mut subscription).await {
            ServerNotification::ResourceListChangedNotification(_) => {}
            other => panic!("expected resources/list_changed, got {other:?}"),
        }
        client.cancel().await.expect("close");
    });
}

/// A client that takes form elicitations and answers each with `path`.
struct Answers(&'static str);

impl rmcp::ClientHandler for Answers {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder().enable_elicitation().build();
        ClientConfig::new(
            capabilities,
            rmcp::model::Implementation::new("answers", "1"),
        )
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        assert!(matches!(
            request,
            ElicitRequestParams::FormElicitationParams { .. }
        ));
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"path": self.0})))
    }
}

#[test]
fn lint_asks_which_file_a_draft_without_an_id_replaces_and_lints_it_there() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    let replaced = "content/research/cline-defaults-a-url-server-to-sse.md";
    let draft = "---\ntitle: A draft with no id\n---\nA body.\n";
    let lint =
        || CallToolRequestParams::new("lint").with_arguments(arguments(json!({"text": draft})));
    runtime().block_on(async {
        let http = StreamableHttpClientTransport::from_uri(server.url());
        let client = Answers(replaced).serve_with_lifecycle(http, modern()).await;
        let client = client.expect("discover over HTTP");

        let CallToolResponse::InputRequired(asked) =
            client.call_tool_once(lint()).await.expect("tools/call")
        else {
            panic!("expected input_required for a draft with no id");
        };
        let requests = asked.input_requests.expect("input requests");
        assert!(matches!(
            requests.get("path"),
            Some(InputRequest::Elicitation(_))
        ));

        let answered = client
            .call_tool(lint())
            .await
            .expect("tools/call, answered");
        assert_ne!(answered.is_error, Some(true), "{answered:?}");
        let answer = answered.structured_content.expect("structured content");
        assert_eq!(answer["file"], replaced);
        assert_eq!(answer["replaces"], true);
        client.cancel().await.expect("close");

        // A client of an older revision cannot be asked: the tool error names `path`.
        let http = StreamableHttpClientTransport::from_uri(server.url());
        let legacy = Answers(replaced)
            .serve_with_lifecycle(http, ClientLifecycleMode::Initialize)
            .await
            .expect("initialize");
        let answered = legacy.call_tool(lint()).await.expect("tools/call");
        assert_eq!(answered.is_error, Some(true), "{answered:?}");
        assert!(format!("{answered:?}").contains("give `path`"));
        legacy.cancel().await.expect("close");
    });
}
