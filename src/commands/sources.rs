//! `fieldnotes sources verify|drift|queue`: pinned sources against their git repositories.

use super::report::{print_findings, Printing};
use super::Invocation;
use crate::cli::{
    DriftArgs, QueueArgs, RepoArgs, ReportFormat, SourcesArgs, SourcesCommand, VerifyArgs,
};
use crate::dates;
use crate::error::{Error, Result};
use crate::sources::cache::{Cache, CacheConfig};
use crate::sources::verify::Problem;
use crate::sources::{drift, report, verify};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub fn sources(run: &Invocation, args: SourcesArgs) -> Result<u8> {
    let root = run.root()?;
    match args.command {
        SourcesCommand::Verify(args) => verify(run, root, args),
        SourcesCommand::Drift(args) => drift(root, args),
        SourcesCommand::Queue(args) => queue(root, args),
    }
}

/// The repositories the flags describe: the cache folder, `--repo` mappings, offline, timeout.
pub(crate) fn cache_config(args: &RepoArgs) -> Result<CacheConfig> {
    let dir = args.cache.clone().unwrap_or_else(CacheConfig::default_dir);
    let mut config = CacheConfig::new(dir);
    for spec in &args.repos {
        config
            .map(spec)
            .map_err(|message| Error::Usage { message })?;
    }
    config.offline = args.offline;
    config.timeout = Duration::from_secs(args.timeout);
    Ok(config)
}

/// Verification findings in the lint format chosen; exit status as `lint`'s.
fn verify(run: &Invocation, root: &Path, args: VerifyArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos)?);
    let verification = verify::verify(&index, &mut cache);
    let diagnostics = crate::lint::lint_sources(&index, &verification)?;
    let printing = Printing {
        format: args.format,
        deny_warnings: args.deny_warnings,
        reports: &[],
    };
    let status = print_findings(run, root, &diagnostics, &index.files, &printing)?;
    let unchecked = verification
        .problems()
        .filter(|(_, p)| matches!(p, Problem::NotChecked(_)))
        .count();
    run.say(&format!(
        "{} pinned sources: {} hold, {} with problems, {unchecked} not checked",
        verification.sources.len(),
        verification.verified(),
        verification.sources.len() - verification.verified() - unchecked,
    ));
    Ok(status)
}

/// Each source's drift from its repository's default branch, as a table or JSON.
fn drift(root: &Path, args: DriftArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos)?);
    let drift = drift::drift(&index, &mut cache);
    print(&match args.format {
        ReportFormat::Table => report::drift_table(&index, &drift),
        ReportFormat::Json => report::drift_json(&index, &drift),
    });
    Ok(0)
}

/// The re-verification queue, as a table or JSON.
fn queue(root: &Path, args: QueueArgs) -> Result<u8> {
    let today = dates::today(args.today.as_deref())?;
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos)?);
    let drift = drift::drift(&index, &mut cache);
    let entries = report::queue(&index, &drift, today);
    print(&match args.format {
        ReportFormat::Table => report::queue_table(&entries),
        ReportFormat::Json => report::queue_json(&entries),
    });
    Ok(0)
}

fn print(text: &str) {
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
}
