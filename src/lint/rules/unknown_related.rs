//! FN501 unknown-related: a `related` id names no research note.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN501",
    name: "unknown-related",
    severity: Severity::Error,
    scope: Scope::Global, // reads every note's id
    reads: Reads::FrontMatter,
    summary: "a `related` id names no research note",
    doc: r#"## What it flags

An entry of a note's `related` list with no `content/research/<id>.md`.

## Why

Related notes are listed and linked on the note's page; an unknown id would be a dead link. It
often means the other note was renamed or deleted.

## Example

```yaml
related:
  - a-note-that-was-renamed
```

Use the note's current id, or remove the entry."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let related = cx.index.content.notes.iter().flat_map(|n| &n.related);
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Notes, "related note"),
        related,
    );
}
