//! `fieldnotes mcp`: the knowledge base served to agents over the Model Context Protocol, on
//! stdio or over Streamable HTTP on this machine.
//!
//! The site is loaded and rendered in memory ([`site`]) and loaded again when a file changes
//! (watched as `fieldnotes serve` watches it), the clients then told what changed
//! ([`changes`]: sessions, and 2026-07-28 `subscriptions/listen` streams). [`server`] is the
//! handler: [`tools`] answer questions with structured output ([`evidence`] for support,
//! clients, capabilities and comparisons, [`search`] with the site's own search index,
//! [`draft`] lints a draft in the site's context, [`placing`] asks where a draft goes),
//! [`resources`] are the pages' `.md` renditions, [`prompts`] guide an agent through
//! verifying a note or researching a matrix cell, [`cache`] says how long answers keep.
//! [`http`] is the HTTP transport: loopback only, browser `Origin`s other than loopback
//! refused with 403, its peers bounded. [`revision`] says which protocol revisions are spoken
//! (2024-11-05 to 2026-07-28), [`schema`] keeps the tools' schemas in what every client
//! takes, [`work`] runs slow tool calls off the executor.

mod cache;
mod changes;
mod draft;
mod evidence;
mod http;
mod placing;
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
use changes::Listeners;
use rmcp::ServiceExt;
use server::Server;
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
    let knowledge = Knowledge::open(&options.root, options.today);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io(&options.root, "start the MCP server", e))?;
    let listeners = Listeners::default();
    if options.http_port.is_some() {
        // Over HTTP the server is started before any client, so it is rendered before it
        // listens; over stdio the client is waiting for its handshake (see `Knowledge`).
        knowledge.now();
    }
    watch(&knowledge, &listeners, runtime.handle().clone());
    runtime.block_on(async {
        match options.http_port {
            Some(port) => http::serve(knowledge, listeners, port).await,
            None => stdio(knowledge, listeners).await,
        }
    })
}

/// Serves one client on standard input and output, until it closes them.
async fn stdio(knowledge: Knowledge, listeners: Listeners) -> Result<()> {
    let running = Server::new(knowledge, listeners)
        .serve(rmcp::transport::async_rw::AsyncRwTransport::new_server(
            tokio::io::stdin(),
            tokio::io::stdout(),
        ))
        .await
        .map_err(|e| Error::Usage {
            message: format!(
                "no MCP session on standard input ({e}); `fieldnotes mcp` is started by an MCP \
                 client, which speaks first (`fieldnotes mcp --help`; the manual: {}), or use \
                 --http",
                crate::error::manual("agents", None)
            ),
        })?;
    running.waiting().await.map_err(|e| Error::Usage {
        message: format!("the MCP session on standard input failed: {e}"),
    })?;
    Ok(())
}

/// Loads the site again after every change to its files, and tells the clients what changed.
/// A change that breaks the site keeps the last good snapshot (the error is printed on
/// stderr); a site that cannot be watched is served as it is.
fn watch(knowledge: &Knowledge, listeners: &Listeners, runtime: tokio::runtime::Handle) {
    let mut watch = match crate::serve::watch::watch(&knowledge.root) {
        Ok(watch) => watch,
        Err(error) => {
            eprintln!("warning: {error}; changes to the site will not be seen until restart");
            return;
        }
    };
    let (knowledge, listeners) = (knowledge.clone(), listeners.clone());
    std::thread::spawn(move || {
        while let Ok(mut changed) = watch.changes.recv() {
            while let Ok(more) = watch.changes.try_recv() {
                changed.extend(more);
            }
            watch.refresh(&knowledge.root);
            match knowledge.reload() {
                Ok((old, new)) => drop(runtime.spawn({
                    let (listeners, change) = (listeners.clone(), changes::diff(&old, &new));
                    async move { listeners.publish(change).await }
                })),
                Err(error) => eprintln!(
                    "{}; still answering from the last good build",
                    error.terminal_line()
                ),
            }
        }
    });
}
