//! Where the site is, and the repository holding it.
//!
//! Without `--root`, the site is the nearest folder holding a `site.yaml`, from the current
//! folder up (as git finds `.git` and ruff `pyproject.toml`). The repository's top level is
//! where CI readers open printed paths from ([`crate::lint::format::PathBase`]).

use crate::config::CONFIG_FILE;
use crate::error::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// Refuses a site folder that looks like a git folder (`HEAD` beside `objects/`, `refs/` or
/// `config`): git, fieldnotes' or another step's, would take it for a repository and read
/// its configuration, which a pull request wrote ([`crate::provenance::worktree`]).
pub fn refuse_git_dir(root: &Path) -> Result<()> {
    match crate::provenance::worktree::refusal(root) {
        Some(message) => Err(Error::Usage { message }),
        None => Ok(()),
    }
}

/// The nearest folder from `start` up that holds a `site.yaml`, as a path from `start`:
/// `.` for `start` itself, `..`, `../..` and so on above it.
pub fn find_upward(start: &Path) -> Option<PathBuf> {
    let mut relative = PathBuf::from(".");
    for (depth, dir) in start.ancestors().enumerate() {
        if dir.join(CONFIG_FILE).is_file() {
            return Some(relative);
        }
        relative = (0..=depth).map(|_| Component::ParentDir).collect();
    }
    None
}

/// The repository's top level: the nearest folder from `dir` up holding `.git` (a folder,
/// or a file in a worktree or submodule).
pub fn repository_top(dir: &Path) -> Option<&Path> {
    dir.ancestors().find(|d| d.join(".git").exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_found_from_below() {
        let dir = tempfile::tempdir().expect("temp");
        let deep = dir.path().join("content/research");
        std::fs::create_dir_all(&deep).expect("mkdir");
        std::fs::write(dir.path().join(CONFIG_FILE), "title: x\n").expect("write");
        assert_eq!(find_upward(&deep), Some(PathBuf::from("../..")));
        assert_eq!(find_upward(dir.path()), Some(PathBuf::from(".")));
    }
}
