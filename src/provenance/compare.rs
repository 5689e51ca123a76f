//! Comparing one pinned source with its repository's default branch: its commit and file
//! resolved ([`start`]), each of its blocks traced along the history ([`super::trace`]) and
//! looked for where the trace ends ([`super::locate`]).

use super::branch::{blob, Branch};
use super::cache::Repo;
use super::locate::Text;
use super::pin::LineRange;
use super::trace::{trace, Block, Place, Start};
use super::verdict::{Closest, Drift, RangeDrift, State};
use super::verify::{out_of_range, resolve_in, Problem, Resolved};
use super::Pinned;

/// A source ready to compare: its commit's full hash, and its pinned blocks (one per line
/// range; the whole file when it pins no lines).
#[derive(Debug, Clone)]
pub(crate) struct Ready {
    pub commit: String,
    pub blocks: Vec<Vec<String>>,
}

/// The pinned commit's full hash and blocks, or why the source cannot be compared.
/// (a broken pin, FN951–FN954, or why it could not be checked).
pub(crate) fn start(pinned: &Pinned<'_>, repo: &mut Repo) -> Result<Ready, Problem> {
    let resolved = resolve_in(pinned, repo)?;
    if let Some(problem) = out_of_range(pinned, &resolved).into_iter().next() {
        return Err(problem);
    }
    let Resolved { commit, lines } = resolved;
    let lines = match (pinned.file.is_empty(), lines) {
        (true, _) => {
            return Err(Problem::NotChecked(
                "no path is pinned, only a commit".into(),
            ))
        }
        (false, None) => {
            return Err(Problem::NotChecked(format!(
                "`{}` is a folder",
                pinned.file
            )))
        }
        (false, Some(lines)) => lines,
    };
    let block = |from: usize, to: usize| (from..to).map(|i| lines.line(i).to_string()).collect();
    let blocks = match pinned.ranges.is_empty() {
        true => vec![block(0, lines.len())],
        false => (pinned.ranges.iter())
            .map(|r| block(r.start() - 1, r.end()))
            .collect(),
    };
    Ok(Ready { commit, blocks })
}

/// Follows each of the source's blocks from where its commit joins the default branch, and
/// tells where each is now.
pub(crate) fn compare<'a>(
    pinned: &Pinned<'a>,
    ready: Ready,
    branch: &mut Branch<'_>,
    repo: &mut Repo,
) -> Result<Drift<'a>, String> {
    let Ready { commit, blocks } = ready;
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
    drift.branch = branch.name.map(str::to_string);
    drift.head = Some(branch.head.to_string());
    drift.commit = Some(commit.clone());
    let start = Start {
        path,
        from: entry,
        exists,
        // Its own commit holds the block; another one may not.
        held: (joined == commit).then_some(true),
    };
    let mut trace = |block: Block<'_>| trace(branch, repo, block, start.clone());
    let whole = pinned.ranges.is_empty();
    let lines = (pinned.ranges.iter())
        .map(|r| r.start())
        .chain(whole.then_some(1));
    let mut places = Vec::new();
    for (block, line) in blocks.iter().zip(lines) {
        let lines = block.as_slice();
        places.push(trace(Block { lines, line, whole })?);
    }
    drift.file_now = (places.iter().find(|p| p.exists)).map(|p| p.path.clone());
    if whole {
        whole_file(&mut drift, &blocks[0], file, &places[0], branch, repo)?;
    }
    for ((&range, place), block) in pinned.ranges.iter().zip(&places).zip(&blocks) {
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
    branch: &mut Branch<'_>,
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
