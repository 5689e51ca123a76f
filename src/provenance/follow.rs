//! Following a file forward along the mainline ([`super::history`]), commit by commit:
//! through renames (with or without edits) to its path at `HEAD`, or to the commit that
//! deleted it. The trail keeps each commit that touched the file (for finding the one where
//! a pinned block left it) and the files added beside it (which may be copies of it).

use super::history::{Change, History};

/// A file's way along the mainline from one commit on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trail {
    /// The file's path after the last mainline commit (its path at `HEAD` when it exists).
    pub path: String,
    /// Whether it exists at `HEAD`.
    pub exists: bool,
    /// The mainline index of the commit that deleted it (when it does not exist and was on
    /// the mainline once).
    pub deleted_in: Option<usize>,
    /// Each commit that touched it, in order.
    pub steps: Vec<Step>,
    /// Files added by a commit that touched it (mainline index, path), in order: copies of it
    /// or parts split off.
    pub added: Vec<(usize, String)>,
}

/// One commit that touched a followed file, and the file after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Step {
    /// The commit's mainline index.
    pub index: usize,
    /// The file's path after the commit, and whether it is there.
    pub path: String,
    pub exists: bool,
}

/// Follows `path` from mainline index `from` (exclusive), where it exists or not.
pub(crate) fn follow(history: &History, path: &str, from: usize, exists: bool) -> Trail {
    let mut trail = Trail {
        path: path.to_string(),
        exists,
        deleted_in: None,
        steps: Vec::new(),
        added: Vec::new(),
    };
    let mut at = from;
    while let Some(index) = history.next_touch(&trail.path, at) {
        at = index;
        step(&mut trail, history.changes(index), index);
    }
    trail
}

/// What one commit did to the followed path.
fn step(trail: &mut Trail, changes: &[Change], index: usize) {
    let current = trail.path.clone();
    let mut moved_to: Option<&str> = None;
    let mut deleted = false;
    for change in changes {
        match change {
            Change::Modified(p) if *p == current => trail.exists = true,
            Change::Deleted(p) if *p == current => deleted = true,
            Change::Renamed { from, to } if *from == current => moved_to = Some(to),
            // Another file added, moved or copied onto the path: it is that file now.
            Change::Added(to) | Change::Renamed { to, .. } | Change::Copied { to, .. }
                if *to == current =>
            {
                trail.exists = true;
                trail.deleted_in = None;
            }
            _ => {}
        }
    }
    if let Some(to) = moved_to {
        trail.path = to.to_string();
        trail.exists = true;
        trail.deleted_in = None;
    } else if deleted {
        trail.exists = false;
        trail.deleted_in = Some(index);
    }
    for change in changes {
        if let Change::Added(p) | Change::Copied { to: p, .. } = change {
            if *p != trail.path {
                trail.added.push((index, p.clone()));
            }
        }
    }
    trail.steps.push(Step {
        index,
        path: trail.path.clone(),
        exists: trail.exists,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_and_deletions_are_followed_step_by_step() {
        let mut trail = Trail {
            path: "big.py".into(),
            exists: true,
            deleted_in: None,
            steps: Vec::new(),
            added: Vec::new(),
        };
        let renamed = Change::Renamed {
            from: "big.py".into(),
            to: "core.py".into(),
        };
        step(&mut trail, &[Change::Added("part.py".into()), renamed], 3);
        assert_eq!((trail.path.as_str(), trail.exists), ("core.py", true));
        assert_eq!(trail.added, [(3, "part.py".to_string())]);
        step(&mut trail, &[Change::Deleted("core.py".into())], 5);
        assert_eq!((trail.exists, trail.deleted_in), (false, Some(5)));
        step(&mut trail, &[Change::Added("core.py".into())], 7);
        assert_eq!((trail.exists, trail.deleted_in), (true, None));
        let paths: Vec<(usize, &str, bool)> = (trail.steps.iter())
            .map(|s| (s.index, s.path.as_str(), s.exists))
            .collect();
        assert_eq!(
            paths,
            [
                (3, "core.py", true),
                (5, "core.py", false),
                (7, "core.py", true)
            ]
        );
    }
}
