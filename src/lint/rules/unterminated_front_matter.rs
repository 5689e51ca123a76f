//! FN003 unterminated-front-matter: an opening `---` with no closing one.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::FrontMatterError;

pub const META: RuleMeta = RuleMeta {
    code: "FN003",
    name: "unterminated-front-matter",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::Body,
    summary: "front matter opened with `---` and never closed",
    doc: r#"## What it flags

A file that opens with `---` but has no second `---` (or `...`) line to end the front matter.

## Why

Without the closing line the whole file would be read as YAML, and the body would be lost.

## Example

```markdown
---
id: a-note
title: A note

The body starts here.
```

Add a `---` line after the last field."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if let Some(FrontMatterError::Unterminated { span }) = doc.front_matter_error {
            sink.report(
                &META,
                span,
                "the front matter is never closed".to_string(),
                Some("add a `---` line after the last front matter field".to_string()),
            );
        }
    }
}
