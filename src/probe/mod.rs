//! `fieldnotes probe`: an MCP server that records what a shipped client sends and answers,
//! and writes each session as an observation (`content/observations/<id>.md` beside the raw
//! transcript `<id>.jsonl`).
//!
//! [`session`] records and answers one client ([`protocol`]: `initialize` for every revision,
//! `server/discover` only in 2026-07-28 mode, one tool, resource and prompt) and asks the
//! [`scenarios`] (ping, roots, sampling, elicitation, tools list_changed) when [`settings`]
//! allow: a settle time after the handshake, or during a client request in flight;
//! [`transcript`] keeps every message, bounded; [`rules`] turn a transcript into results, one
//! table; [`observation`] writes the files atomically, [`scrub`]bed of machine folders, with
//! the [`package`] that ran. [`stdio`] and [`http`] are the transports (`http` with its
//! OAuth side, `--auth oauth`); [`browser`] is the scripted browser of OAuth runs. [`model`]
//! is the scripted model that makes a client call the probe's tool; its lines join the
//! transcript of the session whose [`session_mark`] they carry. [`judge`] runs the rules
//! again over recorded observations.

mod browser;
mod claim;
mod http;
mod judge;
mod model;
mod observation;
mod package;
mod protocol;
mod relist;
mod rules;
mod scenarios;
mod scrub;
mod session;
mod session_mark;
mod settings;
mod stdio;
mod tasks;
mod transcript;

use crate::error::{Error, Result};
pub use browser::browser;
pub use http::oauth::{AuthConfig, Discovery, Registration};
pub use http::{HttpMode, Listen};
pub use judge::judge;
pub use model::{serve as model, ModelOptions};
pub(crate) use observation::ClientNames;
use observation::Writer;
pub use package::Package;
pub use settings::{Protocol, Settings};
use std::path::PathBuf;
use std::time::Duration;

/// What `fieldnotes probe` is asked to do.
#[derive(Debug, Clone)]
pub struct ProbeOptions {
    /// Where observations are written.
    pub out: PathBuf,
    /// How the client was driven (the observation's `command`).
    pub command: String,
    /// How long a session may be silent before it is written, and how long the client has to
    /// answer each of the probe's requests.
    pub quiet: Duration,
    /// The site's clients by `clientInfo.name`, when a site was found.
    pub clients: Option<PathBuf>,
    /// The package that ran (`--package`), written as the observation's `package`.
    pub package: Option<Package>,
    /// The protocol era, the settle time and the idle limit.
    pub settings: Settings,
    /// `probe http --client`: the client id of a session that sent no clientInfo, or sent a
    /// name several clients claim.
    pub client: Option<String>,
}

/// Serves one client on standard input and output, recording it, until it goes.
pub fn stdio(options: &ProbeOptions) -> Result<()> {
    let writer = writer(options, "stdio");
    let runtime = runtime()?;
    let served = runtime.block_on(stdio::serve(&writer, options.settings, options.quiet));
    // Not waiting for the thread still blocked reading stdin, which a client that signals
    // the probe may keep open.
    runtime.shutdown_background();
    served
}

/// Serves clients over HTTP, recording each session, until the process is stopped.
pub fn http(options: &ProbeOptions, listen: Listen) -> Result<()> {
    let mut writer = writer(options, listen.mode.id());
    writer.auth = listen.auth.map(|a| (a.describe(), a.tag()));
    let runtime = runtime()?;
    let served = runtime.block_on(http::serve(writer, options.settings, options.quiet, listen));
    runtime.shutdown_background();
    served
}

fn writer(options: &ProbeOptions, mode: &'static str) -> Writer {
    let clients = options
        .clients
        .as_deref()
        .map(ClientNames::of_site)
        .unwrap_or_default();
    let mut writer = Writer::new(options.out.clone(), options.command.clone(), mode, clients);
    writer.package = options.package.clone();
    writer.client = options.client.clone();
    writer
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("tokio runtime", "start the probe", e))
}
