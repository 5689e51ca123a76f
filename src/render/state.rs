//! A capability's state at a spec revision (not yet in it, current, deprecated or removed),
//! from its `introduced`, `deprecated` and `removed` fields; pages show it at the revision a
//! reader looks at, the current one unless a page is about another.

use crate::config::SiteConfig;
use crate::model::Capability;
use serde::Serialize;

/// Where a capability stands at one revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Introduced after the revision.
    Future,
    /// Part of the revision, not deprecated.
    Current,
    /// Part of the revision, deprecated at or before it.
    Deprecated,
    /// Removed at or before the revision.
    Removed,
}

/// The rank (position in `site.yaml`'s `specVersions`) of the current revision (the newest
/// released one, [`SiteConfig::current_revision`]): the one pages show capabilities at by
/// default. `None` when the site lists no released revision.
pub fn current(config: &SiteConfig) -> Option<usize> {
    (config.current_revision()).and_then(|v| config.spec_version_rank(&v.id))
}

/// `capability`'s state at the revision of rank `at` (see [`state`]). A field naming a
/// revision `site.yaml` does not list is ignored: lint reports it.
pub fn state_at(config: &SiteConfig, capability: &Capability, at: Option<usize>) -> State {
    let rank = |field: &Option<crate::model::Spanned<String>>| {
        field
            .as_ref()
            .and_then(|f| config.spec_version_rank(&f.value))
    };
    state(
        Ranks {
            introduced: rank(&capability.introduced),
            deprecated: rank(&capability.deprecated),
            removed: rank(&capability.removed),
        },
        at,
    )
}

/// The ranks of a capability's `introduced`, `deprecated` and `removed` revisions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ranks {
    pub introduced: Option<usize>,
    pub deprecated: Option<usize>,
    pub removed: Option<usize>,
}

/// The state of a capability with these ranks at the revision of rank `at`; with no `at` (a
/// site without revisions), deprecated when it names a deprecation, else current.
pub fn state(ranks: Ranks, at: Option<usize>) -> State {
    let Some(at) = at else {
        return match ranks.deprecated {
            Some(_) => State::Deprecated,
            None => State::Current,
        };
    };
    let reached = |rank: Option<usize>| rank.is_some_and(|r| r <= at);
    if ranks.introduced.is_some_and(|r| r > at) {
        State::Future
    } else if reached(ranks.removed) {
        State::Removed
    } else if reached(ranks.deprecated) {
        State::Deprecated
    } else {
        State::Current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(introduced: usize, deprecated: Option<usize>, removed: Option<usize>) -> Ranks {
        Ranks {
            introduced: Some(introduced),
            deprecated,
            removed,
        }
    }

    #[test]
    fn a_capability_moves_from_future_to_removed_across_revisions() {
        let cap = ranks(1, Some(1), Some(2));
        let states: Vec<State> = (0..4).map(|at| state(cap, Some(at))).collect();
        let expected = [
            State::Future,
            State::Deprecated,
            State::Removed,
            State::Removed,
        ];
        assert_eq!(states, expected);
        assert_eq!(state(ranks(0, None, None), Some(3)), State::Current);
        assert_eq!(state(ranks(0, Some(2), None), Some(1)), State::Current);
    }

    #[test]
    fn without_revisions_only_a_deprecation_shows() {
        assert_eq!(state(ranks(0, Some(0), Some(1)), None), State::Deprecated);
        assert_eq!(state(Ranks::default(), None), State::Current);
    }
}
