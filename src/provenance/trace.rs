//! Following a pinned block of lines, not only its file: the file is followed through
//! renames ([`super::follow`]); when the block is not in it at `HEAD`, the commit where it
//! left the file is found (a binary search over the commits that touched the file), and the
//! files that commit added or edited, and the files added beside it before (copies), are
//! looked at: the one that holds the block then is followed in its turn. Blocks too short to
//! be told apart from other lines ([`distinctive`]) stay with their file.

use super::branch::Branch;
use super::cache::Repo;
use super::follow::Trail;
use super::locate::{distinctive, Text};
use std::rc::Rc;

/// How many times a block may move to another file.
const MAX_HOPS: usize = 16;

/// A pinned block: some lines of a file, or all of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block<'a> {
    pub lines: &'a [String],
    /// The line it was pinned at.
    pub line: usize,
    /// The whole file: it is there only as it was, line for line.
    pub whole: bool,
}

impl Block<'_> {
    /// Whether `text` holds the block.
    pub(crate) fn in_text(&self, text: Option<&Text>) -> bool {
        match text {
            Some(text) if self.whole => text.is(self.lines),
            Some(text) => text.contains(self.lines),
            None => false,
        }
    }

    /// Whether `text` holds at least half of the block's lines together ([`Text::closest`]);
    /// any file holds a whole one that way.
    fn mostly_in(&self, text: Option<&Text>) -> bool {
        let Some(text) = text else {
            return false;
        };
        self.whole || (text.closest(self.lines, self.line)).is_some_and(|c| c.same * 2 >= c.of)
    }
}

/// Where a block's file ends on the default branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub path: String,
    pub exists: bool,
    /// The mainline index of the commit that deleted it.
    pub deleted_in: Option<usize>,
}

/// Where a block is followed from: a file at a mainline commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Start {
    pub path: String,
    /// The commit's mainline index.
    pub from: usize,
    /// Whether the file is there, and holds the block (`None`: not known yet).
    pub exists: bool,
    pub held: Option<bool>,
}

/// Follows `block` from `start` to the file that holds it, or last held it, at `HEAD`.
pub(crate) fn trace(
    branch: &mut Branch,
    repo: &mut Repo,
    block: Block<'_>,
    start: Start,
) -> Result<Place, String> {
    let wide = block.whole || distinctive(block.lines);
    let Start {
        mut path,
        mut from,
        mut exists,
        mut held,
    } = start;
    for _ in 0..MAX_HOPS {
        let trail = branch.trail(&path, from, exists);
        let place = Place {
            path: trail.path.clone(),
            exists: trail.exists,
            deleted_in: trail.deleted_in,
        };
        if !wide || (trail.exists && block.in_text(branch.head_file(repo, &trail.path)?.as_deref()))
        {
            return Ok(place);
        }
        let held_at_start = match held {
            Some(held) => held,
            None => exists && block.in_text(branch.file_at(repo, from, &path)?.as_deref()),
        };
        let Some(left) = left_at(branch, repo, block, &trail, held_at_start)? else {
            return Ok(place);
        };
        let index = trail.steps[left].index;
        let kept = &trail.steps[left].path;
        // A block still mostly in its file was edited there, not moved.
        if trail.steps[left].exists
            && block.mostly_in(branch.file_at(repo, index, kept)?.as_deref())
        {
            return Ok(place);
        }
        let copies = (trail.added.iter())
            .filter(|(at, _)| *at < index)
            .map(|(_, p)| p.as_str());
        // Files the commit added first: a block that leaves its file mostly starts one.
        let (added, edited): (Vec<&str>, Vec<&str>) = (branch.history.changed(index))
            .partition(|p| trail.added.iter().any(|(at, a)| *at == index && a == p));
        let changed: Vec<String> = (added.into_iter().chain(edited).chain(copies))
            .filter(|p| p != kept)
            .map(str::to_string)
            .collect();
        let mut went = None;
        let files = branch.files_at(repo, index, &changed)?;
        for (candidate, file) in changed.into_iter().zip(files) {
            if block.in_text(file.as_deref()) {
                went = Some(candidate);
                break;
            }
        }
        match went {
            Some(to) => (path, from, exists, held) = (to, index, true, Some(true)),
            None => return Ok(place),
        }
    }
    Err(format!(
        "the pinned lines moved between files more than {MAX_HOPS} times"
    ))
}

/// The step of `trail` after which the file no longer holds `block`, having held it before
/// (from the start when `held`): a binary search over the steps where it holds it from the
/// start, the first step that holds it found one by one otherwise.
fn left_at(
    branch: &mut Branch,
    repo: &mut Repo,
    block: Block<'_>,
    trail: &Rc<Trail>,
    held: bool,
) -> Result<Option<usize>, String> {
    let mut holds = |i: usize| -> Result<bool, String> {
        let step = &trail.steps[i];
        Ok(step.exists && block.in_text(branch.file_at(repo, step.index, &step.path)?.as_deref()))
    };
    let mut low = 0;
    if !held {
        // The first step that holds it; the search starts after it.
        let mut first = None;
        for i in 0..trail.steps.len() {
            if holds(i)? {
                first = Some(i);
                break;
            }
        }
        match first {
            Some(i) => low = i + 1,
            None => return Ok(None),
        }
    }
    // The first step from `low` on that does not hold it, those before it holding it.
    let mut high = trail.steps.len();
    while low < high {
        let middle = (low + high) / 2;
        match holds(middle)? {
            true => low = middle + 1,
            false => high = middle,
        }
    }
    Ok((low < trail.steps.len()).then_some(low))
}
