//! FN212 observation-unknown-capability: an observation's result for a capability the site
//! does not have.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN212",
    name: "observation-unknown-capability",
    severity: Severity::Error,
    scope: Scope::Global, // reads every capability's id and aliases
    reads: Reads::FrontMatter,
    summary: "a key of an observation's `results` that names no capability",
    doc: r#"## What it flags

A key of an observation's `results` that is neither the id nor an alias of a capability in
`content/capabilities/`.

## Why

A result is evidence about one capability; under an id the site does not know, no page shows
it and no support cell can be checked against it.

## Example

```yaml
results:
  tool.list:
    status: yes
```

Use the capability's id (`tools.list`), or add the capability."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let observations = cx.index.content.observations.iter();
    let keys = observations.flat_map(|o| o.results.iter().map(|r| &r.capability));
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Capabilities, "capability"),
        keys,
    );
}
