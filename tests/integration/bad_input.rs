//! Tests: bad input. Notes arrive in pull requests from strangers: nothing one contains may
//! crash fieldnotes, hang it, exhaust its memory, leave a broken site behind, or run script in
//! a reader's browser.
//!
//! - `corpus`: the bad-input corpus of `tests/fixtures/bad/`, each case with its findings.
//! - `xss`: script payloads in every field and body reach no output as script.
//! - `output`: atomic output (a killed build leaves the previous site), refusals to clear.
//! - `determinism`: two builds are byte-identical; no clock in the output.
//! - `properties`: arbitrary bytes through parse and lint never panic.

mod corpus;
mod determinism;
mod output;
mod properties;
mod xss;

use crate::support::TestSite;
use std::fs;
use std::path::Path;

/// The clean base site of the corpus with `notes` more research notes, each linking to the
/// one before it (a site that takes a while to build).
fn site_with_notes(notes: usize) -> TestSite {
    let site = TestSite::fixture("bad/_base");
    let base = fs::read_to_string(site.root().join("content/research/a-note.md")).expect("note");
    for i in 0..notes {
        let id = format!("note-{i:05}");
        let body = format!(
            "# Note {i}\n\nSee [the one before](/research/note-{:05}.md) and [Client A](/clients/client-a.md).\n\n{}",
            i.saturating_sub(1),
            "A paragraph of text that makes the page a realistic size. ".repeat(40)
        );
        let text = base
            .replace("a-note", &id)
            .replace("See [Client A](/clients/client-a.md).\n", &body);
        site.write(&format!("content/research/{id}.md"), &text);
    }
    site
}

/// Names in `dir` that a build's staging or swap left behind.
fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect()
}
