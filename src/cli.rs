//! Command-line arguments (clap derive types only; `main.rs` acts on them).

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "fieldnotes",
    version,
    about = "Build and lint research knowledge bases"
)]
pub struct Cli {
    /// The site's root folder (holds site.yaml and content/).
    #[arg(long, global = true, default_value = ".")]
    pub root: PathBuf,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint the site, then write it to the output folder.
    Build(BuildArgs),
    /// Check notes, clients and capabilities and report every problem.
    Lint(LintArgs),
    /// Build the site in memory, serve it, and rebuild and reload pages on every save.
    Serve(ServeArgs),
    /// Print JSON Schema for note, client and capability front matter.
    Schema(SchemaArgs),
    /// Check pinned sources against their git repositories: verify, drift, queue.
    Sources(SourcesArgs),
    /// Write a new note, client or capability from a template (never overwrites).
    #[command(subcommand)]
    New(NewCommand),
    /// Print a shell completion script (bash, zsh, fish, …).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from these definitions.
    Man,
}

#[derive(Debug, Subcommand)]
pub enum NewCommand {
    /// A research note: content/research/<id>.md.
    Note {
        /// Kebab-case id, also the file name.
        id: String,
        /// A client the note is about (repeatable).
        #[arg(long = "client", value_name = "ID")]
        clients: Vec<String>,
        /// A capability the note is about (repeatable).
        #[arg(long = "capability", value_name = "ID")]
        capabilities: Vec<String>,
        /// The day written as lastVerified (YYYY-MM-DD); today when omitted.
        #[arg(long)]
        today: Option<String>,
    },
    /// A client: content/clients/<id>.md.
    Client {
        /// Kebab-case id, also the file name.
        id: String,
    },
    /// A capability: content/capabilities/<group.name>.md.
    Capability {
        /// Dotted id group.name, also the file name.
        id: String,
    },
}

#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// Where to write the site.
    #[arg(long, default_value = "public")]
    pub out: PathBuf,
    /// Use this base URL instead of site.yaml's `baseUrl`.
    #[arg(long)]
    pub base_url: Option<String>,
    /// The day "future" and "stale" are measured from (YYYY-MM-DD).
    #[arg(long)]
    pub today: Option<String>,
    /// Read each source's pinned lines from its repository, to show under the source link
    /// (and verify each pin, to show whether it holds).
    #[arg(long)]
    pub excerpts: bool,
    /// Show whether each source holds, moved, changed or is gone, from this drift report
    /// (`fieldnotes sources drift --format json`).
    #[arg(long, value_name = "REPORT.json")]
    pub sources: Option<PathBuf>,
    /// Print only errors: no warnings, no summary line, no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the URL is printed).
    #[arg(long, default_value_t = 1111)]
    pub port: u16,
    /// The address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Open the site in the browser once it is served.
    #[arg(long)]
    pub open: bool,
    /// The day "future" and "stale" are measured from (YYYY-MM-DD).
    #[arg(long)]
    pub today: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Report only findings in these files (the whole site is always checked).
    pub paths: Vec<PathBuf>,
    /// How to print findings.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// The day "future" and "stale" are measured from (YYYY-MM-DD).
    #[arg(long)]
    pub today: Option<String>,
    /// Report findings in files changed since this git revision, and those the change caused.
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
    /// Explain a rule (by code or name) and exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Which schema to print; all three when omitted.
    #[arg(value_enum)]
    pub kind: Option<SchemaKind>,
    /// Write note.schema.json, client.schema.json and capability.schema.json into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    Note,
    Client,
    Capability,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Github,
    Sarif,
    Junit,
}

#[derive(Debug, clap::Args)]
pub struct SourcesArgs {
    #[command(subcommand)]
    pub command: SourcesCommand,
}

#[derive(Debug, Subcommand)]
pub enum SourcesCommand {
    /// Check that each pinned commit, path and line range exists in its repository.
    Verify(VerifyArgs),
    /// Tell whether each repository's default branch still holds the pinned lines.
    Drift(DriftArgs),
    /// List the notes and support cells to re-verify: drifted first, then oldest.
    Queue(QueueArgs),
    /// Re-pin sources whose lines are unchanged or only moved to the default branch's head.
    Bump(BumpArgs),
}

/// Where the sources' repositories come from.
#[derive(Debug, Clone, clap::Args)]
pub struct RepoArgs {
    /// The cache of bare clones [default: $XDG_CACHE_HOME/fieldnotes/repos or
    /// ~/.cache/fieldnotes/repos].
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Read the repository at URL from the local repository PATH (never fetched); repeatable.
    #[arg(long = "repo", value_name = "URL=PATH")]
    pub repos: Vec<String>,
    /// Never clone or fetch: use what the cache holds.
    #[arg(long)]
    pub offline: bool,
    /// The longest a clone or fetch may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
    /// Clone repositories not yet in the cache without file contents (partial clones,
    /// `--filter=blob:none`): commits and folders now, each file when first read.
    #[arg(long)]
    pub partial: bool,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// How to print findings.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Check only the sources of files changed since this git revision.
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
    /// Exit with status 0 even when no source at all could be checked (no network, no cache).
    #[arg(long)]
    pub allow_unchecked: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, clap::Args)]
pub struct DriftArgs {
    /// How to print the report: a table, JSON, or as findings in a lint format.
    #[arg(long, value_enum, default_value_t = DriftFormat::Table)]
    pub format: DriftFormat,
    /// Compare only the sources of files changed since this git revision.
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
    /// Exit with status 1 when a source is in one of these states.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "STATES")]
    pub fail_on: Vec<DriftState>,
    #[command(flatten)]
    pub repos: RepoArgs,
}

/// How `sources drift` prints: its table or JSON (with the findings, as lint's JSON has them,
/// under `diagnostics`), or its findings (FN951–FN958) in one of lint's formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriftFormat {
    Table,
    Json,
    Human,
    Github,
    Sarif,
    Junit,
}

/// A drift state `--fail-on` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriftState {
    Moved,
    Changed,
    Gone,
    Broken,
    Unchecked,
}

#[derive(Debug, clap::Args)]
pub struct QueueArgs {
    /// How to print the queue.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// The day ages are measured to (YYYY-MM-DD).
    #[arg(long)]
    pub today: Option<String>,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, clap::Args)]
pub struct BumpArgs {
    /// Print what would change, as a diff, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Table,
    Json,
}
