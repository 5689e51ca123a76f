//! FN804 support-unknown-research: a support cell cites a research note that does not exist.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN804",
    name: "support-unknown-research",
    severity: Severity::Error,
    scope: Scope::Global, // a client's finding reads every note's id
    reads: Reads::FrontMatter,
    summary: "a support cell's `research` id that names no research note",
    doc: r#"## What it flags

An entry of a support cell's `research` list with no `content/research/<id>.md`.

## Why

The cell links to its evidence; an unknown id is a dead link, and the cell may be left with no
evidence at all. It often means the note was renamed or deleted.

## Example

```yaml
support:
  transports.sse:
    status: yes
    research:
      - cline-defaults-to-sse
```

Use the note's current id."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let cells = cx.index.content.clients.iter().flat_map(|c| &c.support);
    let notes = cells.flat_map(|cell| &cell.research);
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Notes, "research note"),
        notes,
    );
}
