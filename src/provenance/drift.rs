//! Drift: does the repository's default branch still hold each source's pinned lines?
//!
//! Each repository's default branch is read once, for all its pins ([`super::history`]: its
//! first-parent history and what each commit renamed, added, edited and deleted). Each pinned
//! block (its lines at the pinned commit) is then followed from where its commit joins that
//! history ([`super::trace`]): with its file through renames, renames with edits and
//! deletions ([`super::follow`]), and into the file it went to when it left (a split, a copy,
//! lines moved into a file that was already there). Where it ends ([`super::locate`]):
//!
//! - **unchanged**: at the same lines of the same file;
//! - **moved**: as it was, elsewhere (other lines, a renamed file, a file split off);
//! - **changed**: not as it was: the closest match, and how many of its lines differ;
//! - **gone**: its file was deleted (in which commit) and the lines went nowhere else.
//!
//! A source is as drifted as its most drifted range; a source pinned to a whole file compares
//! the whole file. Sources that cannot be resolved (see [`super::verify`]) are **unchecked**,
//! with the reason. Each repository's sources are compared on a thread of their own.

use super::branch::{Branch, Shared};
use super::cache::{Cache, Repo};
use super::compare::{compare, start, Ready};
use super::verify::{checkable, Problem};
use super::{pinned, Pinned};
use crate::index::SiteIndex;
use std::collections::BTreeMap;
use std::sync::Mutex;

pub use super::verdict::{Closest, Drift, DriftReport, RangeDrift, State};

/// Fetches each repository once, walks its default branch once, and compares every pinned
/// source with it: each repository's sources resolved and its history read on a thread of
/// their own, then the sources compared on as many threads as there are cores.
pub fn drift<'a>(index: &'a SiteIndex, cache: &mut Cache) -> DriftReport<'a> {
    drift_where(index, cache, &|_| true)
}

/// Compares the pinned sources `keep` keeps (`--changed-since`: those of the files changed).
pub fn drift_where<'a>(
    index: &'a SiteIndex,
    cache: &mut Cache,
    keep: &dyn Fn(&Pinned<'a>) -> bool,
) -> DriftReport<'a> {
    let pins: Vec<Pinned<'a>> = pinned(index).into_iter().filter(|p| keep(p)).collect();
    let mut report = DriftReport::default();
    let mut sources: Vec<Option<Drift<'a>>> = vec![None; pins.len()];
    let mut by_repository: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, pin) in pins.iter().enumerate() {
        match checkable(pin) {
            Ok(url) => by_repository.entry(url).or_default().push(i),
            Err(problem) => sources[i] = Some(Drift::unready(pin.clone(), problem)),
        }
    }
    let urls: Vec<&str> = by_repository.keys().copied().collect();
    for url in &urls {
        if let Ok(repo) = cache.repo(url) {
            if !repo.update() {
                report.notices.extend(repo.staleness());
            }
        }
    }
    let mut repos = cache.repos(&urls);
    let prepared: Vec<Prepared> = std::thread::scope(|scope| {
        let threads: Vec<_> = (urls.iter().zip(repos.iter_mut()))
            .map(|(url, repo)| {
                let (pins, held) = (&pins, &by_repository[url]);
                scope.spawn(move || prepare(repo.as_deref_mut(), pins, held))
            })
            .collect();
        (threads.into_iter())
            .map(|t| t.join().expect("a drift thread does not panic"))
            .collect()
    });
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let mut jobs: Vec<Job> = Vec::new();
    let mut shared = Vec::new();
    for (r, prepared) in prepared.into_iter().enumerate() {
        let mut ready = Vec::new();
        for (i, start) in prepared.starts {
            let unready = match (start, &prepared.shared) {
                (Ok(start), Ok(_)) => {
                    ready.push((i, start));
                    continue;
                }
                (Err(unready), _) => unready,
                (Ok(_), Err(why)) => Problem::NotChecked(why.clone()),
            };
            sources[i] = Some(Drift::unready(pins[i].clone(), unready));
        }
        shared.push(prepared.shared);
        // Pins of one file together: one thread reads its history once.
        ready.sort_by(|a, b| pins[a.0].file.cmp(pins[b.0].file).then(a.0.cmp(&b.0)));
        let size = ready.len().div_ceil(workers * 4).max(16);
        while !ready.is_empty() {
            let rest = ready.split_off(size.min(ready.len()));
            jobs.push((r, std::mem::replace(&mut ready, rest)));
        }
    }
    let readers: Vec<Vec<Option<Repo>>> = (0..workers)
        .map(|_| {
            repos
                .iter()
                .map(|r| r.as_ref().ok().map(|r| r.reader()))
                .collect()
        })
        .collect();
    let jobs = Mutex::new(jobs);
    std::thread::scope(|scope| {
        let threads: Vec<_> = (readers.into_iter())
            .map(|readers| {
                let (pins, shared, jobs) = (&pins, &shared, &jobs);
                scope.spawn(move || work(readers, shared, jobs, pins))
            })
            .collect();
        for thread in threads {
            for (i, drift) in thread.join().expect("a drift thread does not panic") {
                sources[i] = Some(drift);
            }
        }
    });
    report.sources = sources.into_iter().map(|d| d.expect("compared")).collect();
    report.notices.sort();
    report.notices.dedup();
    report
}

/// A repository's pins resolved (pin index → its commit and file, or why not), and its
/// default branch read (or why not).
struct Prepared {
    starts: Vec<(usize, Result<Ready, Problem>)>,
    shared: Result<Shared, String>,
}

/// Some resolved pins of one repository (its place among the repositories), to compare.
type Job = (usize, Vec<(usize, Ready)>);

/// Resolves the pins `held` (indexes into `pins`) in `repo` and reads its default branch.
fn prepare(repo: Result<&mut Repo, &mut String>, pins: &[Pinned<'_>], held: &[usize]) -> Prepared {
    let repo = match repo {
        Ok(repo) => repo,
        Err(why) => {
            return Prepared {
                starts: (held.iter())
                    .map(|&i| (i, Err(Problem::NotChecked(why.clone()))))
                    .collect(),
                shared: Err(why.clone()),
            }
        }
    };
    let starts: Vec<(usize, Result<Ready, Problem>)> =
        held.iter().map(|&i| (i, start(&pins[i], repo))).collect();
    let commits: Vec<&str> = (starts.iter())
        .filter_map(|(_, s)| s.as_ref().ok().map(|r| r.commit.as_str()))
        .collect();
    let shared = match commits.is_empty() {
        true => Err(String::new()),
        false => Shared::read(repo, &commits),
    };
    Prepared { starts, shared }
}

/// Takes jobs until there are none left, comparing each pin with its repository's default
/// branch through this thread's readers; returns each pin's drift by its index.
fn work<'a>(
    mut readers: Vec<Option<Repo>>,
    shared: &[Result<Shared, String>],
    jobs: &Mutex<Vec<Job>>,
    pins: &[Pinned<'a>],
) -> Vec<(usize, Drift<'a>)> {
    let mut branches: Vec<Option<Branch<'_>>> = shared.iter().map(|_| None).collect();
    let mut out = Vec::new();
    loop {
        let job = jobs.lock().map(|mut jobs| jobs.pop()).ok().flatten();
        let Some((r, ready)) = job else {
            return out;
        };
        let (Some(repo), Ok(shared)) = (readers[r].as_mut(), &shared[r]) else {
            continue;
        };
        let branch = branches[r].get_or_insert_with(|| Branch::new(shared));
        for (i, ready) in ready {
            let drift = compare(&pins[i], ready, branch, repo)
                .unwrap_or_else(|why| Drift::unready(pins[i].clone(), Problem::NotChecked(why)));
            out.push((i, drift));
        }
    }
}
