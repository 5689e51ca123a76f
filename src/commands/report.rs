//! Printing a lint run's findings: to standard output in the chosen format, and to each
//! `--report FORMAT=FILE`, with paths as each format's readers open them
//! ([`PathBase`]) and colour as [`super::Invocation`] says. Shared by `lint` and
//! `sources verify`.

use super::{site_root, Invocation};
use crate::cli::{Format, ReportFile};
use crate::diagnostic::{Diagnostic, Severity, Summary};
use crate::error::{Error, Result};
use crate::lint::format::{self, Options, PathBase, PathStyle, Report};
use crate::text_file::TextFile;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to print, and where.
pub(super) struct Printing<'a> {
    pub format: Format,
    /// Exit with status 1 on warnings too.
    pub deny_warnings: bool,
    pub reports: &'a [ReportFile],
    /// Every finding in the human format, not the first [`format::FIRST_FINDINGS`].
    pub all_findings: bool,
}

/// Writes each report file, then prints the findings to standard output, and returns the
/// exit status: 1 on errors, or on warnings with `deny_warnings`. With `-q`, the human and
/// concise formats print errors only and no summary (the status still counts everything).
pub(super) fn print_findings(
    run: &Invocation,
    root: &Path,
    diagnostics: &[Diagnostic],
    files: &[TextFile],
    printing: &Printing<'_>,
) -> Result<u8> {
    let summary = Summary::of(diagnostics, files.len());
    let bases = Bases::of(run, root);
    for report in printing.reports {
        let text = render(run, &bases, diagnostics, files, report.format, false, None);
        write_report(&report.path, &text)?;
        run.detail(&format!("wrote {}", report.path.display()));
    }
    let text = render(
        run,
        &bases,
        diagnostics,
        files,
        printing.format,
        run.stdout_color(),
        // Report files are complete; standard output shows the first findings unless asked.
        (!printing.all_findings).then_some(format::FIRST_FINDINGS),
    );
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(u8::from(
        summary.errors > 0 || (printing.deny_warnings && summary.warnings > 0),
    ))
}

/// The findings in `format`, as `print_findings` prints them to standard output (no colour,
/// every finding): for a command that puts them inside output of its own.
pub(super) fn render_findings(
    run: &Invocation,
    root: &Path,
    diagnostics: &[Diagnostic],
    files: &[TextFile],
    format: Format,
) -> String {
    let bases = Bases::of(run, root);
    render(run, &bases, diagnostics, files, format, false, None)
}

fn render(
    run: &Invocation,
    bases: &Bases,
    diagnostics: &[Diagnostic],
    files: &[TextFile],
    format: Format,
    color: bool,
    limit: Option<usize>,
) -> String {
    let for_people = matches!(format, Format::Human | Format::Concise);
    let quiet = run.quiet() && for_people;
    let errors: Vec<Diagnostic>;
    let shown = match quiet {
        true => {
            errors = (diagnostics.iter())
                .filter(|d| d.severity == Severity::Error)
                .cloned()
                .collect();
            &errors[..]
        }
        false => diagnostics,
    };
    let report = Report {
        diagnostics: shown,
        files,
        summary: Summary::of(shown, files.len()),
    };
    let options = Options {
        color: color && format == Format::Human,
        paths: bases.style(format.path_base()),
        quiet,
        limit,
    };
    format::render_with(&report, format, &options)
}

/// Where paths start from, for each [`PathBase`].
struct Bases {
    repository: PathStyle,
    current_folder: PathStyle,
}

impl Bases {
    /// The repository's top level (the current folder outside a repository) and the current
    /// folder, with symlinks resolved; when the site cannot be resolved, paths stay as they
    /// are (the run fails before printing anyway).
    fn of(run: &Invocation, root: &Path) -> Bases {
        let Ok(site) = root.canonicalize() else {
            return Bases {
                repository: PathStyle::default(),
                current_folder: PathStyle::default(),
            };
        };
        let cwd = run.cwd.canonicalize().unwrap_or_else(|_| run.cwd.clone());
        let top: PathBuf = site_root::repository_top(&site).map_or(cwd.clone(), Path::to_path_buf);
        Bases {
            repository: PathStyle::relative(&top, &site),
            current_folder: PathStyle::relative(&cwd, &site),
        }
    }

    fn style(&self, base: PathBase) -> PathStyle {
        match base {
            PathBase::Repository => self.repository.clone(),
            PathBase::CurrentFolder => self.current_folder.clone(),
        }
    }
}

/// Writes a report whole or not at all: into a temporary file beside it, then renamed over
/// it. A path that is not a regular file (`/dev/stdout`, a pipe) is written directly.
fn write_report(path: &Path, text: &str) -> Result<()> {
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
    if special {
        return std::fs::write(path, text).map_err(|e| Error::io(path, "write the report", e));
    }
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_os_string());
    let mut temporary = name.clone();
    temporary.push(format!(".tmp-{}", std::process::id()));
    let temporary = path.with_file_name(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            Error::io(path, "write the report", e)
        })
}
