//! `fieldnotes lsp`: the language server, on standard input and output.

use super::Invocation;
use crate::cli::LspArgs;
use crate::dates;
use crate::error::Result;
use std::path::Path;

/// Serves the editor until it says `exit`; the site is `--root` or the one around the
/// editor's workspace folder.
pub fn lsp(run: &Invocation, args: LspArgs) -> Result<u8> {
    let today = dates::today(args.today.as_deref())?;
    // `--root` wins over the workspace folder, which wins over the current folder.
    let locate = |workspace: Option<&Path>| match (run.found, workspace) {
        (false, _) => run.root.clone(),
        // (`find_upward` answers a path from `folder`, not from the current folder.)
        (true, Some(folder)) => (super::site_root::find_upward(folder))
            .map(|relative| folder.join(relative))
            .or(run.root.clone()),
        (true, None) => run.root.clone(),
    };
    crate::lsp::run(&locate, today)?;
    Ok(0)
}
