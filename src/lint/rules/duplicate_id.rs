//! FN103 duplicate-id: two files of one section with the same id.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::Content;
use crate::source::{Section, Span};

pub const META: RuleMeta = RuleMeta {
    code: "FN103",
    name: "duplicate-id",
    severity: Severity::Error,
    scope: Scope::Global, // compares every note's id
    reads: Reads::FrontMatter,
    summary: "two notes, clients or capabilities with the same id",
    doc: r#"## What it flags

Two or more files of one section (research, clients, capabilities, guides) that have the same
id, each reported with the other file it clashes with.

## Why

Both would be written to the same URL; one page silently replaces the other, and every link
and `related` entry becomes ambiguous.

## Example

`content/research/a.md` and `content/research/old/a.md`, or a copied note whose `id` was not
changed.

Give one of them a new id (and file name)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    for ((section, id), holders) in &cx.index.ids.duplicates {
        let spans: Vec<Span> = holders
            .iter()
            .map(|&i| id_span(content, *section, i))
            .collect();
        walk::report_clashes(
            cx.index,
            sink,
            &META,
            &spans,
            |other| format!("id `{id}` is also the id of {other}"),
            "give one of the two files another id and file name",
        );
    }
}

/// Where the `index`th document of `section` writes its id (its first line when it does not).
fn id_span(content: &Content, section: Section, index: usize) -> Span {
    let (id, file) = match section {
        Section::Research => (&content.notes[index].id, content.notes[index].doc.file),
        Section::Clients => (&content.clients[index].id, content.clients[index].doc.file),
        Section::Capabilities => (
            &content.capabilities[index].id,
            content.capabilities[index].doc.file,
        ),
        Section::Guides => (&None, content.guides[index].doc.file),
    };
    id.as_ref().map_or(Span::file_start(file), |id| id.span)
}
