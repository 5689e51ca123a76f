//! FN004 invalid-yaml: front matter (or a list of self-reports) that is not valid YAML, or
//! not in the list's shape.

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

Close the bracket, or quote the value.

A list of self-reports, `content/lists/<id>.yaml`, is checked the same way, and also for its
shape: `url`, `commit` and `path` present, each report a mapping with a `line`, each
reported feature named in the list's `features`."#,
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
    for list in &cx.index.content.lists {
        for problem in &list.problems {
            let message = format!("list {}: {}", list.id, problem.message);
            sink.report(&META, problem.span, message, Some(problem.help.clone()));
        }
    }
}
