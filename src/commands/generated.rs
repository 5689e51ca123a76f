//! `fieldnotes completions SHELL` and `fieldnotes man`: generated from the clap definitions.

use crate::cli::Cli;
use crate::error::{Error, Result};
use clap::CommandFactory;
use std::io::Write;

pub fn completions(shell: clap_complete::Shell) -> Result<u8> {
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "fieldnotes", &mut std::io::stdout());
    Ok(0)
}

pub fn man() -> Result<u8> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| Error::io("<stdout>", "render the man page to", e))?;
    let _ = std::io::stdout().write_all(&page);
    Ok(0)
}
