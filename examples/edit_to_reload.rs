//! Measures `fieldnotes serve`'s edit → served-site-updated time on a site (e.g. a 10,000-note
//! corpus from `gen_corpus`): builds it in memory, then edits one note's body several times
//! and times each rebuild, from the save to the new site being ready to swap in (the file
//! watcher's 20 ms debounce included), and the rebuild alone. Prints medians. Every other
//! edit adds a link to another note (so its backlinks change too). At the end the last
//! incremental result is checked against a full build, byte for byte. The note is restored
//! afterwards. With `title` as the third argument the edits change the note's title instead
//! (front matter: the note's page and the notes listing it render at once; the listings,
//! feeds and data API follow, as `serve` publishes them: both times are printed).
//!
//! ```sh
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/fn-10k
//! cargo run --release --example edit_to_reload -- /tmp/fn-10k [RUNS] [body|title]
//! ```

use fieldnotes::serve::rebuild::Rebuilder;
use fieldnotes::serve::watch;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: edit_to_reload SITE_DIR [RUNS]"));
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(7);
    let titles = args.next().as_deref() == Some("title");
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date");
    let mut rebuilder = Rebuilder::new(&root, None, today);
    rebuilder.defer_listings(true);
    let started = Instant::now();
    let first = rebuilder.build().expect("the site builds");
    assert!(
        first.site.is_some(),
        "the site has errors: {:?}",
        first.diagnostics.first()
    );
    println!(
        "full in-memory build: {} pages in {:.2?}",
        first.pages,
        started.elapsed()
    );
    let started = Instant::now();
    let search = rebuilder.search().expect("search index");
    println!(
        "search index: {} files in {:.2?}",
        search.len(),
        started.elapsed()
    );

    let note = std::fs::read_dir(root.join("content/research"))
        .expect("content/research")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .min()
        .expect("a note");
    let original = std::fs::read_to_string(&note).expect("the note");
    let other = std::fs::read_dir(root.join("content/research"))
        .expect("content/research")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md") && *p != note)
        .max()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .expect("another note");
    let watch = watch::watch(&root).expect("watch");
    let (mut end_to_end, mut rebuild_only, mut rendered) = (Vec::new(), Vec::new(), Vec::new());
    let (mut everything, mut deferred) = (Vec::new(), Vec::new());
    let mut last = None;
    for run in 0..runs {
        std::thread::sleep(Duration::from_millis(200));
        while watch.changes.try_recv().is_ok() {}
        let saved = Instant::now();
        let edit = match (titles, run % 2) {
            (true, _) => {
                original.replacen("\ntitle: ", &format!("\ntitle: Retitled in run {run}, "), 1)
            }
            (false, 0) => format!("{original}\nEdited in run {run}.\n"),
            (false, _) => {
                format!("{original}\nEdited in run {run}: see [{other}](/research/{other}.md).\n")
            }
        };
        std::fs::write(&note, edit).expect("write");
        let changed = watch.changes.recv().expect("a change");
        let started = Instant::now();
        let rebuilt = rebuilder.update(&changed).expect("rebuilds");
        let mut site = Arc::new(rebuilt.site.expect("no errors").files);
        rebuild_only.push(started.elapsed());
        end_to_end.push(saved.elapsed());
        rendered.push(rebuilt.rendered);
        deferred.push(rebuilt.pending.len());
        println!("  run {run}: {:?}", rebuilt.timings);
        if let Some(caught_up) = rebuilder.catch_up().expect("catches up") {
            site = Arc::new(caught_up.site.expect("no errors").files);
            if let Some(count) = rendered.last_mut() {
                *count += caught_up.rendered;
            }
        }
        everything.push(saved.elapsed());
        last = Some(site);
    }
    let mut incremental: BTreeMap<String, Vec<u8>> = last
        .iter()
        .flat_map(|site| {
            site.iter()
                .map(|(path, bytes)| (path.clone(), bytes.to_vec()))
        })
        .collect();
    incremental.extend(rebuilder.search().expect("search index"));
    let index = fieldnotes::open(&root).expect("the site opens");
    let mut full = fieldnotes::render::output::MemoryOutput::default();
    fieldnotes::render::render(&index, None, &mut full).expect("a full build");
    std::fs::write(&note, &original).expect("restore the note");
    let differs: Vec<&String> = full
        .files
        .keys()
        .chain(incremental.keys())
        .filter(|path| full.files.get(*path) != incremental.get(*path))
        .collect();
    println!(
        "incremental result == full build: {} ({} files{})",
        differs.is_empty(),
        full.files.len(),
        differs
            .first()
            .map_or(String::new(), |p| format!("; first difference: {p}"))
    );
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    // The median, and the range over every run.
    let spread = |times: &mut Vec<Duration>| {
        let middle = median(times);
        let (first, last) = (times[0], times[times.len() - 1]);
        format!("median {middle:.1?} (min {first:.1?}, max {last:.1?})")
    };
    println!(
        "edited {} ({runs} runs; pages rendered anew: {rendered:?}; files deferred: \
         {deferred:?})",
        note.display()
    );
    println!(
        "edit → site ready to serve (watcher + 20 ms debounce + rebuild): {}",
        spread(&mut end_to_end)
    );
    println!(
        "edit → every deferred listing, feed and API file served too: {}",
        spread(&mut everything)
    );
    println!(
        "rebuild alone (re-read, re-parse, re-index, lint, render): median {:.1?} \
         (min {:.1?}, max {:.1?})",
        median(&mut rebuild_only),
        rebuild_only[0],
        rebuild_only[rebuild_only.len() - 1]
    );
    if !differs.is_empty() {
        std::process::exit(1);
    }
}
