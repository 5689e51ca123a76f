//! FN801 support-unknown-capability: a client's support map, or a list's `features` map,
//! names an unknown capability.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN801",
    name: "support-unknown-capability",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a support map key that names no capability",
    doc: r#"## What it flags

A key of a client's `support` map that is neither a capability id nor one of a capability's
`aliases`.

## Why

The cell cannot be placed in the matrix, so the client's support for it is shown nowhere.

## Example

```yaml
support:
  transports.streamable-http:
    status: yes
```

Write `transports.streamableHttp`, or add the capability to `content/capabilities/`. The
capability each feature of a list of self-reports stands for (`features:` in
`content/lists/<id>.yaml`) is checked the same way."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let keys = cx
        .index
        .content
        .clients
        .iter()
        .flat_map(|c| c.support.iter().map(|cell| &cell.capability));
    let vocab = (Vocab::Capabilities, "support capability");
    vocab::check(cx.index, sink, &META, vocab, keys);
    let features = (cx.index.content.lists.iter()).flat_map(|l| l.features.iter().map(|f| &f.1));
    let vocab = (Vocab::Capabilities, "list feature's capability");
    vocab::check(cx.index, sink, &META, vocab, features);
}
