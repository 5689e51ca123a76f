//! `fieldnotes build`: lint, then write the site.

use crate::cli::{BuildArgs, Format};
use crate::diagnostic::Summary;
use crate::error::Result;
use crate::lint::format::{self, Report};
use crate::{today, BuildOptions};
use std::path::Path;

pub fn build(root: &Path, args: BuildArgs) -> Result<u8> {
    let options = BuildOptions {
        root: root.to_path_buf(),
        out: if args.out.is_absolute() {
            args.out
        } else {
            root.join(args.out)
        },
        base_url: args.base_url,
        today: today::today(args.today.as_deref())?,
        excerpts: match args.excerpts {
            true => Some(super::sources::cache_config(&args.repos)?),
            false => None,
        },
    };
    let report = crate::build(&options)?;
    let content_files = report.files.len();
    if !report.diagnostics.is_empty() {
        let printed = Report {
            diagnostics: &report.diagnostics,
            files: &report.files,
            summary: Summary::of(&report.diagnostics, content_files),
        };
        eprint!(
            "{}",
            format::render(&printed, Format::Human, super::stderr_color())
        );
    }
    if !report.written {
        eprintln!("error: the site has errors; nothing was written");
        return Ok(1);
    }
    if let Some(excerpts) = &report.excerpts {
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
