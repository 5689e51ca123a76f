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

use super::branch::{blob, Branch};
use super::cache::{Cache, Repo};
use super::locate::Text;
use super::pin::LineRange;
use super::trace::{trace, Block, Place, Start};
use super::verify::{checkable, out_of_range, resolve_in, Resolved};
use super::{pinned, Pinned};
use crate::index::SiteIndex;
use serde::Serialize;
use std::collections::BTreeMap;

/// How far a source has drifted, from least to most; `Unchecked` when it could not be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Unchanged,
    Moved,
    Changed,
    Gone,
    Unchecked,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Unchanged => "unchanged",
            State::Moved => "moved",
            State::Changed => "changed",
            State::Gone => "gone",
            State::Unchecked => "unchecked",
        }
    }

    /// Whether the source needs reading again: its lines moved, changed or are gone.
    pub fn drifted(self) -> bool {
        matches!(self, State::Moved | State::Changed | State::Gone)
    }
}

/// The lines on the default branch closest to a pinned block that is not there as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Closest {
    pub file: String,
    /// The lines of the match (`None` for an empty file).
    pub lines: Option<LineRange>,
    /// How many of the pinned lines are not in the match (in order), of how many.
    pub differing: usize,
    pub of: usize,
}

/// Where one pinned range is on the default branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeDrift {
    pub pinned: LineRange,
    pub state: State,
    /// The file that holds the lines now (unchanged or moved).
    pub file: Option<String>,
    /// The lines that hold the block now (unchanged or moved).
    pub now: Option<LineRange>,
    /// The closest match (changed).
    pub closest: Option<Closest>,
}

/// One source compared with its repository's default branch.
#[derive(Debug, Clone)]
pub struct Drift<'a> {
    pub pinned: Pinned<'a>,
    pub state: State,
    /// The pinned commit's full hash, when it resolved.
    pub commit: Option<String>,
    /// The default branch's name and head commit, when they were read.
    pub branch: Option<String>,
    pub head: Option<String>,
    /// The followed file's path on the default branch, when it is there (differs from the
    /// pinned file after a rename).
    pub file_now: Option<String>,
    pub ranges: Vec<RangeDrift>,
    /// A whole-file source that changed: how much of it differs.
    pub closest: Option<Closest>,
    /// Gone: the commit that deleted the file (`None`: it was never on the default branch).
    pub gone_in: Option<String>,
    /// Why the source is unchecked.
    pub reason: Option<String>,
}

impl<'a> Drift<'a> {
    fn unchecked(pinned: Pinned<'a>, reason: String) -> Drift<'a> {
        Drift {
            pinned,
            state: State::Unchecked,
            commit: None,
            branch: None,
            head: None,
            file_now: None,
            ranges: Vec::new(),
            closest: None,
            gone_in: None,
            reason: Some(reason),
        }
    }
}

/// Every pinned source compared with its repository's default branch, and the repositories
/// that could not be fetched (their cached clones were used as they were).
#[derive(Debug, Default)]
pub struct DriftReport<'a> {
    pub sources: Vec<Drift<'a>>,
    pub notices: Vec<String>,
}

/// Fetches each repository once, walks its default branch once, and compares every pinned
/// source with it: each repository's sources on a thread of their own.
pub fn drift<'a>(index: &'a SiteIndex, cache: &mut Cache) -> DriftReport<'a> {
    let pins = pinned(index);
    let mut report = DriftReport::default();
    let mut sources: Vec<Option<Drift<'a>>> = vec![None; pins.len()];
    let mut by_repository: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, pin) in pins.iter().enumerate() {
        match checkable(pin) {
            Ok(url) => by_repository.entry(url).or_default().push(i),
            Err(problem) => sources[i] = Some(Drift::unchecked(pin.clone(), problem.reason())),
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
    let repos = cache.repos(&urls);
    std::thread::scope(|scope| {
        let threads: Vec<_> = (urls.iter().zip(repos))
            .map(|(url, repo)| {
                let (pins, held) = (&pins, &by_repository[url]);
                scope.spawn(move || {
                    let mine: Vec<&Pinned<'a>> = held.iter().map(|&i| &pins[i]).collect();
                    held.iter()
                        .copied()
                        .zip(in_repository(repo, &mine))
                        .collect::<Vec<_>>()
                })
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

/// The drift of `pins`, all in the repository `repo` (or why it cannot be read).
fn in_repository<'a>(repo: Result<&mut Repo, String>, pins: &[&Pinned<'a>]) -> Vec<Drift<'a>> {
    let repo = match repo {
        Ok(repo) => repo,
        Err(why) => {
            let unchecked = |pin: &&Pinned<'a>| Drift::unchecked((*pin).clone(), why.clone());
            return pins.iter().map(unchecked).collect();
        }
    };
    let starts: Vec<Result<Resolved, String>> = pins.iter().map(|p| start(p, repo)).collect();
    let commits: Vec<&str> = (starts.iter())
        .filter_map(|s| s.as_ref().ok().map(|r| r.commit.as_str()))
        .collect();
    let mut branch = match commits.is_empty() {
        true => Err(String::new()),
        false => Branch::read(repo, &commits),
    };
    (pins.iter().zip(starts))
        .map(|(pin, start)| {
            let compared = start.and_then(|resolved| {
                let branch = branch.as_mut().map_err(|why| why.clone())?;
                compare(pin, resolved, branch, repo)
            });
            match compared {
                Ok(drift) => drift,
                Err(reason) => Drift::unchecked((*pin).clone(), reason),
            }
        })
        .collect()
}

/// The pinned commit's full hash and file, or why the source cannot be compared.
fn start(pinned: &Pinned<'_>, repo: &mut Repo) -> Result<Resolved, String> {
    let resolved = resolve_in(pinned, repo).map_err(|p| p.reason())?;
    if let Some(problem) = out_of_range(pinned, &resolved).first() {
        return Err(problem.reason());
    }
    match (pinned.file.is_empty(), &resolved.lines) {
        (true, _) => Err("no path is pinned, only a commit".to_string()),
        (false, None) => Err(format!("`{}` is a folder", pinned.file)),
        (false, Some(_)) => Ok(resolved),
    }
}

/// Follows each of the source's blocks from where its commit joins the default branch, and
/// tells where each is now.
fn compare<'a>(
    pinned: &Pinned<'a>,
    resolved: Resolved,
    branch: &mut Branch,
    repo: &mut Repo,
) -> Result<Drift<'a>, String> {
    let commit = resolved.commit;
    let then = resolved.lines.unwrap_or_default();
    let entry = (branch.history.entry(&commit))
        .ok_or("the commit shares no history with the default branch")?;
    let file = pinned.file.trim_start_matches('/');
    let joined = branch.history.commit(entry).to_string();
    // A commit off the default branch joins it later, where its file may have another name.
    let (path, exists) = if joined == commit || blob(repo, &joined, file)?.is_some() {
        (file.to_string(), true)
    } else {
        match repo.renames(&commit, &joined)?.get(file) {
            Some(renamed) => (renamed.clone(), true),
            None => (file.to_string(), false),
        }
    };
    let mut drift = Drift::unchecked(pinned.clone(), String::new());
    drift.reason = None;
    drift.branch = branch.name.clone();
    drift.head = Some(branch.head.clone());
    drift.commit = Some(commit.clone());
    let start = Start {
        path,
        from: entry,
        exists,
        // Its own commit holds the block; another one may not.
        held: (joined == commit).then_some(true),
    };
    let mut trace = |block: Block<'_>| trace(branch, repo, block, start.clone());
    let mut places = Vec::new();
    if pinned.ranges.is_empty() {
        places.push(trace(Block {
            lines: &then,
            line: 1,
            whole: true,
        })?);
    }
    for &range in pinned.ranges {
        places.push(trace(Block {
            lines: &then[range.start() - 1..range.end()],
            line: range.start(),
            whole: false,
        })?);
    }
    drift.file_now = (places.iter().find(|p| p.exists)).map(|p| p.path.clone());
    if pinned.ranges.is_empty() {
        whole_file(&mut drift, &then, file, &places[0], branch, repo)?;
    }
    for (&range, place) in pinned.ranges.iter().zip(&places) {
        let block = &then[range.start() - 1..range.end()];
        let now = match place.exists {
            true => branch.head_file(repo, &place.path)?,
            false => None,
        };
        drift
            .ranges
            .push(locate(range, block, file, place, now.as_deref()));
    }
    if !pinned.ranges.is_empty() {
        drift.state = drift.ranges.iter().map(|r| r.state).max().expect("ranges");
    }
    if drift.state == State::Gone {
        let deleted = places.iter().find_map(|p| p.deleted_in);
        drift.gone_in = deleted.map(|i| branch.history.commit(i).to_string());
    }
    Ok(drift)
}

/// Where `block`, pinned at `range` of `file`, is in `now`, the file at `place` on `HEAD`.
fn locate(
    range: LineRange,
    block: &[String],
    file: &str,
    place: &Place,
    now: Option<&Text>,
) -> RangeDrift {
    let mut drift = RangeDrift {
        pinned: range,
        state: State::Gone,
        file: None,
        now: None,
        closest: None,
    };
    let Some(now) = now else {
        return drift;
    };
    if let Some(start) = now.find(block, range.start()) {
        drift.state = match place.path == file && start == range.start() {
            true => State::Unchanged,
            false => State::Moved,
        };
        drift.file = Some(place.path.clone());
        drift.now = Some(range.starting_at(start));
        return drift;
    }
    drift.state = State::Changed;
    let found = now.closest(block, range.start());
    drift.closest = Some(Closest {
        file: place.path.clone(),
        lines: found.and_then(|c| LineRange::new(c.start, c.end)),
        differing: found.map_or(block.len(), |c| c.of - c.same),
        of: block.len(),
    });
    drift
}

/// A source pinned to a whole file: unchanged or moved when the file at `place` is the same,
/// line for line; changed (how much) when it is not; gone when it was deleted.
fn whole_file(
    drift: &mut Drift<'_>,
    then: &[String],
    file: &str,
    place: &Place,
    branch: &mut Branch,
    repo: &mut Repo,
) -> Result<(), String> {
    let now = match place.exists {
        true => branch.head_file(repo, &place.path)?,
        false => None,
    };
    let Some(now) = now else {
        drift.state = State::Gone;
        return Ok(());
    };
    drift.state = match (now.is(then), place.path == file) {
        (true, true) => State::Unchanged,
        (true, false) => State::Moved,
        (false, _) => State::Changed,
    };
    if drift.state == State::Changed {
        drift.closest = Some(Closest {
            file: place.path.clone(),
            lines: LineRange::new(1, now.len()),
            differing: then.len() - now.common(then),
            of: then.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_order_from_least_to_most_drifted() {
        assert!(State::Unchanged < State::Moved && State::Moved < State::Changed);
        assert!(State::Changed < State::Gone && State::Gone < State::Unchecked);
        assert!(!State::Unchanged.drifted() && State::Gone.drifted());
    }
}
