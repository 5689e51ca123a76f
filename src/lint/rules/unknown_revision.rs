//! FN902 unknown-revision: a capability's introduced, deprecated or removed revision that
//! `site.yaml` does not list.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN902",
    name: "unknown-revision",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary:
        "a capability's introduced, deprecated or removed revision that is not a spec revision",
    doc: r#"## What it flags

A capability whose `introduced`, `deprecated` or `removed` is not the id of one of
`site.yaml`'s `specVersions`.

## Why

Capability pages and spec revision pages link to each other through these fields; an unknown
revision has no page, and the capability's history reads wrong.

## Example

```yaml
introduced: 2025-03-28
```

Write `2025-03-26`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for capability in &cx.index.content.capabilities {
        for (field, revision) in revisions(capability) {
            let role = format!("`{field}` revision");
            vocab::check(
                cx.index,
                sink,
                &META,
                (Vocab::SpecVersions, &role),
                [revision],
            );
        }
    }
}

/// A capability's `introduced`, `deprecated` and `removed`, in that order, where given.
pub fn revisions(
    capability: &crate::model::Capability,
) -> impl Iterator<Item = (&'static str, &crate::model::Spanned<String>)> {
    [
        ("introduced", &capability.introduced),
        ("deprecated", &capability.deprecated),
        ("removed", &capability.removed),
    ]
    .into_iter()
    .filter_map(|(field, value)| value.as_ref().map(|v| (field, v)))
}
