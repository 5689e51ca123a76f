//! Command-line arguments (clap derive types only; `main.rs` acts on them).

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Lint's output formats: the type is lint's own ([`crate::lint::format`]); clap reads it by
/// name.
pub use crate::lint::format::Format;

mod probe;
pub use probe::*;

#[derive(Debug, Parser)]
#[command(
    name = "fieldnotes",
    version,
    about = "Build and lint research knowledge bases"
)]
pub struct Cli {
    /// The site's root folder (holds site.yaml and content/) [default: the nearest folder,
    /// from the current one up, that holds a site.yaml].
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// When to colour output: `auto` colours a terminal unless NO_COLOR is set (FORCE_COLOR
    /// or CLICOLOR_FORCE colour anything).
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print less: errors only, no summary or status lines.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more: where the site is, what was checked, how long it took.
    #[arg(long, short, global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`: when output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the environment says otherwise.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint the site, then write it to the output folder.
    Build(BuildArgs),
    /// Check notes, clients and capabilities and report every problem.
    Lint(LintArgs),
    /// Build the site in memory, serve it, and rebuild and reload pages on every save.
    Serve(ServeArgs),
    /// Serve the knowledge base to agents over the Model Context Protocol (stdio, or --http).
    Mcp(McpArgs),
    /// Print JSON Schema for note, client and capability front matter.
    Schema(SchemaArgs),
    /// Check pinned sources against their git repositories: verify, drift, queue.
    Sources(SourcesArgs),
    /// Show what the work tree changes since a git revision: support cells, notes, pins,
    /// clients and capabilities, as Markdown (for a pull request) or JSON.
    Diff(DiffArgs),
    /// Start a new site: write a small example site that lints clean and builds into DIR (a
    /// new or empty folder).
    Init(InitArgs),
    /// Write a new note, client or capability from a template (never overwrites).
    #[command(subcommand)]
    New(NewCommand),
    /// Serve editors over stdio (Language Server Protocol): lint as you type, complete ids,
    /// hover, go to definition, references, rename.
    Lsp(LspArgs),
    /// Record an MCP client: serve it as an MCP server and write what it sent and answered
    /// as an observation (content/observations/<id>.md and .jsonl).
    #[command(subcommand)]
    Probe(ProbeCommand),
    /// Turn a "Report support" issue form's body into the edit of a client's support cell,
    /// checked by lint.
    Submit(SubmitArgs),
    /// Write the "Report support" issue form, the submit workflow and a lint workflow for
    /// this site's GitHub repository, running the released fieldnotes.
    Workflows(WorkflowsArgs),
    /// Print a shell completion script (bash, zsh, fish, …).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from these definitions.
    Man,
}

#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The folder to write the site into: created when missing, refused unless empty (a
    /// `.git` folder alone is allowed).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// The example to start from: `minimal` (a small "can I use" for EditorConfig, to rename
    /// to your own subject) or `mcp` (one MCP client, capability and note).
    #[arg(long, value_enum, default_value_t = crate::init::Example::Minimal)]
    pub example: crate::init::Example,
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
    /// Where to write the site. A relative path is taken from the site's root (`--root`), not
    /// from the current folder, as Hugo's `--destination` is taken from `--source`.
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
    /// Print every finding in the human format (by default: the first 20, then counts by rule).
    #[arg(long)]
    pub all_findings: bool,
    /// Take limits, unsafeHtml, theme and rule severities from site.yaml at this git revision
    /// (a pull request's base, for a preview build): the work tree's site.yaml may tighten
    /// them, never loosen them (a loosening is error FN013 at its line, and nothing is written).
    #[arg(long, value_name = "REV")]
    pub config_from: Option<String>,
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
pub struct LspArgs {
    /// The day "future" and "stale" are measured from (YYYY-MM-DD).
    #[arg(long)]
    pub today: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// Serve over Streamable HTTP on this machine's loopback address instead of stdio.
    #[arg(long)]
    pub http: bool,
    /// The port for --http; 0 picks a free one (the URL is printed).
    #[arg(long, default_value_t = 8765, requires = "http")]
    pub port: u16,
    /// The day ages ("verified N days ago") count to (YYYY-MM-DD) [default: today].
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
    /// Explain a rule (by code or name) and exit; without a code, list the rules.
    #[arg(long, value_name = "CODE", num_args = 0..=1, default_missing_value = "list")]
    pub explain: Option<String>,
    /// Also write the findings in FORMAT to FILE (repeatable), e.g. `--report
    /// sarif=fieldnotes.sarif`: one run, several reports.
    #[arg(long, value_name = "FORMAT=FILE", value_parser = report_file)]
    pub report: Vec<ReportFile>,
    /// Print every finding in the human format (by default: the first 20, then counts by rule).
    #[arg(long)]
    pub all_findings: bool,
    /// Take limits, unsafeHtml, theme and rule severities from site.yaml at this git revision
    /// (a pull request's base): the work tree's site.yaml may tighten them, never loosen them
    /// (a loosening is finding FN013 at its line).
    #[arg(long, value_name = "REV")]
    pub config_from: Option<String>,
}

/// `--report FORMAT=FILE`.
#[derive(Debug, Clone)]
pub struct ReportFile {
    pub format: Format,
    pub path: PathBuf,
}

fn report_file(text: &str) -> Result<ReportFile, String> {
    let formats = || {
        let names: Vec<_> = Format::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        names.join(", ")
    };
    let (name, path) = text
        .split_once('=')
        .filter(|(_, path)| !path.is_empty())
        .ok_or_else(|| {
            format!(
                "expected FORMAT=FILE, e.g. sarif=fieldnotes.sarif (formats: {})",
                formats()
            )
        })?;
    let format = Format::from_str(name, false)
        .map_err(|_| format!("no format `{name}`; one of: {}", formats()))?;
    Ok(ReportFile {
        format,
        path: PathBuf::from(path),
    })
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
    /// Name in each support cell's `version` the client release its pinned code is first in.
    Release(ReleaseArgs),
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
    /// Compare the sources in each client's own repository with the client's newest release
    /// (its `releaseTags`) instead of the default branch.
    #[arg(long)]
    pub release: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

/// How `sources drift` prints: its table, or its findings (FN951–FN958) in one of lint's
/// formats (`json`: the drift report, with the findings as lint's JSON has them under
/// `diagnostics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriftFormat {
    Table,
    Findings(Format),
}

impl ValueEnum for DriftFormat {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: std::sync::OnceLock<Vec<DriftFormat>> = std::sync::OnceLock::new();
        VARIANTS.get_or_init(|| {
            let lint = Format::value_variants().iter().copied();
            std::iter::once(DriftFormat::Table)
                .chain(lint.map(DriftFormat::Findings))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            DriftFormat::Table => Some(clap::builder::PossibleValue::new("table")),
            DriftFormat::Findings(format) => format.to_possible_value(),
        }
    }
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
    /// Re-pin the sources in each client's own repository to the client's newest release
    /// (its `releaseTags`) instead of the default branch's head.
    #[arg(long)]
    pub release: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, clap::Args)]
pub struct ReleaseArgs {
    /// Print each cell's release and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub repos: RepoArgs,
}

#[derive(Debug, clap::Args)]
pub struct SubmitArgs {
    /// The body (`### Client`, `### Capability`, … as GitHub writes an issue form's
    /// answers), or `-` for standard input.
    pub form: PathBuf,
    /// Print the change, as a diff, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The day written as the cell's lastVerified (YYYY-MM-DD); today when omitted.
    #[arg(long)]
    pub today: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct WorkflowsArgs {
    /// The top of the site's git repository, where `.github/` is written [default: the
    /// folder above the site that holds `.git`, else the site's folder].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace files that are already there (without it, any one refuses the whole write).
    #[arg(long)]
    pub force: bool,
    /// The site's folder within the repository, as the workflows pass it to `--root`
    /// [default: the site's folder relative to the folder above it that holds `.git`].
    #[arg(long, value_name = "PATH")]
    pub site_path: Option<String>,
    /// The fieldnotes release the workflows install [default: this binary's version].
    #[arg(long, value_name = "X.Y.Z")]
    pub version: Option<String>,
    /// The GitHub repository whose releases the workflows download fieldnotes from.
    #[arg(long, value_name = "OWNER/NAME", default_value = crate::workflows::RELEASES)]
    pub releases: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Table,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The revision to compare with: a branch, tag or commit (`origin/main`); `REV...` is
    /// where HEAD branched from REV, as in `git diff REV...`.
    #[arg(long, value_name = "REV")]
    pub base: String,
    /// How to print the diff.
    #[arg(long, value_enum, default_value_t = DiffFormat::Markdown)]
    pub format: DiffFormat,
    /// Link each change to its page on the preview served at URL (the pull request's
    /// build, e.g. `https://pr-12.preview.example.org`).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Most bytes of Markdown printed (rows past it are counted in an "N more" line); the
    /// default fits a GitHub comment.
    #[arg(long, value_name = "BYTES", default_value_t = 60_000)]
    pub max_bytes: usize,
}

/// `fieldnotes diff --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Tables per client, for a pull-request comment or a job summary.
    Markdown,
    /// The diff as data (`version`, `base`, `settings`, `cells`, `notes`, `pins`, `clients`,
    /// `capabilities`, `unread`).
    Json,
}
