//! Prints how long each pipeline step takes on a site: `stage_times DIR [RUNS]`. Each step's
//! wall time, the process's CPU time (user + system, all threads) during it, and the resident
//! memory after it; with RUNS, the median wall time of each step over that many runs.
use std::time::{Duration, Instant};

// The allocator the `fieldnotes` binary uses (src/main.rs), so the figures are its figures.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The process's CPU time so far (Linux: `/proc/self/stat`; zero elsewhere).
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at `) `.
    let fields: Vec<&str> = stat
        .rsplit_once(") ")
        .map_or(Vec::new(), |(_, rest)| rest.split(' ').collect());
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// Resident memory in MiB (Linux: `/proc/self/statm`; zero elsewhere).
fn rss_mib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = (statm.split(' ').nth(1))
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096 / (1024 * 1024)
}

/// Runs `step`, returning its result and (wall, CPU) time.
fn timed<T>(step: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let (t, c) = (Instant::now(), cpu());
    let out = step();
    (out, t.elapsed(), cpu().saturating_sub(c))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = std::path::PathBuf::from(args.next().expect("usage: stage_times DIR [RUNS]"));
    let runs: usize = args
        .next()
        .map_or(1, |n| n.parse().expect("RUNS is a number"));
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date");
    let mut walls: [Vec<Duration>; 4] = Default::default();
    for _ in 0..runs {
        let (loaded, w0, c0) = timed(|| fieldnotes::load::load(&root).expect("load"));
        let m0 = rss_mib();
        let (parsed, w1, c1) = timed(|| fieldnotes::parse::parse(loaded));
        let m1 = rss_mib();
        let (index, w2, c2) = timed(|| fieldnotes::index::index(parsed));
        let m2 = rss_mib();
        let (findings, w3, c3) = timed(|| fieldnotes::lint::lint(&index, today).expect("lint"));
        println!(
            "load {w0:.0?} (cpu {c0:.0?}, {m0} MiB)  parse {w1:.0?} (cpu {c1:.0?}, {m1} MiB)  \
             index {w2:.0?} (cpu {c2:.0?}, {m2} MiB)  lint {w3:.0?} (cpu {c3:.0?})  ({} findings)",
            findings.len()
        );
        for (all, w) in walls.iter_mut().zip([w0, w1, w2, w3]) {
            all.push(w);
        }
    }
    if runs > 1 {
        let median = |all: &mut Vec<Duration>| {
            all.sort();
            all[all.len() / 2]
        };
        let [l, p, i, r] = walls.each_mut().map(median);
        println!("median of {runs}: load {l:.0?}  parse {p:.0?}  index {i:.0?}  lint {r:.0?}");
    }
}
