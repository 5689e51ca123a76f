//! # fieldnotes
//!
//! A static site generator and pull-request linter for research knowledge bases: sites where
//! every claim is a note with sources pinned to a commit.
//!
//! ## The pipeline
//!
//! Data flows one way; each step takes what the previous one returned:
//!
//! 1. **load** ([`load::load`]): `site.yaml` and every `content/**/*.md`, in sorted order;
//!    the templates and static files listed; no file read outside the folder it was found in.
//! 2. **parse** ([`parse::parse`]): front matter into the typed `model`, positions kept;
//!    bodies scanned for links and headings.
//! 3. **index** ([`index::index`]): ids, aliases, links, backlinks, `related`, the matrix.
//! 4. **lint** ([`lint::lint`]): every rule over the index, findings as [`Diagnostic`]s.
//! 5. **render** ([`render::render`]): tera templates over view structs, HTML and Markdown;
//!    with `--excerpts`, each source's pinned lines read from its repository
//!    ([`provenance::excerpt::excerpts`]) and its pin verified beforehand; with `--sources
//!    REPORT.json`, each source's status read from a drift report ([`provenance::status`]).
//! 6. **write** (`write::StagedDir`): into a staging folder, swapped into place at the end.
//!
//! `lint` and `render` both read the index and never each other. [`build`] runs lint first
//! and writes nothing when it finds errors. [`provenance`] checks pinned sources against their
//! git repositories (`fieldnotes sources verify|drift|queue|bump`), outside the pipeline: it
//! needs a cache of clones that plain `lint` and `build` do without. [`serve`] runs the same steps
//! in memory and again after every save, re-reading, re-parsing and re-rendering only what the
//! save changed (`fieldnotes serve`). `mcp` serves the site to agents over the Model Context
//! Protocol (`fieldnotes mcp`), answering from the same pages and data API rendered in memory.
//!
//! ## Beside the pipeline
//!
//! - Foundation, read by every step and importing no step: [`config`] (`site.yaml`), `model`
//!   (typed front matter), [`text_file`] (a file's text and positions in it), `diagnostic`
//!   (findings as data), `error`, `dates` (the `YYYY-MM-DD` shape and the day lint measures
//!   from), `field_table` (which fields each kind of document takes), `terminal` (text printed for
//!   people, control characters escaped).
//! - Around the pipeline: [`provenance`] (pinned sources against their repositories),
//!   [`front_matter_schema`] (JSON Schemas of front matter, for editors), [`scaffold`]
//!   (`fieldnotes new`), `diff` (what a change does to the matrix and the notes, against a
//!   base commit: `fieldnotes diff`), [`submit`] (an issue form's report turned into the edit
//!   of a support cell, `fieldnotes submit`), `workflows` (the issue form and the submit
//!   and lint workflows for a site's repository, `fieldnotes workflows`).
//! - The command layer, which drives the steps and which no step imports: [`cli`] (arguments),
//!   [`commands`] (one function per command), [`init`] (a new site from a built-in example,
//!   `fieldnotes init`), [`serve`] (the development server), `lsp` (the
//!   language server), `mcp` (the knowledge base served to agents over MCP), `probe` (an MCP
//!   server that records a client's session as an observation, `fieldnotes probe`), and
//!   `net`, the one connection policy those servers share (caps, timeouts, `Host`/`Origin`).
//!
//! A test (`tests/integration/architecture.rs`) reads `src/` and fails when a step imports a
//! later one, lint and render import each other, a step imports the command layer, or two
//! modules import each other. Modules are crate-private unless the binary, the tests, the
//! examples or the benchmarks use them; the library's entry points are [`open`], [`check`] and
//! [`build`].
//!
//! ```no_run
//! let options = fieldnotes::BuildOptions::new(".".into(), "public".into());
//! let report = fieldnotes::build(&options)?;
//! println!("{} pages", report.pages);
//! # Ok::<(), fieldnotes::Error>(())
//! ```

/// The one write layer every writer goes through (no symlink followed below its root).
pub(crate) mod beneath;
pub mod cli;
pub mod commands;
pub mod config;
pub(crate) mod dates;
pub(crate) mod diagnostic;
pub(crate) mod diff;
pub(crate) mod error;
pub(crate) mod field_table;
pub mod front_matter_schema;
pub mod index;
/// `fieldnotes init`: a new site from a built-in example.
pub mod init;
pub mod lint;
pub mod load;
pub mod lsp;
pub(crate) mod mcp;
pub(crate) mod model;
pub(crate) mod net;
pub mod parse;
pub(crate) mod probe;
pub mod provenance;
pub mod render;
pub mod scaffold;
pub mod serve;
pub mod submit;
mod terminal;
pub mod text_file;
pub(crate) mod workflows;
pub(crate) mod write;

pub use diagnostic::{Diagnostic, Severity, Summary};
pub use error::{Error, Result};

use index::SiteIndex;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Loads, parses and indexes the site in `root`: everything lint and render read.
pub fn open(root: &Path) -> Result<SiteIndex> {
    let loaded = load::load(root)?;
    let parsed = parse::parse(loaded);
    Ok(index::index(parsed))
}

/// Opens the site and lints it.
pub fn check(root: &Path, today: chrono::NaiveDate) -> Result<(SiteIndex, Vec<Diagnostic>)> {
    let index = open(root)?;
    let findings = lint::lint(&index, today)?;
    Ok((index, findings))
}

/// What `build` is asked to do.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub root: PathBuf,
    pub out: PathBuf,
    /// Replaces `site.yaml`'s `baseUrl`.
    pub base_url: Option<String>,
    /// The day lint measures "future" and "stale" from.
    pub today: chrono::NaiveDate,
    /// Read each source's pinned lines from these repositories, for note pages
    /// (`build --excerpts`), and verify each pin there; `None`: no excerpts.
    pub excerpts: Option<provenance::cache::CacheConfig>,
    /// A drift report (`sources drift --format json`) that says whether each source holds,
    /// for note pages (`build --sources REPORT.json`); `None`: none.
    pub sources_report: Option<PathBuf>,
    /// Counts pages as they are rendered, for a progress bar; `None`: not counted.
    pub progress: Option<std::sync::Arc<Progress>>,
    /// Findings made before the build, reported with lint's (`--config-from`'s FN013): an
    /// error among them stops the build as lint's errors do.
    pub findings: Vec<Diagnostic>,
}

/// How far a build's render has come: pages rendered, out of how many (known once the site
/// is indexed; 0 before).
#[derive(Debug, Default)]
pub struct Progress {
    pub done: std::sync::atomic::AtomicUsize,
    pub total: std::sync::atomic::AtomicUsize,
}

impl BuildOptions {
    pub fn new(root: PathBuf, out: PathBuf) -> BuildOptions {
        BuildOptions {
            root,
            out,
            base_url: None,
            today: dates::today(None).unwrap_or_default(),
            excerpts: None,
            sources_report: None,
            progress: None,
            findings: Vec::new(),
        }
    }
}

/// What a build did: its findings (warnings, or the errors that stopped it) and its output.
#[derive(Debug)]
pub struct BuildReport {
    pub diagnostics: Vec<Diagnostic>,
    /// The site's files, for printing code frames.
    pub files: Vec<text_file::TextFile>,
    /// Pages rendered (each as HTML and Markdown).
    pub pages: usize,
    /// Files written, including feeds, data and static files.
    pub files_written: usize,
    pub elapsed: Duration,
    /// False when lint found errors and nothing was written.
    pub written: bool,
    /// The pinned lines of each source, read before render when `excerpts` was asked for
    /// (and lint found no errors).
    pub excerpts: Option<provenance::excerpt::Excerpts>,
}

/// Builds the site: lint, then render and write unless lint found errors. An output folder
/// that building into would harm is refused first ([`write::check_out`]).
pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    let started = Instant::now();
    write::check_out(&options.out, &options.root)?;
    let mut index = open(&options.root)?;
    if let Some(base_url) = &options.base_url {
        index.config.base_url = base_url.trim_end_matches('/').to_string();
    }
    let (index, mut diagnostics) = lint::lint_and_release(index, options.today)?;
    diagnostics.extend(options.findings.iter().cloned());
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let mut report = BuildReport {
        diagnostics,
        files: Vec::new(),
        pages: 0,
        files_written: 0,
        elapsed: Duration::ZERO,
        written: false,
        excerpts: None,
    };
    if !has_errors {
        report.excerpts = options.excerpts.as_ref().map(|config| {
            let mut cache = provenance::cache::Cache::new(config.clone());
            let mut excerpts = provenance::excerpt::excerpts(&index, &mut cache);
            let verification = provenance::verify::verify(&index, &mut cache);
            excerpts.statuses = Some(provenance::status::Statuses::of_verification(&verification));
            excerpts
        });
        if let Some(path) = &options.sources_report {
            let statuses = provenance::status::Statuses::of_report(&index, path)?;
            report
                .excerpts
                .get_or_insert_with(Default::default)
                .statuses = Some(statuses);
        }
        let mut out = write::StagedDir::create(&options.out, &options.root)?;
        if let Some(progress) = &options.progress {
            let total = render::page_count(&index);
            progress
                .total
                .store(total, std::sync::atomic::Ordering::Relaxed);
        }
        let render_options = render::RenderOptions {
            excerpts: report.excerpts.as_ref(),
            progress: options.progress.as_deref().map(|p| &p.done),
            ..render::RenderOptions::default()
        };
        let stats = render::render_with(&index, &render_options, &mut out, None)?;
        out.commit()?;
        report.pages = stats.pages;
        report.files_written = stats.files;
        report.written = true;
    }
    report.files = index.files;
    report.elapsed = started.elapsed();
    Ok(report)
}
