//! FN901 unknown-group: a capability's `group` that `site.yaml` does not list.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN901",
    name: "unknown-group",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a capability group that site.yaml's `capabilityGroups` does not list",
    doc: r#"## What it flags

A capability whose `group` is not the id of one of `site.yaml`'s `capabilityGroups`.

## Why

The matrix is drawn group by group; a capability in an unknown group is left out of it.

## Example

```yaml
id: transports.sse
group: transport
```

Write `group: transports`, or add the group to `site.yaml`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let capabilities = cx.index.content.capabilities.iter();
    let groups = capabilities.filter_map(|c| c.group.as_ref());
    vocab::check(cx.index, sink, &META, (Vocab::Groups, "group"), groups);
}
