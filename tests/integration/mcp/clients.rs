//! rmcp's client (not written here) over both transports: initialize, list the tools and call
//! one, read a resource, get a prompt; and over stdio, the resource list announced changed
//! when a note is added.

use super::{example_site, runtime, stdio_command, HttpServer, TODAY};
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::{json, Value};

const TOOLS: [&str; 7] = [
    "capabilities",
    "clients",
    "compare",
    "lint",
    "note",
    "search",
    "support",
];

/// Calls `support` for Cline and SSE (by title and alias) and checks the answer.
pub(super) async fn calls_support<S: rmcp::Service<RoleClient>>(
    client: &RunningService<RoleClient, S>,
) {
    let arguments = json!({"client": "Cline", "capability": "transport.sse"});
    let called = client
        .call_tool(
            CallToolRequestParams::new("support")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tools/call support");
    assert_ne!(called.is_error, Some(true), "{called:?}");
    let answer = called.structured_content.expect("structured content");
    assert_eq!(answer["today"], TODAY);
    assert_eq!(answer["cells"][0]["client"], "cline");
    assert_eq!(answer["cells"][0]["capability"], "transports.sse");
}

/// What a session answers, checked the same way over either transport.
async fn exercise(client: &RunningService<RoleClient, ()>) {
    let info = client.peer_info().expect("the server's initialize answer");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("fieldnotes")
    );
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");
    assert!(info.capabilities.tools.is_some() && info.capabilities.prompts.is_some());

    let tools = client.list_all_tools().await.expect("tools/list");
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(names, TOOLS);

    calls_support(client).await;

    let uri = "https://canimcp.io/research/cline-defaults-a-url-server-to-sse.md";
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("resources/read");
    let contents = serde_json::to_value(&read.contents).expect("contents as JSON");
    assert_eq!(contents[0]["mimeType"], "text/markdown");
    assert!(contents[0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("Cline")));

    let arguments = json!({"note": "cline-defaults-a-url-server-to-sse"});
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("verify-claim")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("prompts/get");
    let messages = serde_json::to_value(&prompt.messages).expect("messages as JSON");
    let steps = messages[0]["content"]["text"].as_str().unwrap_or_default();
    assert!(steps.contains("lastVerified"), "{messages}");
}

#[test]
fn rmcp_client_over_stdio_initializes_calls_a_tool_reads_a_resource_and_gets_a_prompt() {
    let site = example_site();
    runtime().block_on(async {
        let transport = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let client = ().serve(transport).await.expect("initialize over stdio");
        exercise(&client).await;
        client.cancel().await.expect("close the session");
    });
}

#[test]
fn rmcp_client_over_streamable_http_initializes_calls_a_tool_reads_a_resource_and_gets_a_prompt() {
    let site = example_site();
    let server = HttpServer::start(site.path());
    runtime().block_on(async {
        let transport = StreamableHttpClientTransport::from_uri(server.url());
        let client = ().serve(transport).await.expect("initialize over HTTP");
        exercise(&client).await;
        client.cancel().await.expect("close the session");
    });
}

#[test]
fn a_note_added_while_serving_is_announced_and_listed() {
    let site = example_site();
    runtime().block_on(async {
        let (changed, mut announced) = tokio::sync::mpsc::channel(4);
        let transport = TokioChildProcess::new(stdio_command(site.path())).expect("spawn");
        let client = Listener(changed)
            .serve(transport)
            .await
            .expect("initialize");
        // The site is opened and rendered beside the handshake: a page listed first is
        // served from a snapshot taken before the note below is added.
        client.list_all_resources().await.expect("resources/list");
        let research = site.path().join("content/research");
        let note = std::fs::read_to_string(research.join("cline-defaults-a-url-server-to-sse.md"))
            .expect("read a note");
        std::fs::write(
            research.join("a-note-added-while-serving.md"),
            note.replace(
                "id: cline-defaults-a-url-server-to-sse",
                "id: a-note-added-while-serving",
            ),
        )
        .expect("add a note");
        tokio::time::timeout(std::time::Duration::from_secs(30), announced.recv())
            .await
            .expect("notifications/resources/list_changed within 30 s");
        let listed: Value =
            serde_json::to_value(client.list_all_resources().await.expect("resources/list"))
                .expect("as JSON");
        assert!(listed.to_string().contains("a-note-added-while-serving.md"));
        client.cancel().await.expect("close");
    });
}

/// A client that passes on `notifications/resources/list_changed`.
struct Listener(tokio::sync::mpsc::Sender<()>);

impl rmcp::ClientHandler for Listener {
    async fn on_resource_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(()).await;
    }
}
