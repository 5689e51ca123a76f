//! FN208 unknown-successor: a `supersededBy` that names no research note.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN208",
    name: "unknown-successor",
    severity: Severity::Error,
    scope: Scope::Global, // reads every note's id
    reads: Reads::FrontMatter,
    summary: "a `supersededBy` id that names no research note",
    doc: r#"## What it flags

A note's `supersededBy` that is not the id of a `content/research/<id>.md`.

## Why

The superseded note's page links to its successor; an unknown id is a dead link. It often
means the successor was renamed or deleted in the same pull request.

## Example

```yaml
status: superseded
supersededBy: hermes-falls-back-to-sse
```

Use the successor's current id."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let successors = cx
        .index
        .content
        .notes
        .iter()
        .filter_map(|n| n.superseded_by.as_ref());
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Notes, "successor"),
        successors,
    );
}
