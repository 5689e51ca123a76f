//! FN957 source-changed: a pinned block that changed on the default branch (`fieldnotes sources
//! drift`).

use crate::diagnostic::Severity;
use crate::lint::{report_drift, Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verdict::State;

pub const META: RuleMeta = RuleMeta {
    code: "FN957",
    name: "source-changed",
    severity: Severity::Warning,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a pinned block that changed on the default branch (sources drift)",
    doc: r#"## What it flags

A pinned source whose lines `fieldnotes sources drift` did not find on the repository's
default branch as they were pinned: the file (followed through renames) still exists, but the
block was edited. The finding names the closest match and how many pinned lines differ. Only
`fieldnotes sources drift` runs this rule.

## Why

The code the claim rests on changed since it was checked: the claim may no longer hold.

## Example

```text
src/errors.py:3-4 changed on main (64a33dd): closest src/errors.py:3-4, 1 of 2 lines differ
```

Read the lines as they are now; update the note, its source (`commit`, `path`) and
`lastVerified`."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    report_drift(cx, sink, &META, State::Changed, || {
        "read the lines as they are now; update the note, then its source (`commit`, `path`) and \
             `lastVerified`"
            .to_string()
    });
}
