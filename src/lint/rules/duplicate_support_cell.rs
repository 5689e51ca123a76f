//! FN209 duplicate-support-cell: two cells of a client's support map for one capability (its id
//! and an alias, or two aliases).

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, Client};
use std::collections::BTreeMap;

pub const META: RuleMeta = RuleMeta {
    code: "FN209",
    name: "duplicate-support-cell",
    severity: Severity::Error,
    scope: Scope::NoteLocal, // reads a client and the capabilities' ids only
    reads: Reads::FrontMatter,
    summary: "two support cells of a client for one capability (its id and an alias)",
    doc: r#"## What it flags

Two or more keys of a client's `support` map that name the same capability: its id and one of
its `aliases`, or two of its aliases. Each is reported, naming the line of another.

## Why

The matrix has one cell per client and capability, so it can show only one of them; the other
is checked by lint but shown nowhere, and which one the site shows depends on the order they
are written in. A pull request could flip a client's support that way while its diff shows a
new cell that looks right.

## Example

```yaml
support:
  transports.sse:
    status: yes
  transport.sse:
    status: no
```

Keep one cell, under the capability's id, and merge what the other says into it."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for client in &cx.index.content.clients {
        for (capability, cells) in same_capability(cx, client) {
            if cells.len() > 1 {
                report(cx, sink, client, capability, &cells);
            }
        }
    }
}

/// The client's cells by the capability they name (unknown capabilities left out).
fn same_capability(cx: &Context<'_>, client: &Client) -> BTreeMap<usize, Vec<usize>> {
    let mut by_capability: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (n, cell) in client.support.iter().enumerate() {
        if let Some((capability, _)) = cx.index.ids.capability(&cell.capability.value) {
            by_capability.entry(capability).or_default().push(n);
        }
    }
    by_capability
}

/// Reports each of `cells` (two or more, for `capability`), naming another: the first for the
/// rest, the second for the first.
fn report(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    client: &Client,
    capability: usize,
    cells: &[usize],
) {
    let key = |n: usize| &client.support[n].capability;
    let capability = &cx.index.content.capabilities[capability];
    let id = doc_id(&capability.id, &capability.doc);
    let file = &cx.index.files[client.doc.file];
    for (k, &cell) in cells.iter().enumerate() {
        let other = key(if k == 0 { cells[1] } else { cells[0] });
        let line = file.line_of(other.span.start);
        sink.report(
            &META,
            key(cell).span,
            format!(
                "support cell `{}` and the cell `{}` at line {line} are both for capability \
                 `{id}`; the matrix can show only one of them",
                key(cell).value,
                other.value
            ),
            Some(format!(
                "keep one cell, under `{id}`, and merge what the other says into it"
            )),
        );
    }
}
