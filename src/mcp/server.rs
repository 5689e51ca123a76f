//! The MCP handler: tools ([`super::tools`]), resources ([`super::resources`]) and prompts
//! ([`super::prompts`]) answered from the current snapshot, and the connected clients told
//! when the site changed.

use super::site::{Knowledge, Snapshot};
use super::{prompts, resources, revision};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// What the server tells a client about itself in `initialize`.
const INSTRUCTIONS: &str = "A knowledge base of research notes, each claim pinned to code. \
    Ask `support` whether a client supports a capability (with the evidence), `search` for \
    notes, `note` for one note, `compare` for two clients; read any page as Markdown through \
    resources; check a draft note with `lint` before proposing it.";

/// One MCP session's handler (each HTTP session gets its own; all share the site).
#[derive(Clone)]
pub struct Server {
    knowledge: Knowledge,
    tools: ToolRouter<Server>,
    peers: Peers,
}

impl Server {
    pub fn new(knowledge: Knowledge, peers: Peers) -> Server {
        Server {
            knowledge,
            tools: Server::tools(),
            peers,
        }
    }

    /// The snapshot this request is answered from.
    pub(super) fn site(&self) -> Arc<Snapshot> {
        self.knowledge.now()
    }
}

/// The connected clients, each told `notifications/resources/list_changed` after a reload.
#[derive(Clone, Default)]
pub struct Peers(Arc<Mutex<Vec<Peer<RoleServer>>>>);

impl Peers {
    fn add(&self, peer: Peer<RoleServer>) {
        if let Ok(mut peers) = self.0.lock() {
            peers.retain(|p| !p.is_transport_closed());
            peers.push(peer);
        }
    }

    /// Tells every open session the resources changed; closed ones are dropped.
    pub async fn resources_changed(&self) {
        let peers: Vec<Peer<RoleServer>> = match self.0.lock() {
            Ok(mut peers) => {
                peers.retain(|p| !p.is_transport_closed());
                peers.clone()
            }
            Err(_) => return,
        };
        for peer in peers {
            // A session that went away meanwhile is dropped on the next call.
            let _ = peer.notify_resource_list_changed().await;
        }
    }
}

#[rmcp::tool_handler(router = self.tools)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("fieldnotes", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// Revisions up to 2025-11-25 ([`revision`]): 2026-07-28 is not offered.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        revision::supported()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.peers.add(context.peer);
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list(
            &self.site(),
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(&self.site()),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = resources::read(&self.site(), &request.uri)
            .map_err(|message| ErrorData::resource_not_found(message, None))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments: BTreeMap<String, String> = request
            .arguments
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
            .collect();
        prompts::get(&self.site(), &request.name, &arguments)
            .map(Into::into)
            .map_err(|message| ErrorData::invalid_params(message, None))
    }
}
