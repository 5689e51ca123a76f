//! FN207 superseded-without-successor: a superseded note that does not say what replaces it.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN207",
    name: "superseded-without-successor",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note with `status: superseded` and no `supersededBy`",
    doc: r#"## What it flags

A research note whose `status` is `superseded` but which has no `supersededBy` naming the note
that replaces it.

## Why

A superseded note's page sends readers to its successor; without one they are left with an
outdated claim and nowhere to go.

## Example

```yaml
status: superseded
```

Add `supersededBy: <id of the newer note>`, or mark the note `retracted` if nothing replaces
it."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for note in &cx.index.content.notes {
        let Some(status) = &note.status else {
            continue;
        };
        if status.value == "superseded" && note.superseded_by.is_none() {
            sink.report(
                &META,
                status.span,
                "the note is superseded but does not say by which note".to_string(),
                Some(
                    "add `supersededBy: <id of the note that replaces it>`, or use `status: \
                     retracted`"
                        .to_string(),
                ),
            );
        }
    }
}
