//! FN201 unknown-kind: a note `kind` that `site.yaml` does not list.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN201",
    name: "unknown-kind",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note kind that site.yaml's `kinds` does not list",
    doc: r#"## What it flags

A research note whose `kind` is not the id of one of `site.yaml`'s `kinds`.

## Why

Kinds label notes and group them on index pages; an unknown kind has no title or description
and lands in no group.

## Example

```yaml
kind: idiosyncracy
```

Write `idiosyncrasy`, or add the new kind to `site.yaml`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let kinds = cx
        .index
        .content
        .notes
        .iter()
        .filter_map(|n| n.kind.as_ref());
    vocab::check(cx.index, sink, &META, (Vocab::Kinds, "kind"), kinds);
}
