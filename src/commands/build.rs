//! `fieldnotes build`: lint, then write the site.

use super::Invocation;
use crate::cli::{BuildArgs, Format};
use crate::diagnostic::{Severity, Summary};
use crate::error::Result;
use crate::lint::format::{self, Options, Report};
use crate::{dates, BuildOptions, Progress};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Sites with more pages than this get a progress bar (on a terminal).
const PROGRESS_MIN_PAGES: usize = 500;

pub fn build(run: &Invocation, args: BuildArgs) -> Result<u8> {
    let root = run.root()?;
    let quiet = run.quiet();
    let show_progress = !quiet && std::io::stderr().is_terminal();
    // Before anything reads site.yaml: the base's settings bound this build (a preview of a
    // pull request cannot raise a limit or switch unsafeHtml on), as they bound lint.
    let findings = match &args.config_from {
        Some(rev) => super::lint::trusted_config(root, rev)?,
        None => Vec::new(),
    };
    let options = BuildOptions {
        root: root.to_path_buf(),
        out: if args.out.is_absolute() {
            args.out
        } else {
            root.join(args.out)
        },
        base_url: args.base_url,
        today: dates::today(args.today.as_deref())?,
        excerpts: match args.excerpts {
            true => Some(super::sources::cache_config(&args.repos, root)?),
            false => None,
        },
        sources_report: args.sources,
        progress: show_progress.then(|| Arc::new(Progress::default())),
        findings,
    };
    if let Some(dir) = crate::render::highlight::default_dir() {
        crate::render::highlight::use_disk_cache(&dir);
    }
    let bar = options.progress.clone().map(ProgressBar::start);
    let report = crate::build(&options);
    drop(bar);
    let report = report?;
    let content_files = report.files.len();
    // --quiet: errors only.
    let shown: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| !quiet || d.severity == Severity::Error)
        .cloned()
        .collect();
    if !shown.is_empty() {
        let printed = Report {
            diagnostics: &shown,
            files: &report.files,
            summary: Summary::of(&shown, content_files),
        };
        let options = Options {
            color: run.stderr_color(),
            quiet,
            limit: (!args.all_findings).then_some(format::FIRST_FINDINGS),
            ..Options::default()
        };
        eprint!("{}", format::render_with(&printed, Format::Human, &options));
    }
    if !report.written {
        eprintln!("error: the site has errors; nothing was written");
        return Ok(1);
    }
    if quiet {
        return Ok(0);
    }
    if let Some(excerpts) = report.excerpts.as_ref().filter(|_| args.excerpts) {
        eprintln!(
            "excerpts: {} sources, {} could not be read",
            excerpts.len(),
            excerpts.missing.len()
        );
        for missed in &excerpts.missing {
            eprintln!(
                "  {}:{}: {}: {}",
                missed.file, missed.line, missed.path, missed.reason
            );
        }
    }
    eprintln!(
        "built {} pages ({} files) into {} in {:.2?}",
        report.pages,
        report.files_written,
        options.out.display(),
        report.elapsed
    );
    Ok(0)
}

/// A one-line bar on standard error, redrawn while pages render; cleared when dropped.
struct ProgressBar {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ProgressBar {
    fn start(progress: Arc<Progress>) -> ProgressBar {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut drawn = false;
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let total = progress.total.load(Ordering::Relaxed);
                if total > PROGRESS_MIN_PAGES {
                    let done = progress.done.load(Ordering::Relaxed).min(total);
                    draw(done, total);
                    drawn = true;
                }
            }
            if drawn {
                let _ = write!(std::io::stderr(), "\r\x1b[K");
            }
        });
        ProgressBar {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `\r[#########           ] 4211/10075 pages`
fn draw(done: usize, total: usize) {
    const WIDTH: usize = 30;
    let filled = done * WIDTH / total.max(1);
    let bar = format!("{}{}", "#".repeat(filled), " ".repeat(WIDTH - filled));
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r[{bar}] {done}/{total} pages");
    let _ = err.flush();
}
