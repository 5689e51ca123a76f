//! Which git repository holds a folder, found by fieldnotes itself rather than by git's own
//! search: only a `.git` folder (or a `.git` file naming one, as in a worktree or submodule)
//! marks a repository. git's search also takes a folder that merely looks like a git folder
//! (`HEAD`, `objects/`, `refs/` at its root) as a bare repository, and a pull request can
//! commit those files: then its own `config` (`core.fsmonitor = <command>`) would be read.
//! Every git command on the site names the repository found here (`--git-dir`,
//! `--work-tree`), and a site folder that looks like a git folder is refused outright.

use std::path::{Path, PathBuf};

/// A non-bare repository: its git folder and the top of its work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WorkTree {
    /// The git folder (`<top>/.git`, or what a `.git` file names).
    pub git_dir: PathBuf,
    /// The top of the work tree: the folder holding `.git`.
    pub top: PathBuf,
}

/// Whether `dir` holds what makes git take a folder for a git folder: a `HEAD`, and an
/// `objects/`, `refs/`, `config` or `commondir` beside it.
pub(crate) fn looks_like_git_dir(dir: &Path) -> bool {
    let has = |name: &str| dir.join(name).symlink_metadata().is_ok();
    has("HEAD")
        && ["objects", "refs", "config", "commondir"]
            .into_iter()
            .any(has)
}

/// Why `site` may not be used: it looks like a git folder, so that git (fieldnotes' or any
/// other tool's in the same job) would read its `config`. `None` for an ordinary folder.
pub(crate) fn refusal(site: &Path) -> Option<String> {
    looks_like_git_dir(site).then(|| {
        format!(
            "{}: the site folder holds `HEAD` and `objects/`, `refs/` or `config`, as a git \
             folder does, so git would read its files as a repository and its configuration; \
             remove them from the site (a pull request may have added them), or keep the site \
             in a folder of its own",
            crate::terminal::escape(&site.to_string_lossy())
        )
    })
}

/// The repository whose work tree holds `dir`: the nearest folder from `dir` up that holds a
/// `.git` folder, or a `.git` file (`gitdir: <path>`) naming a git folder. No folder is ever
/// taken for a git folder because of what it holds itself. `None` outside any work tree.
pub(crate) fn find(dir: &Path) -> Option<WorkTree> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors().find_map(|top| {
        let git_dir = git_dir_of(top)?;
        Some(WorkTree {
            git_dir,
            top: top.to_path_buf(),
        })
    })
}

/// The git folder `<top>/.git` marks: itself when it is a folder, or the folder a `.git`
/// file names; `None` when neither looks like a git folder.
fn git_dir_of(top: &Path) -> Option<PathBuf> {
    let dot_git = top.join(".git");
    let meta = std::fs::metadata(&dot_git).ok()?;
    let git_dir = match meta.is_dir() {
        true => dot_git,
        false => {
            // A worktree's or submodule's `.git` file: one line, `gitdir: <path>`, a relative
            // path taken from the folder holding the file.
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let named = text.lines().next()?.strip_prefix("gitdir:")?.trim();
            if named.is_empty() {
                return None;
            }
            top.join(named)
        }
    };
    looks_like_git_dir(&git_dir)
        .then(|| git_dir.canonicalize().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn git_dir_at(dir: &Path) {
        fs::create_dir_all(dir.join("objects")).expect("mkdir");
        fs::create_dir_all(dir.join("refs")).expect("mkdir");
        fs::write(dir.join("HEAD"), "ref: refs/heads/main\n").expect("write");
    }

    #[test]
    fn only_a_dot_git_marks_a_repository() {
        let tmp = tempfile::tempdir().expect("temp");
        let top = tmp.path().canonicalize().expect("real path");
        git_dir_at(&top.join(".git"));
        // A folder between the site and the top that looks like a git folder is not one.
        let site = top.join("docs/site");
        git_dir_at(&top.join("docs"));
        fs::create_dir_all(&site).expect("mkdir");
        let found = find(&site).expect("found");
        assert_eq!(found.top, top);
        assert_eq!(found.git_dir, top.join(".git"));
        assert!(refusal(&top.join("docs")).is_some());
        assert!(refusal(&site).is_none());
    }

    #[test]
    fn a_git_file_names_the_git_folder() {
        let tmp = tempfile::tempdir().expect("temp");
        let top = tmp.path().canonicalize().expect("real path");
        git_dir_at(&top.join("store/worktrees/w"));
        fs::create_dir_all(top.join("w")).expect("mkdir");
        fs::write(top.join("w/.git"), "gitdir: ../store/worktrees/w\n").expect("write");
        let found = find(&top.join("w")).expect("found");
        assert_eq!(found.git_dir, top.join("store/worktrees/w"));
        // A `.git` file naming nothing like a git folder marks nothing.
        fs::write(top.join("w/.git"), "gitdir: ../nowhere\n").expect("write");
        assert_eq!(find(&top.join("w")), None);
    }
}
