//! FN503 duplicate-related: the same id twice in one `related` list.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use std::collections::HashSet;

pub const META: RuleMeta = RuleMeta {
    code: "FN503",
    name: "duplicate-related",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an id listed more than once in `related`",
    doc: r#"## What it flags

An entry of a note's `related` list that repeats an earlier entry.

## Why

The page would list the same note twice. A repeat is often a slip where another id was meant.

## Example

```yaml
related:
  - cline-defaults-a-url-server-to-sse
  - cline-defaults-a-url-server-to-sse
```

Remove the repeat."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for note in &cx.index.content.notes {
        let mut seen = HashSet::new();
        for related in &note.related {
            if !seen.insert(related.value.as_str()) {
                sink.report(
                    &META,
                    related.span,
                    format!("`{}` is already listed as related", related.value),
                    Some("remove the repeated entry".to_string()),
                );
            }
        }
    }
}
