//! `fieldnotes lsp`: the language server, on standard input and output.

use super::Invocation;
use crate::cli::LspArgs;
use crate::dates;
use crate::error::Result;

/// Serves the editor until it says `exit`; the site is `--root` or the one around the
/// editor's workspace folder.
pub fn lsp(run: &Invocation, args: LspArgs) -> Result<u8> {
    let today = dates::today(args.today.as_deref())?;
    // `--root` wins over the workspace folder, which wins over the current folder.
    let (given, found) = match run.found {
        true => (None, run.root.clone()),
        false => (run.root.clone(), None),
    };
    crate::lsp::run(given, found, today)?;
    Ok(0)
}
