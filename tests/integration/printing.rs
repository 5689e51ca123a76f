//! Printing findings stays linear: every `--format` does about 10x the work for a report 10x
//! larger (findings, files, and the lines of one long file alike). Work is counted, not timed:
//! the bytes a printer allocates on its thread, through a counting allocator, which grows with
//! every finding's frame and every copy of a file's text a printer makes.

use fieldnotes::cli::Format;
use fieldnotes::lint::format::{render_with, Options, Report};
use fieldnotes::text_file::{Span, TextFile};
use fieldnotes::{Diagnostic, Severity, Summary};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.with(|a| a.set(a.get() + layout.size() as u64));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.with(|a| a.set(a.get() + new_size as u64));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// `n` findings: nine in ten spread over `n / 10` small files, one in ten in a file of `n`
/// lines.
fn corpus(n: usize) -> (Vec<TextFile>, Vec<Diagnostic>) {
    let small = n / 10;
    let mut files: Vec<TextFile> = (0..small)
        .map(|f| {
            let text: String = (0..30)
                .map(|l| format!("key{l}: value {f} {l}\n"))
                .collect();
            TextFile::new(format!("content/research/note-{f}.md"), text)
        })
        .collect();
    let long: String = (0..n)
        .map(|l| format!("line {l}: some text here\n"))
        .collect();
    files.push(TextFile::new("content/research/long.md", long));
    let mut diagnostics = Vec::new();
    for i in 0..n {
        let (id, file) = match i % 10 {
            0 => (small, &files[small]),
            _ => (i % small, &files[i % small]),
        };
        let line_start = match id == small {
            true => file
                .text
                .match_indices('\n')
                .nth(i / 2)
                .map_or(0, |(at, _)| at + 1),
            false => (i % 29) * 20,
        };
        let line_start = line_start.min(file.text.len() - 1);
        let span = Span::new(id, line_start, line_start + 4);
        let severity = [Severity::Error, Severity::Warning, Severity::Info][i % 3];
        let message = format!("finding {i} says what is wrong");
        diagnostics.push(Diagnostic::at(
            file,
            span,
            "FN304",
            "stale-verification",
            severity,
            message,
            Some("what to do".into()),
        ));
    }
    (files, diagnostics)
}

/// Bytes allocated on this thread while printing `n` findings in `format`.
fn work(n: usize, format: Format) -> u64 {
    let (files, diagnostics) = corpus(n);
    let report = Report {
        diagnostics: &diagnostics,
        files: &files,
        summary: Summary::of(&diagnostics, files.len()),
    };
    let before = ALLOCATED.with(Cell::get);
    let text = render_with(&report, format, &Options::default());
    let after = ALLOCATED.with(Cell::get);
    assert!(!text.is_empty());
    after - before
}

#[test]
fn every_format_does_linear_work_in_findings_and_files() {
    use clap::ValueEnum;
    for format in Format::value_variants() {
        let small = work(1_000, *format);
        let large = work(10_000, *format);
        let ratio = large as f64 / small as f64;
        assert!(
            ratio <= 15.0,
            "{format:?}: 10x the findings took {ratio:.1}x the work ({small} -> {large} bytes)"
        );
    }
}

/// `lint` with `n` extra notes each carrying raw HTML (FN604), as `lint` prints it with `args`.
fn lint_output(n: usize, args: &[&str]) -> String {
    let site = crate::support::TestSite::fixture("basic");
    let beta = std::fs::read_to_string(
        site.root()
            .join("content/research/beta-tries-streamable-http-first.md"),
    )
    .expect("the fixture note");
    for i in 0..n {
        let text = beta
            .replace(
                "beta-tries-streamable-http-first",
                &format!("copy-{i:02}-tries-streamable-http-first"),
            )
            .replace("title: Beta Client", &format!("title: Copy {i} of Beta"))
            .replace("\n# Beta Client", &format!("\n# Copy {i} of Beta"));
        site.write(
            &format!("content/research/copy-{i:02}-tries-streamable-http-first.md"),
            &format!("{text}\nSome <b>raw</b> HTML.\n"),
        );
    }
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("--root")
        .arg(site.root())
        .args(["lint", "--today", "2026-11-30"])
        .args(args)
        .output()
        .expect("lint runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn lint_prints_the_first_findings_and_counts_by_rule_unless_asked_for_all() {
    let fn604 = |text: &str| text.matches("[raw-html]").count();
    let short = lint_output(30, &[]);
    assert_eq!(fn604(&short), 20, "{short}");
    assert!(short.contains("more findings (--all-findings"), "{short}");
    assert!(short.contains("by rule:\n"), "{short}");
    assert!(short.contains("FN604 raw-html"), "{short}");
    let all = lint_output(30, &["--all-findings"]);
    assert!(fn604(&all) >= 30, "{all}");
    assert!(!all.contains("more findings"), "{all}");
    let concise = lint_output(30, &["--format", "concise"]);
    assert!(concise.matches(" FN604 ").count() >= 30, "{concise}");
}
