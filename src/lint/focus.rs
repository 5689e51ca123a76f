//! Focus: which findings a pull-request run reports. The whole site is always checked; focus
//! keeps the findings in the files named on the command line or changed since a git revision,
//! plus the findings elsewhere that the change caused: a renamed, deleted or edited note breaks
//! `related` ids, links and anchors in files the pull request never touched.

use crate::config::CONFIG_FILE;
use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::index::SiteIndex;
use crate::load::CONTENT_DIR;
use crate::provenance::git::{resolve_commit, Git, DIFF_SAFETY, NO_PATHS};
use crate::provenance::worktree::{self, WorkTree};
use crate::terminal;
use crate::text_file::display_path;
use std::collections::BTreeSet;
use std::path::{Component, Path};

/// Codes of findings that are broken references to another file's id: reported wherever they
/// are when that id belongs to a file the change touched.
pub const BROKEN_REFERENCES: [&str; 8] = [
    "FN203", "FN204", "FN208", "FN501", "FN601", "FN602", "FN801", "FN804",
];

/// What to report.
#[derive(Debug, Default)]
pub struct Focus {
    /// Site-relative files and folders (`/`-separated) whose findings are reported.
    paths: BTreeSet<String>,
    /// Ids (file stems) of content files the change added, edited, renamed or deleted.
    touched_ids: BTreeSet<String>,
    /// `site.yaml` changed: its vocabularies reach every file, so everything is reported.
    everything: bool,
}

impl Focus {
    /// Adds a path given on the command line (relative to the working directory). It must be
    /// in the site and exist.
    pub fn add_path(&mut self, root: &Path, path: &Path) -> Result<()> {
        let usage = |why: &str| Error::Usage {
            message: format!("{}: {why}", path.display()),
        };
        if !path.exists() {
            return Err(usage("no such file or folder"));
        }
        let root = root
            .canonicalize()
            .map_err(|e| Error::io(root, "read the site folder", e))?;
        let full = path
            .canonicalize()
            .map_err(|e| Error::io(path, "read", e))?;
        let relative = full
            .strip_prefix(&root)
            .map_err(|_| usage("not inside the site"))?;
        self.paths.insert(display_path(relative));
        Ok(())
    }

    /// Adds what changed since `rev` in the git repository holding `root`: files changed,
    /// added, renamed or copied since `rev` (working tree included) and untracked files.
    pub fn add_changes_since(&mut self, root: &Path, rev: &str) -> Result<()> {
        let (tree, cwd) = work_tree(root, rev)?;
        let git = || Git::in_work_tree(&tree, &cwd);
        let since = resolve_since(git, rev)?;
        let diff = (git().args(["diff", "--name-status", "-z", "-M", "--relative"]))
            .args(DIFF_SAFETY)
            .value(&since)
            .and_then(|diff| diff.operands(NO_PATHS).run(None));
        let diff = git_output(rev, diff)?;
        let mut fields = diff.split('\0').filter(|f| !f.is_empty());
        while let Some(status) = fields.next() {
            let kind = status.chars().next().unwrap_or('M');
            let first = fields.next().unwrap_or_default();
            match kind {
                'R' | 'C' => {
                    let new = fields.next().unwrap_or_default();
                    if kind == 'R' {
                        self.touch(first);
                    }
                    self.change(new);
                }
                'D' => self.touch(first),
                _ => self.change(first),
            }
        }
        let untracked = git()
            .args(["ls-files", "-z", "--others", "--exclude-standard"])
            .run(None);
        for path in git_output(rev, untracked)?
            .split('\0')
            .filter(|f| !f.is_empty())
        {
            self.change(path);
        }
        Ok(())
    }

    /// A file that exists after the change: its findings are reported.
    fn change(&mut self, path: &str) {
        self.touch(path);
        self.paths.insert(path.to_string());
    }

    /// A file the change touched: references to its id are reported anywhere.
    fn touch(&mut self, path: &str) {
        if path == CONFIG_FILE {
            self.everything = true;
        }
        let path = Path::new(path);
        let in_content = path.components().next() == Some(Component::Normal(CONTENT_DIR.as_ref()));
        if in_content && path.extension().is_some_and(|e| e == "md") {
            if let Some(stem) = path.file_stem() {
                self.touched_ids.insert(stem.to_string_lossy().into_owned());
            }
        }
    }

    /// Whether findings in the site file `file` (as diagnostics name it) are reported.
    pub fn reports_file(&self, file: &str) -> bool {
        self.everything
            || self.paths.iter().any(|p| {
                file == p
                    || p.is_empty()
                    || file
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
    }

    /// Whether `finding` is reported.
    pub fn keeps(&self, finding: &Diagnostic, index: &SiteIndex) -> bool {
        self.reports_file(&finding.file)
            || (BROKEN_REFERENCES.contains(&finding.code)
                && self.touched_ids.contains(target_id(finding, index)))
    }
}

/// The id a broken reference names: the text at the finding (an id, or a link such as
/// `/research/<id>.md#anchor`) reduced to its last path segment without extension.
fn target_id<'a>(finding: &Diagnostic, index: &'a SiteIndex) -> &'a str {
    let text = crate::lint::walk::span_text(index, finding.span);
    let text = text.split(['#', '?']).next().unwrap_or(text).trim();
    let last = text.rsplit('/').next().unwrap_or(text);
    last.strip_suffix(".md")
        .or_else(|| last.strip_suffix(".html"))
        .unwrap_or(last)
}

/// A usage error of `--changed-since` (one line: what failed, what to do).
fn refuse(rev: &str, why: String) -> Error {
    Error::Usage {
        message: format!("--changed-since {}: {why}", terminal::escape(rev)),
    }
}

/// The work tree holding the site `root` (found as [`worktree::find`] does, never by git's
/// own search), and the site's real path in it; a usage error when the site looks like a git
/// folder or is in no work tree.
fn work_tree(root: &Path, rev: &str) -> Result<(WorkTree, std::path::PathBuf)> {
    if let Some(why) = worktree::refusal(root) {
        return Err(Error::Usage { message: why });
    }
    let real = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let tree = worktree::find(&real).ok_or_else(|| {
        refuse(
            rev,
            format!(
                "{} is not in a git work tree (no `.git` in it or any folder above it); run \
                 lint in a git checkout, or leave out --changed-since",
                terminal::escape(&real.to_string_lossy())
            ),
        )
    })?;
    Ok((tree, real))
}

/// `rev` as `git diff` is given it, each commit it names resolved to its full hash: one
/// commit (compared with the working tree), or a range `A..B` or `A...B` (a side left out is
/// `HEAD`). A usage error when a side names no commit; a `rev` git could read as an option
/// (`--output=FILE`) never reaches git.
fn resolve_since(git: impl Fn() -> Git, rev: &str) -> Result<String> {
    let refuse = |why: String| refuse(rev, why);
    if rev.is_empty() || rev.starts_with('-') {
        return Err(refuse(
            "not a revision (it is empty or starts with `-`); give a branch, tag or commit, \
             such as `origin/main`"
                .to_string(),
        ));
    }
    let commit = |name: &str| {
        let name = if name.is_empty() { "HEAD" } else { name };
        resolve_commit(git(), name).map_err(refuse)
    };
    for dots in ["...", ".."] {
        if let Some((from, to)) = rev.split_once(dots) {
            return Ok(format!("{}{dots}{}", commit(from)?, commit(to)?));
        }
    }
    commit(rev)
}

/// What git printed, or its failure as a usage error of `--changed-since`.
fn git_output(rev: &str, output: std::result::Result<Vec<u8>, String>) -> Result<String> {
    match output {
        Ok(out) => Ok(String::from_utf8_lossy(&out).into_owned()),
        Err(why) => Err(Error::Usage {
            message: format!(
                "--changed-since {}: git failed: {why}",
                terminal::escape(rev)
            ),
        }),
    }
}
