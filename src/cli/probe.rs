//! `fieldnotes probe`'s arguments: the transports, the scripted model and browser, OAuth,
//! and judging recorded observations again.

use clap::{Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum ProbeCommand {
    /// Serve one client on standard input and output: give this command to the client as
    /// its stdio MCP server.
    Stdio(ProbeArgs),
    /// Serve clients over HTTP: Streamable HTTP at /mcp, legacy HTTP+SSE at /sse; prints
    /// the URL. Runs until stopped, writing each session.
    Http(ProbeHttpArgs),
    /// A scripted model on loopback (Anthropic Messages, OpenAI Chat Completions and
    /// Responses, Gemini generateContent): it makes a client call the probe's tool, with no
    /// real model, and logs what the client sent it beside the probe's observations. Prints
    /// the base URL; runs until stopped.
    Model(ProbeModelArgs),
    /// A scripted browser for `--auth oauth` runs, to set as $BROWSER (or as xdg-open): GETs
    /// the URL and follows its redirects, all on this machine, to the client's callback.
    Browser(ProbeBrowserArgs),
    /// Run the current rules again over recorded observations (after a rule changed): print
    /// each result that would be added, changed or removed; with --write, rewrite only their
    /// `results:` blocks.
    Judge(ProbeJudgeArgs),
}

#[derive(Debug, clap::Args)]
pub struct ProbeJudgeArgs {
    /// Observations to judge: their .md files, or folders of them [default: the site's
    /// content/observations/, else ./observations].
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
    /// Rewrite each observation's `results:` block (nothing else in the file), each file
    /// replaced whole; nothing is written while any observation cannot be judged.
    #[arg(long)]
    pub write: bool,
}

#[derive(Debug, clap::Args)]
pub struct ProbeModelArgs {
    /// The port to listen on (loopback only); 0 picks a free one.
    #[arg(long, default_value_t = 8767)]
    pub port: u16,
    /// The folder the model-side lines go to: give the probe's --out, so its observations
    /// join them [default: as the probe's].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Keep each request body whole in the model-side lines (large; for finding out what a
    /// client sends its model).
    #[arg(long)]
    pub bodies: bool,
    /// The tool the model calls, by the name its MCP server lists it under (a client's
    /// prefix such as `mcp__server__` is matched too) [default: the probe's probe_echo].
    /// For driving a client against another server, e.g. `fieldnotes mcp`'s `support`.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// The arguments the model passes the tool, as a JSON object [default: {"text":
    /// "fieldnotes"} for probe_echo, {} for another tool].
    #[arg(long, value_name = "JSON")]
    pub arguments: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ProbeBrowserArgs {
    /// The URL the client opens (its authorization request); only loopback hosts are
    /// followed.
    pub url: String,
    /// The most redirects followed.
    #[arg(long, default_value_t = 10)]
    pub max_redirects: u32,
}

#[derive(Debug, clap::Args)]
pub struct ProbeHttpArgs {
    #[command(flatten)]
    pub common: ProbeArgs,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8766)]
    pub port: u16,
    /// The address to listen on: loopback unless you say otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// What /mcp serves: `streamable` (Streamable HTTP; legacy SSE at /sse too), `sse`
    /// (legacy HTTP+SSE at /sse only), `legacy-only-404` / `legacy-only-405` (GET /mcp is the
    /// legacy SSE stream, POST /mcp answers 404 / 405, so a client's fallback shows),
    /// `expire-session` (Streamable HTTP whose first tools/call is answered 404, the session
    /// ended, so whether the client begins a new one shows).
    #[arg(long, value_enum, default_value_t = ProbeMode::Streamable)]
    pub mode: ProbeMode,
    /// `oauth`: the server is also a protected resource (401 until a bearer token comes) and
    /// its own authorization server on loopback, recording the client's OAuth flow.
    #[arg(long, value_enum)]
    pub auth: Option<ProbeAuth>,
    /// With --auth oauth: how clients may register: `dcr` (dynamic client registration),
    /// `cimd` (Client ID Metadata Documents) or `both`.
    #[arg(long, value_enum, default_value_t = ProbeRegistration::Both, requires = "auth")]
    pub registration: ProbeRegistration,
    /// With --auth oauth: which discovery documents are served (the rest answer 404), comma
    /// separated: all, header (resource_metadata in the 401), prm, prm-path, prm-root, oauth,
    /// oauth-path, oauth-root, oidc, oidc-path, oidc-suffix, oidc-root, issuer-root.
    #[arg(long, default_value = "all", requires = "auth")]
    pub discovery: String,
    /// The site's client id a session is filed under when the client sent no clientInfo (a
    /// sign-in command such as `claude mcp login` makes no MCP request), or sent a name
    /// several clients claim (an SDK's default, such as `mcp`).
    #[arg(long, value_name = "ID")]
    pub client: Option<String>,
    /// With --auth oauth: a token without the scope `mcp:write` gets 403
    /// `insufficient_scope` naming it, so a client's scope step-up shows.
    #[arg(long, requires = "auth")]
    pub step_up: bool,
    /// With --auth oauth: seconds an access token is valid (`expires_in`), so refresh shows.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 3600,
        requires = "auth"
    )]
    pub token_lifetime: u64,
}

/// `fieldnotes probe http --auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProbeAuth {
    Oauth,
}

/// `fieldnotes probe http --registration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProbeRegistration {
    Dcr,
    Cimd,
    Both,
}

/// `fieldnotes probe http --mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProbeMode {
    Streamable,
    Sse,
    #[value(name = "legacy-only-404")]
    LegacyOnly404,
    #[value(name = "legacy-only-405")]
    LegacyOnly405,
    /// Streamable HTTP whose first tools/call is answered 404, the session ended: does the
    /// client begin a new one?
    #[value(name = "expire-session")]
    ExpireSession,
}

/// What every `fieldnotes probe` transport takes.
#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// Where to write observations [default: content/observations/ of the site found from
    /// the current folder up, else ./observations].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How the client was driven, written as the observation's `command`.
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub command: String,
    /// Seconds a session may be silent before it is written; also how long the client has to
    /// answer each of the probe's requests.
    #[arg(long, value_name = "SECONDS", default_value_t = 3.0)]
    pub quiet_timeout: f64,
    /// Which servers the probe behaves like: `current` (a 2025-11-25 server: `server/discover`
    /// is refused, so a client's `initialize` path shows) or `2026-07-28` (discover answered;
    /// the probe asks its questions only while a client request is in flight).
    #[arg(long, value_enum, default_value_t = ProbeProtocol::Current)]
    pub protocol: ProbeProtocol,
    /// Milliseconds the probe waits after `notifications/initialized` before asking, and
    /// after a `tools/list` answer before saying the tools changed.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub settle_ms: u64,
    /// Seconds a client may stay silent before the probe ends its session.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub idle_limit: f64,
    /// Milliseconds the probe's tool takes at least before it answers a call, so a client's
    /// cancellation (its timeout, a user's interrupt) shows.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub tool_delay: u64,
    /// The package that ran, written as the observation's `package`:
    /// `npm:@continuedev/cli@1.5.47`, `pypi:fast-agent-mcp@0.10.48` (the version must be
    /// SemVer for npm, PEP 440 for PyPI).
    #[arg(long, value_name = "ECOSYSTEM:NAME@VERSION")]
    pub package: Option<String>,
}

/// `fieldnotes probe --protocol`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProbeProtocol {
    Current,
    #[value(name = "2026-07-28")]
    Next,
}
