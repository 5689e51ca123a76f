//! FN501 unknown-related: a `related` id names no research note.

use crate::diagnostic::Severity;
use crate::lint::{suggest, Context, RuleMeta, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN501",
    name: "unknown-related",
    severity: Severity::Error,
    summary: "a `related` id names no research note",
    doc: "## What it flags\n\nAn entry of a note's `related` list with no \
`content/research/<id>.md`.\n\n## Why\n\nRelated notes are listed and linked on the note's \
page; an unknown id would be a dead link. It often means the other note was renamed or \
deleted.\n\n## Example\n\n```yaml\nrelated:\n  - a-note-that-was-renamed\n```\n\nUse the \
note's current id, or remove the entry.",
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let ids = &cx.index.ids;
    for note in &cx.index.content.notes {
        for related in &note.related {
            if ids.note(&related.value).is_none() {
                let help = suggest::did_you_mean(
                    &related.value,
                    ids.notes.keys().map(String::as_str),
                    || "use the id of an existing note, or remove the entry".to_string(),
                );
                sink.report(
                    &META,
                    related.span,
                    format!("related note `{}` does not exist", related.value),
                    Some(help),
                );
            }
        }
    }
}
