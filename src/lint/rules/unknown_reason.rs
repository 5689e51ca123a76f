//! FN220 unknown-reason: a cell's `reason` or a client's `unknownReason` that `site.yaml`'s
//! `unknownReasons` does not list.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN220",
    name: "unknown-reason",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a reason for an unknown cell that site.yaml's `unknownReasons` does not list",
    doc: r#"## What it flags

A support cell's `reason`, or a client's `unknownReason`, that is not the id of one of
`site.yaml`'s `unknownReasons`.

## Why

Every unknown cell says why it is unknown (nobody has looked; the client is closed and its docs
are silent; the behaviour cannot be observed here), and pages and `api/matrix.json` show that
reason's title. A reason the site does not declare has no title and cannot be filtered on.

## Example

```yaml
support:
  elicitation.form:
    status: unknown
    reason: docs-silnet
```

Write `docs-silent`, or add the new reason to `site.yaml`'s `unknownReasons`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let clients = &cx.index.content.clients;
    let reasons = clients.iter().flat_map(|c| {
        (c.unknown_reason.iter()).chain(c.support.iter().filter_map(|cell| cell.reason.as_ref()))
    });
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::UnknownReasons, "reason"),
        reasons,
    );
}
