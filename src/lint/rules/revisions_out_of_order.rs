//! FN903 revisions-out-of-order: a capability deprecated or removed before it was introduced.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::Spanned;

pub const META: RuleMeta = RuleMeta {
    code: "FN903",
    name: "revisions-out-of-order",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a capability's revisions out of order (deprecated before introduced, …)",
    doc: r#"## What it flags

A capability whose `introduced`, `deprecated` and `removed` revisions are not in that order in
`site.yaml`'s `specVersions`: deprecated before it was introduced, removed before it was
introduced or deprecated.

## Why

A capability's history is shown as a timeline on its page and on each revision's page; out of
order, it says something impossible. Usually two fields were swapped.

## Example

```yaml
introduced: 2025-03-26
deprecated: 2024-11-05
```

Swap the values, or fix the one that is wrong."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let config = &cx.index.config;
    for capability in &cx.index.content.capabilities {
        let mut latest = None;
        for (field, value) in super::unknown_revision::revisions(capability) {
            let Some(rank) = config.spec_version_rank(&value.value) else {
                continue;
            };
            match latest {
                Some((before, earlier, max)) if rank < max => {
                    report(sink, (before, earlier), (field, value))
                }
                _ => latest = Some((field, value, rank)),
            }
        }
    }
}

fn report(
    sink: &mut Sink<'_>,
    (before, earlier): (&str, &Spanned<String>),
    (after, later): (&str, &Spanned<String>),
) {
    sink.report(
        &META,
        later.span,
        format!(
            "`{after}` ({}) is an earlier revision than `{before}` ({})",
            later.value, earlier.value
        ),
        Some(format!(
            "`{after}` cannot come before `{before}`; swap them or fix the wrong one"
        )),
    );
}
