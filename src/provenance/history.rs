//! The default branch's history, read once per repository and shared by all its pins: the
//! first-parent chain of `HEAD` (the "mainline"), where each pinned commit joins it, and what
//! every mainline commit since the oldest of them changed, and the blob each change left
//! (`git log --first-parent -M --raw`: renames found by git; copies are files added beside
//! the one followed, see [`super::follow`]).
//!
//! A pinned commit on the mainline joins it at itself; a commit of a merged branch at the
//! first mainline commit that holds it (the merge); a commit on no branch of the default
//! branch's history (a pull request's head, squashed or never merged) at the mainline commit
//! that holds its merge base with `HEAD`.

use super::cache::Repo;
use super::git::{DIFF_SAFETY, NO_PATHS};
use std::collections::{HashMap, HashSet};

/// What one commit did to one path, against its first parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    Added(String),
    /// Edited, or its type changed (file ↔ symlink).
    Modified(String),
    Deleted(String),
    /// Moved, maybe edited on the way (git's similarity index ≥ 50%).
    Renamed {
        from: String,
        to: String,
    },
    /// A new file mostly copied from `from`, which stays.
    Copied {
        from: String,
        to: String,
    },
}

impl Change {
    /// The path the commit leaves behind (the new one of a rename or copy), if any.
    pub(crate) fn result(&self) -> Option<&str> {
        match self {
            Change::Added(p) | Change::Modified(p) => Some(p),
            Change::Renamed { to, .. } | Change::Copied { to, .. } => Some(to),
            Change::Deleted(_) => None,
        }
    }

    fn paths(&self) -> impl Iterator<Item = &str> {
        let (a, b) = match self {
            Change::Added(p) | Change::Modified(p) | Change::Deleted(p) => (p.as_str(), None),
            Change::Renamed { from, to } | Change::Copied { from, to } => {
                (from.as_str(), Some(to.as_str()))
            }
        };
        std::iter::once(a).chain(b)
    }
}

/// A change and the blob it leaves (`None` for a deletion).
type Changed = (Change, Option<String>);

/// The mainline of a repository and its changes since the oldest pinned commit.
#[derive(Debug, Default)]
pub(crate) struct History {
    /// The mainline, oldest first: a commit's place in it is its index.
    mainline: Vec<String>,
    /// Each commit asked about → the index of the mainline commit it joins at.
    entries: HashMap<String, usize>,
    /// Each mainline commit's changes (empty before the oldest entry), and the blob each
    /// change leaves (`None` for a deletion).
    changes: Vec<Vec<Change>>,
    blobs: Vec<Vec<Option<String>>>,
    /// Each path → the indexes of the commits whose changes name it, in order.
    touches: HashMap<String, Vec<usize>>,
}

impl History {
    /// Walks the history of `head` for the pinned `commits` (full hashes): one `rev-list`
    /// for the mainline, one more for the graph of `head` and the commits off the mainline
    /// (when there are some), and one `log` of the changes.
    pub(crate) fn walk(repo: &Repo, head: &str, commits: &[&str]) -> Result<History, String> {
        let out = (repo.git().args(["rev-list", "--first-parent"]))
            .value(head)?
            .operands(NO_PATHS)
            .run(None)?;
        let mut mainline: Vec<String> = String::from_utf8_lossy(&out)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        mainline.reverse();
        let place: HashMap<&str, usize> = (mainline.iter().enumerate())
            .map(|(i, c)| (c.as_str(), i))
            .collect();
        let mut entries: HashMap<String, usize> = HashMap::new();
        let mut off: Vec<&str> = Vec::new();
        for &commit in commits {
            match place.get(commit) {
                Some(&i) => {
                    entries.insert(commit.to_string(), i);
                }
                None => off.push(commit),
            }
        }
        if !off.is_empty() {
            let mut git = repo.git().args(["rev-list", "--parents"]).value(head)?;
            for commit in &off {
                git = git.value(commit)?;
            }
            let out = git.operands(NO_PATHS).run(None)?;
            let text = String::from_utf8_lossy(&out);
            let parents: HashMap<&str, Vec<&str>> = text
                .lines()
                .filter_map(|line| {
                    let mut hashes = line.split_whitespace();
                    Some((hashes.next()?, hashes.collect()))
                })
                .collect();
            let joins = joins(&parents, &place);
            for commit in off {
                if let Some(entry) = entry_of(commit, &parents, &joins) {
                    entries.insert(commit.to_string(), entry);
                }
            }
        }
        let mut history = History {
            changes: vec![Vec::new(); mainline.len()],
            blobs: vec![Vec::new(); mainline.len()],
            mainline,
            entries,
            touches: HashMap::new(),
        };
        if let Some(&oldest) = history.entries.values().min() {
            history.read_changes(repo, head, oldest)?;
        }
        Ok(history)
    }

    /// Reads the changes of the mainline commits after index `oldest`, in one `git log`.
    fn read_changes(&mut self, repo: &Repo, head: &str, oldest: usize) -> Result<(), String> {
        if oldest + 1 >= self.mainline.len() {
            return Ok(());
        }
        let range = format!("{}..{head}", self.mainline[oldest]);
        let out = (repo.git())
            .args(["log", "--first-parent", "--diff-merges=first-parent"])
            .args(["-M", "--raw", "--no-abbrev", "-z", "--format=%x01%H"])
            .args(DIFF_SAFETY)
            .value(&range)?
            .operands(NO_PATHS)
            .run(None)?;
        let place: HashMap<&str, usize> = (self.mainline.iter().enumerate())
            .map(|(i, c)| (c.as_str(), i))
            .collect();
        let mut read: Vec<(usize, Vec<Changed>)> = Vec::new();
        for (commit, changes) in parse_log(&String::from_utf8_lossy(&out)) {
            if let Some(&i) = place.get(commit) {
                read.push((i, changes));
            }
        }
        for (i, changes) in read {
            let (changes, blobs): (Vec<Change>, Vec<Option<String>>) = changes.into_iter().unzip();
            for path in changes.iter().flat_map(Change::paths) {
                let touches = self.touches.entry(path.to_string()).or_default();
                if touches.last() != Some(&i) {
                    touches.push(i);
                }
            }
            self.changes[i] = changes;
            self.blobs[i] = blobs;
        }
        for touches in self.touches.values_mut() {
            touches.sort_unstable();
        }
        Ok(())
    }

    /// The mainline index `commit` joins the mainline at; `None` when it shares no history
    /// with `HEAD`.
    pub(crate) fn entry(&self, commit: &str) -> Option<usize> {
        self.entries.get(commit).copied()
    }

    /// The mainline commit at `index`.
    pub(crate) fn commit(&self, index: usize) -> &str {
        &self.mainline[index]
    }

    /// The first commit after `index` whose changes name `path`.
    pub(crate) fn next_touch(&self, path: &str, index: usize) -> Option<usize> {
        let touches = self.touches.get(path)?;
        let at = touches.partition_point(|&i| i <= index);
        touches.get(at).copied()
    }

    /// The changes of the mainline commit at `index`.
    pub(crate) fn changes(&self, index: usize) -> &[Change] {
        &self.changes[index]
    }

    /// The blob (its hash) the mainline commit at `index` leaves at `path`, when it changed
    /// `path`.
    pub(crate) fn blob_after(&self, index: usize, path: &str) -> Option<&str> {
        let at = (self.changes[index].iter()).position(|c| c.result() == Some(path))?;
        self.blobs[index][at].as_deref()
    }

    /// The paths the mainline commit at `index` leaves added or edited (the new one of a
    /// rename or copy).
    pub(crate) fn changed(&self, index: usize) -> impl Iterator<Item = &str> {
        self.changes[index].iter().filter_map(Change::result)
    }
}

/// Each commit `head` holds → the index of the first mainline commit that holds it: the
/// mainline walked from its oldest commit, each merge claiming the commits its other parents
/// bring that no earlier mainline commit holds.
fn joins<'t>(
    parents: &HashMap<&'t str, Vec<&'t str>>,
    place: &HashMap<&str, usize>,
) -> HashMap<&'t str, usize> {
    let mut mainline: Vec<(&str, usize)> = place.iter().map(|(c, i)| (*c, *i)).collect();
    mainline.sort_by_key(|(_, i)| *i);
    let mut joined: HashMap<&str, usize> = HashMap::new();
    for (commit, index) in mainline {
        let Some((&commit, commit_parents)) = parents.get_key_value(commit) else {
            continue;
        };
        joined.insert(commit, index);
        let mut stack: Vec<&str> = commit_parents.iter().skip(1).copied().collect();
        while let Some(next) = stack.pop() {
            if joined.contains_key(next) || place.contains_key(next) {
                continue;
            }
            joined.insert(next, index);
            stack.extend(parents.get(next).into_iter().flatten().copied());
        }
    }
    joined
}

/// Where `commit` joins the mainline: where a commit `head` holds joins it; for a commit it
/// does not hold (a pull request's, a branch never merged), where its merge base with `head`
/// does — the latest join among the commits of `head` its history reaches.
fn entry_of(
    commit: &str,
    parents: &HashMap<&str, Vec<&str>>,
    joins: &HashMap<&str, usize>,
) -> Option<usize> {
    if let Some(&entry) = joins.get(commit) {
        return Some(entry);
    }
    let mut latest = None;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut stack = vec![commit];
    while let Some(next) = stack.pop() {
        if !seen.insert(next) {
            continue;
        }
        match joins.get(next) {
            Some(&entry) => latest = latest.max(Some(entry)),
            None => stack.extend(parents.get(next).into_iter().flatten().copied()),
        }
    }
    latest
}

/// `git log -z --raw --no-abbrev --format=%x01%H` as (commit, changes) pairs, newest first,
/// each change with the blob it leaves.
fn parse_log(text: &str) -> Vec<(&str, Vec<Changed>)> {
    let mut commits: Vec<(&str, Vec<Changed>)> = Vec::new();
    let mut tokens = text.split('\0');
    while let Some(token) = tokens.next() {
        let token = token.trim_start_matches('\n');
        if let Some(hash) = token.strip_prefix('\x01') {
            commits.push((hash.trim(), Vec::new()));
            continue;
        }
        let Some((_, changes)) = commits.last_mut() else {
            continue;
        };
        // `:<old mode> <new mode> <old blob> <new blob> <status>`, then the path or paths.
        let fields: Vec<&str> = token.trim_start_matches(':').split(' ').collect();
        let (Some(blob), Some(status)) = (fields.get(3), fields.get(4)) else {
            continue;
        };
        let blob = Some(blob.to_string()).filter(|b| !b.bytes().all(|d| d == b'0'));
        let mut path = || tokens.next().unwrap_or_default().to_string();
        let change = match status.as_bytes().first() {
            Some(b'A') => Change::Added(path()),
            Some(b'M' | b'T') => Change::Modified(path()),
            Some(b'D') => Change::Deleted(path()),
            Some(b'R') => Change::Renamed {
                from: path(),
                to: path(),
            },
            Some(b'C') => Change::Copied {
                from: path(),
                to: path(),
            },
            // Unmerged or unknown: a path follows, which names nothing to follow.
            Some(_) => {
                path();
                continue;
            }
            None => continue,
        };
        changes.push((change, blob));
    }
    commits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_read_commit_by_commit() {
        let (a, b, zero) = ("a".repeat(40), "b".repeat(40), "0".repeat(40));
        let log = format!(
            "\x01c3\0\n:100644 100644 {a} {b} M\0a.py\0:100644 100644 {a} {b} R087\0old.py\0\
             new dir/x\ty.py\0\x01c2\0\x01c1\0\n:000000 100644 {zero} {a} A\0a.py\0\
             :100644 100644 {a} {a} C100\0a.py\0b.py\0:100644 000000 {b} {zero} D\0gone.md\0"
        );
        let read = parse_log(&log);
        let rename = Change::Renamed {
            from: "old.py".into(),
            to: "new dir/x\ty.py".into(),
        };
        let copy = Change::Copied {
            from: "a.py".into(),
            to: "b.py".into(),
        };
        let (a, b) = (Some(a), Some(b));
        assert_eq!(
            read,
            [
                (
                    "c3",
                    vec![
                        (Change::Modified("a.py".into()), b.clone()),
                        (rename, b.clone())
                    ]
                ),
                ("c2", vec![]),
                (
                    "c1",
                    vec![
                        (Change::Added("a.py".into()), a.clone()),
                        (copy, a),
                        (Change::Deleted("gone.md".into()), None)
                    ]
                ),
            ]
        );
    }
}
