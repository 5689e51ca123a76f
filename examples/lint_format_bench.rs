//! Times every `--format` printing a real site's findings, repeated to tens of thousands:
//! each printer's time and output size, so that one growing faster than the findings shows.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/fn-10k
//! cargo run --release --example lint_format_bench -- /tmp/fn-10k 5    # the findings x5
//! ```

use clap::ValueEnum;
use fieldnotes::cli::Format;
use fieldnotes::lint::format::{render_with, Options, Report};
use fieldnotes::Summary;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: lint_format_bench SITE [TIMES]"));
    let times: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("a date");
    let (index, found) = fieldnotes::check(&root, today).expect("the site loads");
    let diagnostics: Vec<_> = (0..times).flat_map(|_| found.iter().cloned()).collect();
    let report = Report {
        diagnostics: &diagnostics,
        files: &index.files,
        summary: Summary::of(&diagnostics, index.files.len()),
    };
    println!(
        "{} findings ({} x{times}) over {} files",
        diagnostics.len(),
        found.len(),
        index.files.len()
    );
    for format in Format::value_variants() {
        let start = Instant::now();
        let text = render_with(&report, *format, &Options::default());
        println!(
            "  {:<9} {:>9.1} ms {:>12} bytes",
            format!("{format:?}"),
            start.elapsed().as_secs_f64() * 1e3,
            text.len()
        );
    }
}
