//! `fieldnotes workflows [--out DIR] [--force]`: the issue form, the submit and lint workflows
//! and the script they quote with, written for the site into its repository's `.github/`.

use super::Invocation;
use crate::cli::WorkflowsArgs;
use crate::error::{Error, Result};
use crate::workflows::{self, Options, SiteWords};
use std::path::{Path, PathBuf};

pub fn workflows(run: &Invocation, args: WorkflowsArgs) -> Result<u8> {
    let root = run.root()?;
    let index = crate::open(root)?;
    let site = crate::beneath::lexical(root)?;
    let top = repository_top(&site).unwrap_or_else(|| site.clone());
    let out = match &args.out {
        Some(out) => crate::beneath::lexical(out)?,
        None => top.clone(),
    };
    let usage = |message: String| Error::Usage { message };
    let site_path = match args.site_path {
        Some(path) => path,
        None => workflows::site_path(&site, &top).map_err(usage)?,
    };
    let options = Options {
        version: (args.version).unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string()),
        releases: args.releases,
        site_path,
    };
    workflows::check_options(&options).map_err(usage)?;
    let files = workflows::files(&SiteWords::of(&index), &options).map_err(usage)?;
    let written = workflows::write(&out, &files, args.force)?;
    for path in &written {
        println!("{}", path.display());
    }
    run.say(&format!(
        "wrote {} files for the site at `{}` (fieldnotes {} from {}): commit them, and give \
         the repository the label `{}`",
        written.len(),
        options.site_path,
        options.version,
        options.releases,
        workflows::LABEL
    ));
    Ok(0)
}

/// The nearest folder from `site` up that holds `.git` (a folder, or a file in a worktree).
fn repository_top(site: &Path) -> Option<PathBuf> {
    site.ancestors()
        .find(|a| a.join(".git").exists())
        .map(Path::to_path_buf)
}
