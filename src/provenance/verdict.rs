//! What drift tells of a pinned source (the data [`super::drift`] returns, [`super::compare`]
//! fills in, and reports, bump and pages read): its [`State`] — unchanged, moved, changed,
//! gone, broken, unchecked — and where its lines are now.

use super::pin::LineRange;
use super::verify::Problem;
use super::Pinned;
use serde::Serialize;

/// How far a source has drifted, from least to most; `Broken` when the pin itself is wrong
/// (its commit, path or lines are not in the repository: FN951–FN954), `Unchecked` when it
/// could not be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Unchanged,
    Moved,
    Changed,
    Gone,
    Broken,
    Unchecked,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Unchanged => "unchanged",
            State::Moved => "moved",
            State::Changed => "changed",
            State::Gone => "gone",
            State::Broken => "broken",
            State::Unchecked => "unchecked",
        }
    }

    /// Whether the source is not as pinned: its lines moved, changed or are gone, or the pin
    /// is broken.
    pub fn drifted(self) -> bool {
        matches!(
            self,
            State::Moved | State::Changed | State::Gone | State::Broken
        )
    }

    /// Whether a person must read the source again: its lines changed or are gone, or the
    /// pin is broken (lines that only moved are re-pinned by `sources bump`).
    pub fn needs_person(self) -> bool {
        matches!(self, State::Changed | State::Gone | State::Broken)
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
    /// Why the source is broken or unchecked.
    pub reason: Option<String>,
    /// What verification would report for a broken or unchecked source (FN951–FN955).
    pub problem: Option<Problem>,
}

impl<'a> Drift<'a> {
    /// Whether the source says `pin: fixed` (its commit is the point) and its lines moved,
    /// changed or went on the default branch: drift reports where they are, but nothing is
    /// asked of anyone: `sources bump` leaves the pin, the queue does not count it, its
    /// findings (FN956–FN958) are not reported and `--fail-on` does not fail on it.
    pub fn fixed_drift(&self) -> bool {
        self.pinned.source.fixed()
            && matches!(self.state, State::Moved | State::Changed | State::Gone)
    }

    /// The state the queue and `--fail-on` go by: a [`Drift::fixed_drift`] counts as
    /// unchanged (the commit it cites is still the commit it cites).
    pub fn queued_state(&self) -> State {
        match self.fixed_drift() {
            true => State::Unchanged,
            false => self.state,
        }
    }

    /// A source that could not be compared: broken (its commit, path or lines are not in the
    /// repository), or unchecked.
    pub(crate) fn unready(pinned: Pinned<'a>, problem: Problem) -> Drift<'a> {
        let mut drift = Drift::unchecked(pinned, problem.reason());
        if !matches!(problem, Problem::NotChecked(_)) {
            drift.state = State::Broken;
        }
        drift.problem = Some(problem);
        drift
    }

    pub(crate) fn unchecked(pinned: Pinned<'a>, reason: String) -> Drift<'a> {
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
            problem: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_order_from_least_to_most_drifted() {
        assert!(State::Unchanged < State::Moved && State::Moved < State::Changed);
        assert!(State::Changed < State::Gone && State::Gone < State::Broken);
        assert!(State::Broken < State::Unchecked);
        assert!(!State::Unchanged.drifted() && State::Gone.drifted());
        assert!(State::Broken.needs_person() && !State::Moved.needs_person());
    }
}
