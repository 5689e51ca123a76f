//! `--base REV`: the one commit the base side is read at, resolved as `lint --changed-since`
//! resolves its revision (`rev-parse --verify --end-of-options`, then only the full hash is
//! given to git); `REV...` is the commit where the work tree's `HEAD` branched from `REV`
//! (`git merge-base`), as in `git diff REV...`.

use crate::error::{Error, Result};
use crate::provenance::git::{resolve_commit, Git};
use crate::terminal;

/// A usage error of `--base` (one line: what failed, what to do).
pub(crate) fn refuse(rev: &str, why: impl std::fmt::Display) -> Error {
    Error::Usage {
        message: format!("--base {}: {why}", terminal::escape(rev)),
    }
}

/// The full hash of the commit `rev` names in the repository `git` runs on.
pub(crate) fn resolve(git: impl Fn() -> Git, rev: &str) -> Result<String> {
    if rev.is_empty() || rev.starts_with('-') {
        return Err(refuse(
            rev,
            "not a revision (it is empty or starts with `-`); give a branch, tag or commit, \
             such as `origin/main`",
        ));
    }
    let Some(branched) = rev.strip_suffix("...") else {
        return commit(&git, rev, rev);
    };
    let from = commit(&git, rev, branched)?;
    let head = commit(&git, rev, "HEAD")?;
    let out = (git().args(["merge-base"]).value(&from))
        .and_then(|merge_base| merge_base.value(&head))
        .and_then(|merge_base| merge_base.run(None))
        .map_err(|why| {
            refuse(
                rev,
                format!(
                    "`{}` and HEAD share no commit ({why}); fetch more history \
                     (`fetch-depth: 0`), or give one commit",
                    terminal::escape(branched)
                ),
            )
        })?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

/// The full hash of the commit `name` names (`rev` as given, for errors).
fn commit(git: &impl Fn() -> Git, rev: &str, name: &str) -> Result<String> {
    resolve_commit(git(), name).map_err(|why| refuse(rev, why))
}
