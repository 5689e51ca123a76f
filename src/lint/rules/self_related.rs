//! FN502 self-related: a note that lists itself in `related`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::doc_id;

pub const META: RuleMeta = RuleMeta {
    code: "FN502",
    name: "self-related",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note that lists its own id in `related`",
    doc: r#"## What it flags

An entry of a note's `related` list that is the note's own id.

## Why

A note is not related to itself; the entry adds a link from the page to the same page. It is
usually a copy-paste slip where another note's id was meant.

## Example

In `content/research/cline-defaults-a-url-server-to-sse.md`:

```yaml
related:
  - cline-defaults-a-url-server-to-sse
```

Remove the entry, or name the note that was meant."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for note in &cx.index.content.notes {
        let own = doc_id(&note.id, &note.doc);
        for related in note.related.iter().filter(|r| r.value == own) {
            sink.report(
                &META,
                related.span,
                format!("the note lists itself (`{own}`) as related"),
                Some("remove the entry, or name the note that was meant".to_string()),
            );
        }
    }
}
