//! `--base REV` (and `--config-from REV`): the one commit the base side is read at, resolved as `lint --changed-since`
//! resolves its revision (`rev-parse --verify --end-of-options`, then only the full hash is
//! given to git); `REV...` is the commit where the work tree's `HEAD` branched from `REV`
//! (`git merge-base`), as in `git diff REV...`.

use crate::error::{Error, Result};
use crate::provenance::git::{resolve_commit, Git};
use crate::terminal;

/// A usage error of the option `flag` (`--base`, `--config-from`) given `rev` (one line: what
/// failed, what to do).
pub(crate) fn refuse_as(flag: &str, rev: &str, why: impl std::fmt::Display) -> Error {
    Error::Usage {
        message: format!("{flag} {}: {why}", terminal::escape(rev)),
    }
}

/// The full hash of the commit `rev` (given to the option `flag`) names in the repository
/// `git` runs on.
pub(crate) fn resolve_as(flag: &str, git: impl Fn() -> Git, rev: &str) -> Result<String> {
    let refuse = |rev: &str, why: String| refuse_as(flag, rev, why);
    if rev.is_empty() || rev.starts_with('-') {
        return Err(refuse(
            rev,
            "not a revision (it is empty or starts with `-`); give a branch, tag or commit, \
             such as `origin/main`"
                .to_string(),
        ));
    }
    let commit = |name: &str| resolve_commit(git(), name).map_err(|why| refuse(rev, why));
    let Some(branched) = rev.strip_suffix("...") else {
        return commit(rev);
    };
    let from = commit(branched)?;
    let head = commit("HEAD")?;
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
