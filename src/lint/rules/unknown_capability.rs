//! FN204 unknown-capability: a note names a capability that is neither an id nor an alias.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN204",
    name: "unknown-capability",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note names a capability that has no file in content/capabilities/",
    doc: r#"## What it flags

An entry of a note's `capabilities` list that is neither the id of a
`content/capabilities/<id>.md` nor one of a capability's `aliases`.

## Why

The note would be missing from the capability's page and from the matrix cells that cite it.

## Example

```yaml
capabilities:
  - transports.streamableHTTP
```

Write `transports.streamableHttp`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let capabilities = cx.index.content.notes.iter().flat_map(|n| &n.capabilities);
    let vocab = (Vocab::Capabilities, "capability");
    vocab::check(cx.index, sink, &META, vocab, capabilities);
}
