//! `fieldnotes diff`: what a change does to the knowledge base, as a reviewer reads it — the
//! support cells whose status or evidence changed, notes added, removed, retired or changed,
//! pins bumped, clients and capabilities added or removed — between a base commit and the
//! work tree.
//!
//! Both sides go through the same load → parse → index steps: the work tree as every command
//! loads it ([`crate::open`]), the base from git's objects ([`base`], bounded, nothing checked
//! out or followed), with the repository found and git hardened as `lint --changed-since`
//! does ([`crate::provenance::worktree`], [`crate::provenance::git`]). The comparison is one
//! file per kind of change ([`cells`], [`notes`], [`pins`], [`roster`], and [`settings`]:
//! `site.yaml`, templates, themes and static files, each change a review item) into the data of
//! [`model`], printed as JSON (serde) or Markdown ([`markdown`]), with links to a preview
//! ([`links`]).

pub(crate) mod base;
pub(crate) mod cells;
pub(crate) mod inert;
pub(crate) mod links;
pub(crate) mod markdown;
pub(crate) mod model;
pub(crate) mod notes;
pub(crate) mod pins;
pub(crate) mod revision;
pub(crate) mod roster;
pub(crate) mod settings;
pub(crate) mod tree;

use crate::config::trust::RuleLookup;
use crate::config::{self, SiteConfig};
use crate::error::Result;
use crate::provenance::git::Git;
use crate::provenance::worktree::{self, WorkTree};
use crate::terminal;
use links::Preview;
use model::SiteDiff;
use std::path::{Path, PathBuf};

/// What changed in the site at `root` (the work tree) since the commit `base` names; links
/// to the preview at `base_url` when given. The work tree's `site.yaml` is held to the base's
/// (`config::trust`): what a change would loosen is listed, not used.
pub(crate) fn diff(
    root: &Path,
    base: &str,
    base_url: Option<&str>,
    rules: RuleLookup,
) -> Result<SiteDiff> {
    let (tree, site, commit) = revision_of(root, "--base", base)?;
    let base_config = base::config_at(&tree, &site, &commit)?;
    if let Ok(trusted) = SiteConfig::parse(&base_config.text, Path::new(&base_config.shown)) {
        config::trust::install(trusted, rules);
    }
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
        settings: settings::changes(&tree, &site, &commit, &base_config, &before.config, rules)?,
        cells: cells::changes(&before, &after, preview),
        notes: notes::changes(&before, &after, preview),
        pins: pins::bumps(&before, &after),
        clients,
        capabilities,
        unread: base_site.unread,
        base: commit,
    })
}

/// The site at `root` (its git work tree and canonical folder) and the full hash of the
/// commit `rev` (given to the option `flag`) names.
pub(crate) fn revision_of(
    root: &Path,
    flag: &str,
    rev: &str,
) -> Result<(WorkTree, PathBuf, String)> {
    if let Some(why) = worktree::refusal(root) {
        return Err(crate::error::Error::Usage { message: why });
    }
    let site = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let tree = worktree::find(&site).ok_or_else(|| {
        revision::refuse_as(
            flag,
            rev,
            format!(
                "{} is not in a git work tree (no `.git` in it or any folder above it); run \
                 in a git checkout of the site",
                terminal::escape(&site.to_string_lossy())
            ),
        )
    })?;
    let commit = revision::resolve_as(flag, || Git::in_work_tree(&tree, &site), rev)?;
    Ok((tree, site, commit))
}

/// `site.yaml` as the commit `rev` (given to `--config-from`) holds it, for the site at
/// `root`: the trusted settings of a pull request's check.
pub(crate) fn trusted_config(root: &Path, rev: &str) -> Result<base::ConfigText> {
    let (tree, site, commit) = revision_of(root, "--config-from", rev)?;
    base::config_at(&tree, &site, &commit)
}
