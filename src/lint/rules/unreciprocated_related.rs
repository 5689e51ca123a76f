//! FN504 unreciprocated-related: A lists B as related, but B does not list A.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::doc_id;

pub const META: RuleMeta = RuleMeta {
    code: "FN504",
    name: "unreciprocated-related",
    severity: Severity::Info,
    scope: Scope::Global, // reads the related notes' own lists
    reads: Reads::FrontMatter,
    summary: "a related note that does not list this note back",
    doc: r#"## What it flags

An entry of note A's `related` list naming note B, when B's `related` does not name A.

## Why

Relations are usually mutual: a reader of B would want to find A too. This is a hint, not an
error; some relations only make sense one way.

## Example

`hermes-defaults-a-url-server-to-streamable-http` lists `cline-defaults-a-url-server-to-sse`,
whose `related` does not list it back.

Add the id of A to B's `related`, or turn the rule off in `site.yaml` if one-way relations are
intended."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    let notes = &index.content.notes;
    for (a, note) in notes.iter().enumerate() {
        for related in &note.related {
            let Some(b) = index.ids.note(&related.value).filter(|&b| b != a) else {
                continue;
            };
            if index.related[b].contains(&a) {
                continue;
            }
            let own = doc_id(&note.id, &note.doc);
            sink.report(
                &META,
                related.span,
                format!("`{}` does not list this note as related", related.value),
                Some(format!(
                    "add `{own}` to the `related` list of {}",
                    index.files[notes[b].doc.file].display_path()
                )),
            );
        }
    }
}
