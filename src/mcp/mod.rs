//! `fieldnotes mcp`: the knowledge base served to agents over the Model Context Protocol, on
//! stdio or over Streamable HTTP on this machine.
//!
//! The site is loaded and rendered in memory ([`site`]) and loaded again when a file changes
//! (watched as `fieldnotes serve` watches it), each client then told
//! `notifications/resources/list_changed`. [`server`] is the handler: [`tools`] answer
//! questions with structured output ([`evidence`] for support, clients, capabilities and
//! comparisons, [`search`] with the site's own search index, [`draft`] lints a draft in the
//! site's context), [`resources`] are the pages' `.md` renditions, [`prompts`] guide an agent
//! through verifying a note or researching a matrix cell. [`http`] is the HTTP transport:
//! loopback only, browser `Origin`s other than loopback refused with 403, its peers bounded.
//! [`revision`] says which protocol revisions are spoken (up to 2025-11-25), [`schema`] keeps
//! the tools' schemas in what every client takes, [`work`] runs slow tool calls off the
//! executor.

mod draft;
mod evidence;
mod http;
mod prompts;
mod resources;
mod revision;
mod schema;
mod search;
mod server;
mod site;
mod tools;
mod work;

use crate::error::{Error, Result};
use rmcp::ServiceExt;
use server::{Peers, Server};
use site::Knowledge;
use std::path::PathBuf;

/// What `fieldnotes mcp` is asked to do.
#[derive(Debug, Clone)]
pub struct McpOptions {
    pub root: PathBuf,
    /// The day ages ("verified N days ago") count to.
    pub today: chrono::NaiveDate,
    /// Streamable HTTP on this port of the loopback address (0 picks one); `None`: stdio.
    pub http_port: Option<u16>,
}

/// Serves the site until the client hangs up (stdio) or the process is stopped (HTTP).
pub fn serve(options: &McpOptions) -> Result<()> {
    let knowledge = Knowledge::open(&options.root, options.today)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io(&options.root, "start the MCP server", e))?;
    let peers = Peers::default();
    watch(&knowledge, &peers, runtime.handle().clone());
    runtime.block_on(async {
        match options.http_port {
            Some(port) => http::serve(knowledge, peers, port).await,
            None => stdio(knowledge, peers).await,
        }
    })
}

/// Serves one client on standard input and output, until it closes them.
async fn stdio(knowledge: Knowledge, peers: Peers) -> Result<()> {
    let running = Server::new(knowledge, peers)
        .serve(revision::LegacyOnly::new(
            rmcp::transport::async_rw::AsyncRwTransport::new_server(
                tokio::io::stdin(),
                tokio::io::stdout(),
            ),
        ))
        .await
        .map_err(|e| Error::Usage {
            message: format!(
                "no MCP session on standard input ({e}); `fieldnotes mcp` is started by an MCP \
                 client, which speaks first (README: Agents), or use --http"
            ),
        })?;
    running.waiting().await.map_err(|e| Error::Usage {
        message: format!("the MCP session on standard input failed: {e}"),
    })?;
    Ok(())
}

/// Loads the site again after every change to its files, and tells the clients. A change
/// that breaks the site keeps the last good snapshot (the error is printed on stderr); a
/// site that cannot be watched is served as it is.
fn watch(knowledge: &Knowledge, peers: &Peers, runtime: tokio::runtime::Handle) {
    let mut watch = match crate::serve::watch::watch(&knowledge.root) {
        Ok(watch) => watch,
        Err(error) => {
            eprintln!("warning: {error}; changes to the site will not be seen until restart");
            return;
        }
    };
    let (knowledge, peers) = (knowledge.clone(), peers.clone());
    std::thread::spawn(move || {
        while let Ok(mut changed) = watch.changes.recv() {
            while let Ok(more) = watch.changes.try_recv() {
                changed.extend(more);
            }
            watch.refresh(&knowledge.root);
            match knowledge.reload() {
                Ok(()) => drop(runtime.spawn({
                    let peers = peers.clone();
                    async move { peers.resources_changed().await }
                })),
                Err(error) => eprintln!(
                    "{}; still answering from the last good build",
                    error.terminal_line()
                ),
            }
        }
    });
}
