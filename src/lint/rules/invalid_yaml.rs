//! FN004 invalid-yaml: front matter that is not valid YAML.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::FrontMatterError;

pub const META: RuleMeta = RuleMeta {
    code: "FN004",
    name: "invalid-yaml",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "front matter that is not valid YAML",
    doc: r#"## What it flags

Front matter between the `---` lines that the YAML parser rejects, at the line and column where
the parser stopped.

## Why

Nothing in a file whose front matter does not parse can be read: not its id, its sources or
its links.

## Example

```yaml
---
id: a-note
title: [unclosed
---
```

Close the bracket, or quote the value."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if let Some(FrontMatterError::Syntax { message, span }) = &doc.front_matter_error {
            sink.report(
                &META,
                *span,
                format!("front matter is not valid YAML: {message}"),
                Some(
                    "fix the YAML at this position; quote values that contain `: `, `#` or \
                     start with `[`, `{`, `*`, `&` or `@`"
                        .to_string(),
                ),
            );
        }
    }
}
