//! `fieldnotes diff`: what a change does to the knowledge base, as a reviewer reads it — the
//! support cells whose status or evidence changed, notes added, removed, retired or changed,
//! pins bumped, clients and capabilities added or removed — between a base commit and the
//! work tree.
//!
//! Both sides go through the same load → parse → index steps: the work tree as every command
//! loads it ([`crate::open`]), the base from git's objects ([`base`], bounded, nothing checked
//! out or followed), with the repository found and git hardened as `lint --changed-since`
//! does ([`crate::provenance::worktree`], [`crate::provenance::git`]). The comparison is one
//! file per kind of change ([`cells`], [`notes`], [`pins`], [`roster`]) into the data of
//! [`model`], printed as JSON (serde) or Markdown ([`markdown`]), with links to a preview
//! ([`links`]).

pub(crate) mod base;
pub(crate) mod cells;
pub(crate) mod links;
pub(crate) mod markdown;
pub(crate) mod model;
pub(crate) mod notes;
pub(crate) mod pins;
pub(crate) mod revision;
pub(crate) mod roster;
pub(crate) mod tree;

use crate::error::Result;
use crate::provenance::git::Git;
use crate::provenance::worktree;
use crate::terminal;
use links::Preview;
use model::SiteDiff;
use std::path::Path;

/// What changed in the site at `root` (the work tree) since the commit `base` names; links
/// to the preview at `base_url` when given.
pub(crate) fn diff(root: &Path, base: &str, base_url: Option<&str>) -> Result<SiteDiff> {
    if let Some(why) = worktree::refusal(root) {
        return Err(crate::error::Error::Usage { message: why });
    }
    let site = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let tree = worktree::find(&site).ok_or_else(|| {
        revision::refuse(
            base,
            format!(
                "{} is not in a git work tree (no `.git` in it or any folder above it); run \
                 diff in a git checkout of the site",
                terminal::escape(&site.to_string_lossy())
            ),
        )
    })?;
    let commit = revision::resolve(|| Git::in_work_tree(&tree, &site), base)?;
    let after = crate::open(root)?;
    let preview = (base_url)
        .map(|url| Preview::new(url, after.config.urls))
        .transpose()?;
    let base_site = base::read(&tree, &site, &commit, &after.config.limits)?;
    let before = crate::index::index(crate::parse::parse(base_site.loaded));
    let preview = preview.as_ref();
    let (clients, capabilities) = roster::changes(&before, &after, preview);
    Ok(SiteDiff {
        version: model::VERSION,
        cells: cells::changes(&before, &after, preview),
        notes: notes::changes(&before, &after, preview),
        pins: pins::bumps(&before, &after),
        clients,
        capabilities,
        unread: base_site.unread,
        base: commit,
    })
}
