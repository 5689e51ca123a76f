//! FN802 support-invalid-status: a support cell status other than yes, partial, no, unknown.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN802",
    name: "support-invalid-status",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a support cell status other than yes, partial, no or unknown",
    doc: r#"## What it flags

A support cell whose `status` is not `yes`, `partial`, `no` or `unknown`.

## Why

The matrix shows one of those four; any other word is shown as `unknown`, hiding what the
author meant.

## Example

```yaml
support:
  transports.sse:
    status: supported
```

Write `status: yes`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let cells = cx.index.content.clients.iter().flat_map(|c| &c.support);
    let statuses = cells.filter_map(|cell| cell.status.as_ref());
    let vocab = (Vocab::SupportStatuses, "support status");
    vocab::check(cx.index, sink, &META, vocab, statuses);
}
