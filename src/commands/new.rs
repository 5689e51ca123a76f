//! `fieldnotes new note|client|capability`: write a file from a template, never overwriting.

use crate::cli::NewCommand;
use crate::config::SiteConfig;
use crate::dates;
use crate::error::Result;
use crate::scaffold::{self, NewFile};

use super::Invocation;

pub fn new(run: &Invocation, what: NewCommand) -> Result<u8> {
    let root = run.root()?;
    let config = SiteConfig::load(root)?;
    let (file, day) = match what {
        NewCommand::Note {
            id,
            clients,
            capabilities,
            today,
        } => (
            NewFile::Note {
                id,
                clients,
                capabilities,
            },
            today,
        ),
        NewCommand::Client { id } => (NewFile::Client { id }, None),
        NewCommand::Capability { id } => (NewFile::Capability { id }, None),
    };
    let day = dates::today(day.as_deref())?;
    let written = scaffold::create(root, &file, &config, day)?;
    for warning in scaffold::unknown_ids(root, &file, &config) {
        run.say(&format!("warning: {warning}"));
    }
    println!("{}", written.display());
    run.say(&format!(
        "wrote {}: fill in what is marked {}, then run `fieldnotes lint`",
        written.display(),
        scaffold::PLACEHOLDER
    ));
    Ok(0)
}
