//! The MCP handler: tools ([`super::tools`]), resources ([`super::resources`]) and prompts
//! ([`super::prompts`]) answered from the current snapshot, each list with its cache hints
//! ([`super::cache`]), and the clients told when the site changed ([`super::changes`]):
//! sessions that subscribed, and 2026-07-28 `subscriptions/listen` streams.

use super::changes::{self, Listeners, Subscribed};
use super::site::{Knowledge, Snapshot};
use super::{cache, placing, prompts, resources, revision};
use crate::index::SiteIndex;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceContents, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the server tells a client about itself in `initialize`.
const INSTRUCTIONS: &str = "A knowledge base of research notes, each claim pinned to code. \
    Ask `support` whether a client supports a capability (with the evidence), `search` for \
    notes, `note` for one note, `compare` for two clients; read any page as Markdown through \
    resources; check a draft note with `lint` before proposing it.";

/// One MCP session's handler (each HTTP session and each stateless request gets its own;
/// all share the site and its listeners).
#[derive(Clone)]
pub struct Server {
    knowledge: Knowledge,
    tools: ToolRouter<Server>,
    listeners: Listeners,
    /// The pages this session subscribed to (`resources/subscribe`, before 2026-07-28).
    subscribed: Subscribed,
}

impl Server {
    pub fn new(knowledge: Knowledge, listeners: Listeners) -> Server {
        Server {
            knowledge,
            tools: Server::tools(),
            listeners,
            subscribed: Subscribed::default(),
        }
    }

    /// The opened site, without waiting for the render (waiting only for the opening, off
    /// the server's thread).
    async fn index(&self) -> Arc<SiteIndex> {
        let knowledge = self.knowledge.clone();
        match tokio::task::spawn_blocking(move || knowledge.index()).await {
            Ok(index) => index,
            Err(_) => self.knowledge.index(),
        }
    }

    /// The snapshot this request is answered from. While the first render runs, it is
    /// waited for off the server's thread, so requests that need no snapshot (`ping`,
    /// `tools/list`, `server/discover`) are answered meanwhile.
    pub(super) async fn site(&self) -> Arc<Snapshot> {
        if let Some(snapshot) = self.knowledge.latest() {
            return snapshot;
        }
        let knowledge = self.knowledge.clone();
        match tokio::task::spawn_blocking(move || knowledge.now()).await {
            Ok(snapshot) => snapshot,
            Err(_) => self.knowledge.now(),
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
            .enable_resources_subscribe()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("fieldnotes", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.knowledge.words().reword(INSTRUCTIONS))
    }

    /// Every revision up to 2026-07-28 ([`revision`]).
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        revision::supported()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.listeners.add(context.peer, self.subscribed.clone());
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(question) = placing::ask(&request, &context) {
            return Ok(question.into());
        }
        let request = placing::answered(request);
        self.tools
            .call(ToolCallContext::new(self, request, context))
            .await
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Titles and descriptions in the site's words (an editor, a property, …).
        let words = self.knowledge.words();
        let tools = (self.tools.list_all().into_iter())
            .map(|mut tool| {
                tool.title = tool.title.map(|t| words.reword(&t));
                tool.description = tool.description.map(|d| words.reword(&d).into());
                tool
            })
            .collect();
        let mut list = ListToolsResult::with_all_items(tools);
        (list.ttl_ms, list.cache_scope) = cache::hints(&context, cache::Life::Binary);
        Ok(list)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        // From the opened site while the first render runs (Claude Code lists resources
        // before its model sees any tool), with sizes once it is in.
        let resources = match self.knowledge.latest() {
            Some(site) => resources::list(&site.index, Some(&site.files)),
            None => resources::list(&*self.index().await, None),
        };
        let mut list = ListResourcesResult::with_all_items(resources);
        (list.ttl_ms, list.cache_scope) = cache::hints(&context, cache::Life::Files);
        Ok(list)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut list =
            ListResourceTemplatesResult::with_all_items(resources::templates(&*self.index().await));
        (list.ttl_ms, list.cache_scope) = cache::hints(&context, cache::Life::Files);
        Ok(list)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = resources::read(&*self.site().await, &request.uri)
            .map_err(|message| not_found(message, &request.uri))?;
        let mut read = ReadResourceResult::new(vec![contents]);
        (read.ttl_ms, read.cache_scope) = cache::hints(&context, cache::Life::Files);
        Ok(read.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut list = ListPromptsResult::with_all_items(prompts::list());
        (list.ttl_ms, list.cache_scope) = cache::hints(&context, cache::Life::Binary);
        Ok(list)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(changes::accepted(requested))
    }

    async fn listen(&self, stream: SubscriptionContext) -> Result<(), ErrorData> {
        self.listeners.listen(stream).await
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // The page's own URI (its `.md` one), as changes name it.
        let uri = match resources::read(&*self.site().await, &request.uri)
            .map_err(|message| not_found(message, &request.uri))?
        {
            ResourceContents::TextResourceContents { uri, .. } => uri,
            _ => request.uri,
        };
        if let Ok(mut subscribed) = self.subscribed.lock() {
            subscribed.insert(uri);
        }
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut subscribed) = self.subscribed.lock() {
            subscribed.remove(&request.uri);
        }
        Ok(())
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
        prompts::get(&*self.site().await, &request.name, &arguments)
            .map(Into::into)
            .map_err(|message| ErrorData::invalid_params(message, None))
    }
}

/// "Resource not found", naming the URI in its `data` as the specification asks (rmcp makes
/// its code -32602 for 2026-07-28 requests, -32002 before).
fn not_found(message: String, uri: &str) -> ErrorData {
    ErrorData::resource_not_found(message, Some(serde_json::json!({ "uri": uri })))
}
