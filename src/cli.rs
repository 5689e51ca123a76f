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
    /// Print JSON Schema for note, client and capability front matter.
    Schema(SchemaArgs),
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
