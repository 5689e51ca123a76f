//! Times a full lint against `lint_notes` after an edit to one note's front matter:
//! `lint_notes_bench DIR [RUNS]`. The edit (a new title, an unknown client) is made in memory;
//! the site on disk is only read. Prints the median of RUNS runs (10 unless given) of each, and
//! checks that both give the same findings. `RAYON_NUM_THREADS=1` measures one core.
use fieldnotes::index::SiteIndex;
use fieldnotes::lint::{lint, lint_notes};
use fieldnotes::text_file::{FileId, Section, TextFile};
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = args.next().expect("usage: lint_notes_bench DIR [RUNS]");
    let runs: usize = args
        .next()
        .map_or(10, |n| n.parse().expect("RUNS is a number"));
    let root = Path::new(&root);
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date");

    let before = open(root, |_| {});
    let previous = lint(&before, today).expect("lint");
    let mut edited: Option<FileId> = None;
    let after = open(root, |loaded| {
        let notes: Vec<FileId> = (loaded.sections.iter())
            .filter(|(_, s)| *s == Section::Research)
            .map(|(f, _)| *f)
            .collect();
        let file = notes[notes.len() / 2];
        let source = &loaded.files[file];
        let text = source
            .text
            .replacen("title: ", "title: Edited, ", 1)
            .replacen("clients:\n", "clients:\n  - no-such-client\n", 1);
        loaded.files[file] = TextFile::new(source.path.clone(), text);
        edited = Some(file);
    });
    let edited = [edited.expect("a note to edit")];

    let full = median(runs, || lint(&after, today).expect("lint"));
    let incremental = median(runs, || {
        lint_notes(&after, today, &previous, &edited).expect("lint_notes")
    });
    assert_eq!(full.1, incremental.1, "lint_notes differs from lint");
    println!(
        "{} notes, {} findings: lint {:.2?}, lint_notes {:.2?} (median of {runs})",
        after.content.notes.len(),
        full.1.len(),
        full.0,
        incremental.0
    );
}

/// Loads, parses and indexes the site, after `edit` changed what was loaded.
fn open(root: &Path, edit: impl FnOnce(&mut fieldnotes::load::LoadedSite)) -> SiteIndex {
    let mut loaded = fieldnotes::load::load(root).expect("load");
    edit(&mut loaded);
    fieldnotes::index::index(fieldnotes::parse::parse(loaded))
}

/// The median time of `runs` calls of `f`, and what the last call returned.
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut out = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        out = Some(f());
        times.push(start.elapsed());
    }
    times.sort_unstable();
    (times[times.len() / 2], out.expect("ran once"))
}
