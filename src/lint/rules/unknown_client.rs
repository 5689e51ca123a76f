//! FN203 unknown-client: a note, or a list of self-reports, names a client the site does not
//! have.

use crate::diagnostic::Severity;
use crate::lint::vocab::{self, Vocab};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN203",
    name: "unknown-client",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note names a client that has no file in content/clients/",
    doc: r#"## What it flags

An entry of a note's `clients` list with no `content/clients/<id>.md`.

## Why

The note would be missing from the client's page, and the link from the note's page would lead
nowhere.

## Example

```yaml
clients:
  - clinee
```

Fix the spelling (`cline`), or add the client's file. A key of a list's `reports`
(`content/lists/<id>.yaml`) is checked the same way: a self-report of a client the site does
not have is shown nowhere."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    let clients = content.notes.iter().flat_map(|n| &n.clients);
    vocab::check(cx.index, sink, &META, (Vocab::Clients, "client"), clients);
    // A report per feature: each client key once.
    let mut seen = std::collections::HashSet::new();
    let reported = (content.reports.iter())
        .map(|r| &r.client)
        .filter(|c| seen.insert((c.span.file, c.span.start)));
    vocab::check(
        cx.index,
        sink,
        &META,
        (Vocab::Clients, "reported client"),
        reported,
    );
}
