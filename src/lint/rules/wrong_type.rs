//! FN008 wrong-type: a field whose value has the wrong shape (a list for a single value, …).

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN008",
    name: "wrong-type",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a field whose value is a list, mapping or value where another shape belongs",
    doc: r#"## What it flags

A field whose YAML value has a shape the field does not take: a single value where a list
belongs, a list where one value belongs, a plain value where a source or support cell belongs.

## Why

The value cannot be read, so the field counts as absent and the page loses it.

## Example

```yaml
clients: cline
```

Write a list:

```yaml
clients:
  - cline
```"#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        for error in &doc.type_errors {
            sink.report(
                &META,
                error.span,
                format!(
                    "`{}` should be {}, not {}",
                    error.field, error.expected, error.found
                ),
                Some(format!("write `{}` as {}", error.field, error.expected)),
            );
        }
    }
}
