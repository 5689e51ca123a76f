//! `fieldnotes sources verify|drift|queue|bump`: pinned sources against their git
//! repositories.

use super::lint::print_findings;
use crate::cli::{
    BumpArgs, DriftArgs, QueueArgs, RepoArgs, ReportFormat, SourcesArgs, SourcesCommand, VerifyArgs,
};
use crate::error::{Error, Result};
use crate::sources::cache::{Cache, CacheConfig};
use crate::sources::verify::Problem;
use crate::sources::{bump, drift, report, verify};
use crate::terminal;
use crate::today;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub fn sources(root: &Path, args: SourcesArgs) -> Result<u8> {
    match args.command {
        SourcesCommand::Verify(args) => verify(root, args),
        SourcesCommand::Drift(args) => drift(root, args),
        SourcesCommand::Queue(args) => queue(root, args),
        SourcesCommand::Bump(args) => bump(root, args),
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
    config.partial = args.partial;
    Ok(config)
}

/// Verification findings in the lint format chosen; exit status as `lint`'s.
fn verify(root: &Path, args: VerifyArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos)?);
    let verification = verify::verify(&index, &mut cache);
    let diagnostics = crate::lint::lint_sources(&index, &verification)?;
    let status = print_findings(
        root,
        &diagnostics,
        &index.files,
        args.format,
        args.deny_warnings,
    );
    let unchecked = verification
        .problems()
        .filter(|(_, p)| matches!(p, Problem::NotChecked(_)))
        .count();
    eprintln!(
        "{} pinned sources: {} hold, {} with problems, {unchecked} not checked",
        verification.sources.len(),
        verification.verified(),
        verification.sources.len() - verification.verified() - unchecked,
    );
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
    let today = today::today(args.today.as_deref())?;
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

/// Re-pins the sources whose lines hold to the default branch's head; `--dry-run` prints the
/// diff instead. Sources left as they were are listed on standard error.
fn bump(root: &Path, args: BumpArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos)?);
    let drift = drift::drift(&index, &mut cache);
    let plan = bump::plan(&index, &drift);
    let moved: usize = plan.files.iter().map(|f| f.sources).sum();
    if args.dry_run {
        print(&bump::diff(&plan));
    } else {
        bump::write(root, &plan)?;
    }
    let verb = if args.dry_run {
        "would re-pin"
    } else {
        "re-pinned"
    };
    eprintln!(
        "{verb} {moved} source{} in {} file{}; {} already current; {} left as they are",
        plural(moved),
        plan.files.len(),
        plural(plan.files.len()),
        plan.current,
        plan.left.len()
    );
    for left in &plan.left {
        eprintln!(
            "  {}:{}: {}: {}",
            terminal::escape(&left.file),
            left.line,
            left.state.as_str(),
            terminal::escape(&left.why)
        );
    }
    for notice in &drift.notices {
        eprintln!("note: {}", terminal::escape(notice));
    }
    Ok(0)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn print(text: &str) {
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
}
