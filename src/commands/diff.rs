//! `fieldnotes diff --base REV`: what the work tree changes in the knowledge base since REV,
//! as Markdown (a pull-request comment, a job summary) or JSON.

use super::Invocation;
use crate::cli::{DiffArgs, DiffFormat};
use crate::error::Result;
use std::io::Write;

/// Prints the diff; 0 whenever it ran (a change is not a failure), an error (status 2) when
/// it could not.
pub fn diff(run: &Invocation, args: DiffArgs) -> Result<u8> {
    let root = run.root()?;
    let diff = crate::diff::diff(
        root,
        &args.base,
        args.base_url.as_deref(),
        super::lint::rule,
    )?;
    let text = match args.format {
        DiffFormat::Markdown => crate::diff::markdown::render(&diff, args.max_bytes),
        DiffFormat::Json => {
            let mut json = serde_json::to_string_pretty(&diff).unwrap_or_default();
            json.push('\n');
            json
        }
    };
    if !diff.unread.is_empty() {
        run.say(&format!(
            "warning: {} file(s) of the base commit were not read (listed under `unread`); \
             what they held is not compared",
            diff.unread.len()
        ));
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
}
