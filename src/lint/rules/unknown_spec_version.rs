//! FN205 unknown-spec-version: a note names a spec revision `site.yaml` does not list.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN205",
    name: "unknown-spec-version",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note names a spec revision that site.yaml's `specVersions` does not list",
    doc: r#"## What it flags

An entry of a note's `specVersions` that is not the id of one of `site.yaml`'s `specVersions`.

## Why

Notes are listed on the page of each revision they apply to; an unknown revision has no page,
and is often a typo of a real one.

## Example

```yaml
specVersions:
  - 2025-03-28
```

Write `2025-03-26`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let versions = cx.index.content.notes.iter().flat_map(|n| &n.spec_versions);
    let vocab = (Vocab::SpecVersions, "spec revision");
    vocab::check(cx.index, sink, &META, vocab, versions);
}
