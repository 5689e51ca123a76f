//! The tools: their JSON Schema inputs, and each answered from the current snapshot with
//! structured output. Bad input (an unknown client, capability or note) is a tool error
//! (`isError: true`) whose text reads like a lint finding and names the closest id.

use super::draft::{self, LintAnswer};
use super::evidence::{self, CapabilitiesAnswer, ClientsAnswer, CompareAnswer, SupportAnswer};
use super::search::{self, SearchAnswer};
use super::server::Server;
use super::{schema, work};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::ToolAnnotations;
use rmcp::{tool, tool_router, Json};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SupportArgs {
    /// A client: its id (`cline`), title (`Cline`) or the name it announces in `initialize`.
    /// Without it: every client's support for the capability.
    #[serde(default)]
    pub client: Option<String>,
    /// A capability: its id (`elicitation.form`), an alias (`transport.sse`) or its title.
    /// Without it: every capability the client is known to support, or not.
    #[serde(default)]
    pub capability: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchArgs {
    /// Words to look for; a page must hold each (a word matches the terms it begins).
    pub query: String,
    /// The most results to return (default 10, at most 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoteArgs {
    /// The note's id (kebab-case, its file name).
    pub id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CapabilitiesArgs {
    /// Only this capability group (`transports`, `elicitation`, …).
    #[serde(default)]
    pub group: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CompareArgs {
    /// The first client (id, title or announced name).
    pub a: String,
    /// The second client.
    pub b: String,
    /// Only the capabilities where their statuses differ.
    #[serde(default)]
    pub only_differences: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LintArgs {
    /// The draft file's whole text: front matter between `---` lines, then the body.
    pub text: String,
    /// Where the draft goes in the site (`content/research/<id>.md`); by default the
    /// research note named by its front matter's `id`. A path the site has already is
    /// checked as an edit of that file.
    #[serde(default)]
    pub path: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoteAnswer {
    pub id: String,
    pub url: String,
    pub markdown_url: String,
    /// The front matter, as data (`null` when it is not YAML).
    #[schemars(schema_with = "object_or_null")]
    pub front_matter: serde_json::Value,
    /// The body, as Markdown.
    pub body: String,
    /// The whole file, front matter and body, as its author wrote it.
    pub markdown: String,
}

/// The schema of a value that is a JSON object or `null`.
fn object_or_null(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": ["object", "null"]})
}

/// The most results `search` returns.
const MAX_RESULTS: usize = 100;

/// Each tool returns `Result<Json<answer>, String>`: its structured answer, or the message of
/// a tool error. (Spelt out, not aliased: the macro reads the output schema off that type.)
#[tool_router(vis = "pub(super)")]
impl Server {
    #[tool(
        title = "Support for a capability",
        description = "Does a client support a capability? The status (yes, partial, no, \
                       unknown), the cell's notes, its sources pinned to commits and lines, the \
                       research notes behind it, and when it was last verified (with its age \
                       in days). Give a client, a capability, or both; ids, titles and aliases \
                       are accepted."
    )]
    async fn support(
        &self,
        Parameters(args): Parameters<SupportArgs>,
    ) -> Result<Json<SupportAnswer>, String> {
        let site = self.site().await;
        let named = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let client = named(&args.client).map(|c| site.client(&c)).transpose()?;
        let capability = named(&args.capability)
            .map(|c| site.capability(&c))
            .transpose()?;
        let cells = match (client, capability) {
            (Some(client), Some(capability)) => vec![evidence::cell(&site, client, capability)],
            (Some(client), None) => (site.index.matrix.groups.iter())
                .flat_map(|group| &group.capabilities)
                .map(|&capability| evidence::cell(&site, client, capability))
                .collect(),
            (None, Some(capability)) => site
                .index
                .matrix
                .clients
                .iter()
                .map(|&client| evidence::cell(&site, client, capability))
                .collect(),
            (None, None) => {
                return Err("error: give a `client`, a `capability`, or both".to_string())
            }
        };
        Ok(Json(SupportAnswer {
            today: site.today.to_string(),
            cells,
        }))
    }

    #[tool(
        title = "Search the knowledge base",
        description = "Search the knowledge base (notes, clients, capabilities, guides, spec \
                       revisions) as the site's search box does; returns titles, summaries and \
                       URLs, best first."
    )]
    async fn search(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<Json<SearchAnswer>, String> {
        let limit = args.limit.unwrap_or(10).clamp(1, MAX_RESULTS);
        let site = self.site().await;
        work::off_executor("search", move || {
            search::search(&site, &args.query, limit).map(Json)
        })
        .await
    }

    #[tool(
        title = "Read a research note",
        description = "A research note by id: its front matter as data, its body as Markdown, \
                       and the whole file."
    )]
    async fn note(
        &self,
        Parameters(args): Parameters<NoteArgs>,
    ) -> Result<Json<NoteAnswer>, String> {
        let site = self.site().await;
        let index = site.note(&args.id)?;
        let note = &site.index.content.notes[index];
        let file = &site.index.files[note.doc.file];
        let id = site.note_id(index).to_string();
        let api = site.notes.get(&id);
        let url = |key: &str| {
            api.and_then(|n| n[key].as_str())
                .unwrap_or_default()
                .to_string()
        };
        let front = note.doc.front_matter;
        Ok(Json(NoteAnswer {
            url: url("url"),
            markdown_url: url("markdownUrl"),
            front_matter: front_matter(file.text.get(front.start..front.end).unwrap_or_default()),
            body: file
                .text
                .get(note.doc.body.range.clone())
                .unwrap_or_default()
                .to_string(),
            markdown: file.text.clone(),
            id,
        }))
    }

    #[tool(
        title = "List clients",
        description = "Every client the site tracks: id, title, vendor, the names it announces, \
                       platforms, its page, and how many capabilities have each status."
    )]
    async fn clients(&self) -> Result<Json<ClientsAnswer>, String> {
        Ok(Json(evidence::clients(&*self.site().await)))
    }

    #[tool(
        title = "List capabilities",
        description = "Every capability the site tracks (optionally of one group): id, title, \
                       group, spec link, the revision that introduced it, aliases."
    )]
    async fn capabilities(
        &self,
        Parameters(args): Parameters<CapabilitiesArgs>,
    ) -> Result<Json<CapabilitiesAnswer>, String> {
        evidence::capabilities(&*self.site().await, args.group.as_deref()).map(Json)
    }

    #[tool(
        title = "Compare two clients",
        description = "Two clients side by side: each capability's status, notes and last \
                       verification for both, and whether they differ."
    )]
    async fn compare(
        &self,
        Parameters(args): Parameters<CompareArgs>,
    ) -> Result<Json<CompareAnswer>, String> {
        let site = self.site().await;
        let a = site.client(&args.a)?;
        let b = site.client(&args.b)?;
        Ok(Json(evidence::compare(&site, a, b, args.only_differences)))
    }

    #[tool(
        title = "Lint a draft",
        description = "Lint a draft note (or client, capability or guide file) in the site's \
                       context, as `fieldnotes lint` would once it is saved: each finding with \
                       its code, line, column, message and help. Check what you write before \
                       proposing it."
    )]
    async fn lint(
        &self,
        Parameters(args): Parameters<LintArgs>,
    ) -> Result<Json<LintAnswer>, String> {
        let site = self.site().await;
        work::off_executor("lint", move || {
            draft::lint(&site, &args.text, args.path.as_deref()).map(Json)
        })
        .await
    }
}

impl Server {
    /// The tools, their schemas in the subset every client takes ([`schema`]), each
    /// annotated as what every one of them is: it reads the site and nothing else.
    pub(super) fn tools() -> ToolRouter<Server> {
        let mut router = Server::tool_router();
        for route in router.map.values_mut() {
            schema::portable(&mut route.attr);
            route.attr.annotations = Some(read_only(route.attr.title.clone()));
        }
        router
    }
}

/// The annotations of a tool that only reads the site, which cannot change under it.
fn read_only(title: Option<String>) -> ToolAnnotations {
    let mut annotations = ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    annotations.title = title;
    annotations
}

/// The front matter block (`---` lines included) as JSON; `null` when it is not YAML.
fn front_matter(block: &str) -> serde_json::Value {
    let mut lines: Vec<&str> = block.lines().collect();
    if lines.first().is_some_and(|l| l.trim_end() == "---") {
        lines.remove(0);
    }
    if lines.last().is_some_and(|l| l.trim_end() == "---") {
        lines.pop();
    }
    serde_yaml::from_str(&lines.join("\n")).unwrap_or(serde_json::Value::Null)
}
