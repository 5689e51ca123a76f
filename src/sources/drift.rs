//! Drift: does the repository's default branch still hold each source's pinned lines?
//!
//! For each range, the pinned block (its lines at the pinned commit) is looked for in the file
//! as it is on the default branch: at the same lines it is **unchanged**; found elsewhere it
//! has **moved** (to the lines given, the nearest match when there are several); not found
//! the file has **changed**. A file missing from the default branch has been renamed (`git
//! diff -M` between the two commits; the block is then looked for in the new file, reported
//! as moved to that path) or is **gone**. A source is as drifted as its most drifted range; a
//! source pinned to a whole file compares the whole file. Sources that cannot be resolved
//! (see [`super::verify`]) are **unchecked**, with the reason.

use super::cache::{Cache, Repo};
use super::git::{lines, Object};
use super::pin::LineRange;
use super::verify::{out_of_range, resolve, Resolved};
use super::{pinned, Pinned};
use crate::index::SiteIndex;
use serde::Serialize;

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

/// Where one pinned range is on the default branch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeDrift {
    pub pinned: LineRange,
    pub state: State,
    /// The lines that hold the block now (unchanged or moved).
    pub now: Option<LineRange>,
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
    /// The file's path on the default branch (differs from the pinned file after a rename).
    pub file_now: Option<String>,
    pub ranges: Vec<RangeDrift>,
    /// Why the source is unchecked.
    pub reason: Option<String>,
}

/// Every pinned source compared with its repository's default branch, and the repositories
/// that could not be fetched (their cached clones were used as they were).
#[derive(Debug, Default)]
pub struct DriftReport<'a> {
    pub sources: Vec<Drift<'a>>,
    pub notices: Vec<String>,
}

/// Fetches each repository once and compares every pinned source with its default branch.
pub fn drift<'a>(index: &'a SiteIndex, cache: &mut Cache) -> DriftReport<'a> {
    let mut report = DriftReport::default();
    for pinned in pinned(index) {
        if let Some(url) = &pinned.repository {
            if let Ok(repo) = cache.repo(url) {
                if !repo.update() {
                    report.notices.extend(repo.staleness());
                }
            }
        }
        report.sources.push(compare(pinned, cache));
    }
    report.notices.sort();
    report.notices.dedup();
    report
}

fn compare<'a>(pinned: Pinned<'a>, cache: &mut Cache) -> Drift<'a> {
    let mut drift = Drift {
        pinned,
        state: State::Unchecked,
        commit: None,
        branch: None,
        head: None,
        file_now: None,
        ranges: Vec::new(),
        reason: None,
    };
    if let Err(reason) = fill(&mut drift, cache) {
        drift.state = State::Unchecked;
        drift.reason = Some(reason);
    }
    drift
}

/// Fills in `drift`; an error is why the source cannot be compared.
fn fill(drift: &mut Drift<'_>, cache: &mut Cache) -> Result<(), String> {
    let pinned = &drift.pinned;
    let resolved = resolve(pinned, cache).map_err(|p| p.reason())?;
    if let Some(problem) = out_of_range(pinned, &resolved).first() {
        return Err(problem.reason());
    }
    let Resolved {
        commit,
        lines: then,
    } = resolved;
    drift.commit = Some(commit.clone());
    let url = pinned
        .repository
        .as_deref()
        .expect("resolved sources have one");
    let repo = cache.repo(url)?;
    let then = match (pinned.file.is_empty(), then) {
        (true, _) => return Err("no path is pinned, only a commit".to_string()),
        (false, None) => return Err(format!("`{}` is a folder", pinned.file)),
        (false, Some(then)) => then,
    };
    let head = match repo.object("HEAD^{commit}")? {
        Object::Found { oid, .. } => oid,
        _ => return Err("the repository has no default branch".to_string()),
    };
    drift.branch = repo.default_branch();
    drift.head = Some(head.clone());
    let file = pinned.file.trim_start_matches('/');
    let Some((file_now, now)) = file_at_head(repo, &commit, &head, file)? else {
        drift.state = State::Gone;
        drift.ranges = (pinned.ranges.iter())
            .map(|&r| RangeDrift {
                pinned: r,
                state: State::Gone,
                now: None,
            })
            .collect();
        return Ok(());
    };
    let renamed = file_now != file;
    drift.ranges = (pinned.ranges.iter())
        .map(|&range| locate(range, &then, &now, renamed))
        .collect();
    drift.state = match pinned.ranges.is_empty() {
        true if then != now => State::Changed,
        true if renamed => State::Moved,
        true => State::Unchanged,
        false => drift.ranges.iter().map(|r| r.state).max().expect("ranges"),
    };
    drift.file_now = Some(file_now);
    Ok(())
}

/// The file on the default branch at `path`, or where a rename since `commit` took it.
fn file_at_head(
    repo: &mut Repo,
    commit: &str,
    head: &str,
    path: &str,
) -> Result<Option<(String, Vec<String>)>, String> {
    if let Object::Found { kind, data, .. } = repo.object(&format!("{head}:{path}"))? {
        if kind == "blob" {
            return Ok(Some((path.to_string(), lines(&data))));
        }
    }
    let Some(new_path) = repo.renames(commit, head)?.get(path).cloned() else {
        return Ok(None);
    };
    match repo.object(&format!("{head}:{new_path}"))? {
        Object::Found { data, .. } => Ok(Some((new_path, lines(&data)))),
        _ => Ok(None),
    }
}

/// Where the block `range` of `then` is in `now`.
fn locate(range: LineRange, then: &[String], now: &[String], renamed: bool) -> RangeDrift {
    let found = then
        .get(range.start() - 1..range.end())
        .filter(|block| !block.is_empty())
        .and_then(|block| nearest_match(block, now, range.start()));
    let state = match found {
        Some(start) if start == range.start() && !renamed => State::Unchanged,
        Some(_) => State::Moved,
        None => State::Changed,
    };
    RangeDrift {
        pinned: range,
        state,
        now: found.map(|start| range.starting_at(start)),
    }
}

/// The 1-based line where `block` starts in `lines`, nearest to `near` when it occurs more
/// than once.
fn nearest_match(block: &[String], lines: &[String], near: usize) -> Option<usize> {
    if block.len() > lines.len() {
        return None;
    }
    (0..=lines.len() - block.len())
        .filter(|&i| lines[i] == block[0] && lines[i..i + block.len()] == *block)
        .map(|i| i + 1)
        .min_by_key(|&start| start.abs_diff(near))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn blocks_are_found_where_they_are_now() {
        let then = text(&["a", "b", "c", "d"]);
        let range = LineRange::new(2, 3).expect("a range");
        let same = locate(range, &then, &then, false);
        assert_eq!((same.state, same.now), (State::Unchanged, Some(range)));
        let moved = locate(range, &then, &text(&["x", "y", "a", "b", "c"]), false);
        assert_eq!(
            (moved.state, moved.now),
            (State::Moved, LineRange::new(4, 5))
        );
        let renamed = locate(range, &then, &then, true);
        assert_eq!(renamed.state, State::Moved);
        let changed = locate(range, &then, &text(&["a", "B", "c"]), false);
        assert_eq!((changed.state, changed.now), (State::Changed, None));
    }

    #[test]
    fn the_nearest_copy_wins() {
        let lines = text(&["x", "b", "x", "x", "b"]);
        assert_eq!(nearest_match(&text(&["b"]), &lines, 4), Some(5));
        assert_eq!(nearest_match(&text(&["b"]), &lines, 1), Some(2));
        assert_eq!(nearest_match(&text(&["b", "c"]), &lines, 1), None);
    }
}
