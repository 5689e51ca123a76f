//! FN202 unknown-status: a note `status` other than current, superseded, retracted, draft.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN202",
    name: "unknown-status",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note status other than current, superseded, retracted or draft",
    doc: r#"## What it flags

A research note whose `status` is not `current`, `superseded`, `retracted` or `draft`.

## Why

The status decides how a note is shown (a superseded note points to its successor, a retracted
one is marked as such, a draft is left out of the matrix); any other word means none of these.

## Example

```yaml
status: outdated
```

Write `superseded` and add `supersededBy`, or `retracted`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let statuses = cx
        .index
        .content
        .notes
        .iter()
        .filter_map(|n| n.status.as_ref());
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::NoteStatuses, "status"),
        statuses,
    );
}
