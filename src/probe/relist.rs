//! Saying again that a list changed, once the client has that list. In a current session the
//! probe says the resource and prompt lists changed together with the tools; a client that
//! fetches those lists only when a user opens them (VS Code's resource picker) had nothing
//! to refresh then. So a settle time after a client's first page of `resources/list` or
//! `prompts/list`, if the probe has not said that list changed since the client had it, it
//! says so once more: whether the client lists again is then something a session can show.

use super::scenarios::{PROMPTS_LIST_CHANGED, RESOURCES_LIST_CHANGED};
use serde_json::{json, Value};
use std::time::Instant;

/// The lists this applies to: the list request and its notification.
const LISTS: [(&str, &str); 2] = [
    ("resources/list", RESOURCES_LIST_CHANGED),
    ("prompts/list", PROMPTS_LIST_CHANGED),
];

/// Where one list stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct List {
    /// The client has had its first page.
    listed: bool,
    /// The probe said it changed after the client had it.
    told: bool,
    /// When the probe says it (again).
    due: Option<Instant>,
}

/// The resource and prompt lists of one session.
#[derive(Debug, Clone, Default)]
pub(crate) struct Relists {
    lists: [List; 2],
}

impl Relists {
    /// The client was answered the first page of `method` at `now`: if the probe has not said
    /// that list changed since, it says so at `at`.
    pub fn listed(&mut self, method: &str, at: Instant) {
        if let Some(list) = self.list(method) {
            list.listed = true;
            if !list.told && list.due.is_none() {
                list.due = Some(at);
            }
        }
    }

    /// The probe said every list changed (with the tools'): each list the client had is told.
    pub fn all_told(&mut self) {
        for list in self.lists.iter_mut().filter(|l| l.listed) {
            list.told = true;
            list.due = None;
        }
    }

    /// The notifications due by `now`, each list told at most once.
    pub fn due(&mut self, now: Instant) -> Vec<Value> {
        let mut out = Vec::new();
        for (list, (_, notification)) in self.lists.iter_mut().zip(LISTS) {
            if list.due.is_some_and(|at| at <= now) {
                list.due = None;
                list.told = true;
                out.push(json!({"jsonrpc": "2.0", "method": notification}));
            }
        }
        out
    }

    /// Whether a notification is still to go out.
    pub fn pending(&self) -> bool {
        self.next().is_some()
    }

    /// When the next notification goes out.
    pub fn next(&self) -> Option<Instant> {
        self.lists.iter().filter_map(|l| l.due).min()
    }

    fn list(&mut self, method: &str) -> Option<&mut List> {
        let at = LISTS.iter().position(|(m, _)| *m == method)?;
        Some(&mut self.lists[at])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_list_fetched_after_the_first_notice_is_told_once_more_a_settle_later() {
        let start = Instant::now();
        let settle = Duration::from_millis(300);
        let mut relists = Relists::default();
        // Prompts listed at startup, then every list told with the tools: prompts are done.
        relists.listed("prompts/list", start + settle);
        relists.all_told();
        assert!(!relists.pending());
        // Resources listed only later (a picker opened): told once, a settle after.
        relists.listed("resources/list", start + settle * 4);
        assert!(relists.due(start + settle * 3).is_empty());
        let told = relists.due(start + settle * 4);
        assert_eq!(
            told,
            vec![json!({"jsonrpc": "2.0", "method": RESOURCES_LIST_CHANGED})]
        );
        // A refresh listed again: no third notice.
        relists.listed("resources/list", start + settle * 6);
        assert!(!relists.pending());
        relists.listed("tools/list", start);
        assert!(relists.due(start + settle * 10).is_empty());
    }
}
