//! FN701 canonical-mismatch: a note's `canonical` that is not the URL the site gives it.

use crate::diagnostic::Severity;
use crate::index::routes::Page;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN701",
    name: "canonical-mismatch",
    severity: Severity::Error,
    scope: Scope::NoteLocal, // the note's own id and site.yaml's baseUrl
    reads: Reads::FrontMatter,
    summary: "a note's canonical URL that differs from its computed URL",
    doc: r#"## What it flags

A research note whose optional `canonical` is not `site.yaml`'s `baseUrl` followed by
`/research/<id>`.

## Why

Search engines and agents take the canonical URL as the note's address; a wrong one sends them
to another page or a 404. It usually means the note was renamed, or `baseUrl` changed.

## Example

```yaml
id: hermes-defaults-a-url-server-to-streamable-http
canonical: https://canimcp.io/research/hermes-defaults-to-http
```

Write `https://canimcp.io/research/hermes-defaults-a-url-server-to-streamable-http`, or remove
the field (the page gets the right one either way)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (i, note) in cx.index.content.notes.iter().enumerate() {
        let Some(canonical) = &note.canonical else {
            continue;
        };
        let expected = cx.index.canonical_url(Page::Note(i));
        if canonical.value != expected {
            sink.report(
                &META,
                canonical.span,
                format!("canonical URL `{}` is not the note's URL", canonical.value),
                Some(format!(
                    "write `canonical: {expected}`, or remove the field"
                )),
            );
        }
    }
}
