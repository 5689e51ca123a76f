//! FN005 front-matter-not-a-mapping: front matter that parses, but not as `key: value` fields.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::FrontMatterError;

pub const META: RuleMeta = RuleMeta {
    code: "FN005",
    name: "front-matter-not-a-mapping",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "front matter that is a list or a single value instead of fields",
    doc: r#"## What it flags

Front matter that is valid YAML but not a mapping of fields: a list, or one bare value.

## Why

Every field is looked up by name; a list or a string has no names, so nothing can be read.

## Example

```yaml
---
- id: a-note
- title: A note
---
```

Write each field as `name: value`, without the leading `- `."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if let Some(FrontMatterError::NotAMapping { span }) = doc.front_matter_error {
            sink.report(
                &META,
                span,
                "the front matter is not a mapping of `name: value` fields".to_string(),
                Some("write each field as `name: value` on its own line".to_string()),
            );
        }
    }
}
