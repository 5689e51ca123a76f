//! `fieldnotes sources verify|drift|queue|bump|release`: pinned sources against their git
//! repositories.

use super::report::{print_findings, render_findings, Printing};
use super::Invocation;
use crate::cli::{
    BumpArgs, DriftArgs, DriftFormat, DriftState, QueueArgs, ReleaseArgs, RepoArgs, ReportFormat,
    SourcesArgs, SourcesCommand, VerifyArgs,
};
use crate::dates;
use crate::error::{Error, Result};
use crate::index::SiteIndex;
use crate::lint::focus::Focus;
use crate::lint::format::Format;
use crate::provenance::cache::{Cache, CacheConfig};
use crate::provenance::verdict::State;
use crate::provenance::verify::Problem;
use crate::provenance::worktree;
use crate::provenance::Pinned;
use crate::provenance::{bump, drift, report, to_release, verify, version};
use crate::terminal;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub fn sources(run: &Invocation, args: SourcesArgs) -> Result<u8> {
    let root = run.root()?;
    match args.command {
        SourcesCommand::Verify(args) => verify(run, root, args),
        SourcesCommand::Drift(args) => drift(run, root, args),
        SourcesCommand::Queue(args) => queue(root, args),
        SourcesCommand::Bump(args) => bump(run, root, args),
        SourcesCommand::Release(args) => release(run, root, args),
    }
}

/// The repositories the flags describe: the cache folder, `--repo` mappings, offline, timeout.
/// A cache folder inside the site's repository (or the site) is refused: a pull request
/// could commit a "clone" there, whose configuration git would then read.
pub(crate) fn cache_config(args: &RepoArgs, root: &Path) -> Result<CacheConfig> {
    let dir = args.cache.clone().unwrap_or_else(CacheConfig::default_dir);
    refuse_cache_in_site(&dir, root)?;
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

fn refuse_cache_in_site(dir: &Path, root: &Path) -> Result<()> {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let Some(existing) = absolute.ancestors().find_map(|a| a.canonicalize().ok()) else {
        return Ok(());
    };
    let site = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let top = worktree::find(&site).map_or(site, |tree| tree.top);
    match existing.starts_with(&top) {
        false => Ok(()),
        true => Err(Error::Usage {
            message: format!(
                "--cache {}: the cache folder is inside {}, the site's repository, where a \
                 pull request could put a repository whose configuration git would read; \
                 give --cache a folder outside it (the default is ~/.cache/fieldnotes/repos)",
                terminal::escape(&dir.to_string_lossy()),
                terminal::escape(&top.to_string_lossy())
            ),
        }),
    }
}

/// Verification findings in the lint format chosen; exit status as `lint`'s, or 2 when no
/// source at all could be checked (unless `--allow-unchecked`).
fn verify(run: &Invocation, root: &Path, args: VerifyArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let keep = changed_since(root, &index, args.changed_since.as_deref())?;
    let mut cache = Cache::new(cache_config(&args.repos, root)?);
    let verification = verify::verify_where(&index, &mut cache, &keep);
    let diagnostics = crate::lint::lint_sources(&index, &verification)?;
    let printing = Printing {
        format: args.format,
        deny_warnings: args.deny_warnings,
        reports: &[],
        all_findings: true,
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
    if verification.nothing_checked() && !args.allow_unchecked {
        eprintln!(
            "error: no pinned source could be checked (see FN955 above): give fieldnotes the \
             repositories (network, a seeded --cache, or --repo URL=PATH), or pass \
             --allow-unchecked to accept it"
        );
        return Ok(2);
    }
    Ok(status)
}

/// Whether a run looks at a pinned source.
type Keep<'a> = Box<dyn Fn(&Pinned<'a>) -> bool + 'a>;

/// Which pinned sources a run looks at: all of them, or with `--changed-since REV` those of
/// the site files changed since REV (as `lint --changed-since` reads the change).
fn changed_since<'a>(root: &Path, index: &'a SiteIndex, rev: Option<&str>) -> Result<Keep<'a>> {
    let Some(rev) = rev else {
        return Ok(Box::new(|_| true));
    };
    let mut focus = Focus::default();
    focus.add_changes_since(root, rev)?;
    Ok(Box::new(move |pinned| {
        focus.reports_file(&pinned.place(index).0)
    }))
}

/// Each source's drift from its repository's default branch, as a table, JSON, or findings
/// in a lint format; exit status 1 when a source is in a `--fail-on` state.
fn drift(run: &Invocation, root: &Path, args: DriftArgs) -> Result<u8> {
    let index = crate::open(root)?;
    let keep = changed_since(root, &index, args.changed_since.as_deref())?;
    let mut cache = Cache::new(cache_config(&args.repos, root)?);
    let drift = match args.release {
        true => {
            let mut all = to_release::drift_to_release(&index, &mut cache);
            all.sources.retain(|d| keep(&d.pinned));
            all
        }
        false => drift::drift_where(&index, &mut cache, &keep),
    };
    match args.format {
        DriftFormat::Table => print(&report::drift_table(&index, &drift)),
        DriftFormat::Findings(Format::Json) => {
            let diagnostics = crate::lint::lint_drift(&index, &drift)?;
            let text = render_findings(run, root, &diagnostics, &index.files, Format::Json);
            print(&report::drift_json_with(&index, &drift, &text));
        }
        DriftFormat::Findings(format) => {
            let diagnostics = crate::lint::lint_drift(&index, &drift)?;
            let printing = Printing {
                format,
                deny_warnings: false,
                reports: &[],
                all_findings: true,
            };
            print_findings(run, root, &diagnostics, &index.files, &printing)?;
        }
    }
    let failing: Vec<State> = args.fail_on.iter().map(|s| drift_state(*s)).collect();
    // A `pin: fixed` source whose lines drifted fails nothing: its commit is the point.
    let failed = (drift.sources.iter()).any(|d| failing.contains(&d.queued_state()));
    Ok(u8::from(failed))
}

fn drift_state(state: DriftState) -> State {
    match state {
        DriftState::Moved => State::Moved,
        DriftState::Changed => State::Changed,
        DriftState::Gone => State::Gone,
        DriftState::Broken => State::Broken,
        DriftState::Unchecked => State::Unchecked,
    }
}

/// The re-verification queue, as a table or JSON.
fn queue(root: &Path, args: QueueArgs) -> Result<u8> {
    let today = dates::today(args.today.as_deref())?;
    let index = crate::open(root)?;
    let mut cache = Cache::new(cache_config(&args.repos, root)?);
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
fn bump(run: &Invocation, root: &Path, args: BumpArgs) -> Result<u8> {
    let index = crate::open(root)?;
    if let Some(message) = bump::refusal(&index) {
        return Err(Error::Usage { message });
    }
    let mut cache = Cache::new(cache_config(&args.repos, root)?);
    let drift = match args.release {
        true => to_release::drift_to_release(&index, &mut cache),
        false => drift::drift(&index, &mut cache),
    };
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
    let fixed = plan.left.iter().filter(|l| l.fixed).count();
    let fixed = match fixed {
        0 => String::new(),
        n => format!(" ({n} `pin: fixed`)"),
    };
    run.say(&format!(
        "{verb} {moved} source{} in {} file{}; {} already current; {} left as they are{fixed}",
        plural(moved),
        plan.files.len(),
        plural(plan.files.len()),
        plan.current,
        plan.left.len()
    ));
    for left in &plan.left {
        let column = left.column.map(|c| format!(":{c}")).unwrap_or_default();
        let state = match (left.refused, left.fixed) {
            (true, _) => "refused",
            (false, true) => "fixed",
            (false, false) => left.state.as_str(),
        };
        eprintln!(
            "  {}:{}{column}: {state}: {}",
            terminal::escape(&left.file),
            left.line,
            terminal::escape(&left.why)
        );
    }
    for notice in &drift.notices {
        eprintln!("note: {}", terminal::escape(notice));
    }
    Ok(u8::from(plan.left.iter().any(|l| l.refused)))
}

/// Writes in each code cell's `version` the first client release its pinned commits are in;
/// `--dry-run` only prints the table. Exit status 0: a cell no release contains yet is
/// listed, not an error.
fn release(run: &Invocation, root: &Path, args: ReleaseArgs) -> Result<u8> {
    let index = crate::open(root)?;
    if let Some(message) = bump::refusal(&index) {
        return Err(Error::Usage { message });
    }
    let mut cache = Cache::new(cache_config(&args.repos, root)?);
    let plan = version::plan(&index, &mut cache);
    print(&version::table(&plan));
    let files = plan.bump.files.len();
    if !args.dry_run {
        version::write(root, &plan)?;
    }
    let verb = if args.dry_run { "would write" } else { "wrote" };
    run.say(&format!("{verb} versions in {files} file{}", plural(files)));
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
