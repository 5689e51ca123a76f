//! FN956 source-moved: a pinned block that moved on the default branch, as it was (`fieldnotes sources
//! drift`).

use crate::diagnostic::Severity;
use crate::lint::{report_drift, Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verdict::State;

pub const META: RuleMeta = RuleMeta {
    code: "FN956",
    name: "source-moved",
    severity: Severity::Info,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a pinned block that moved on the default branch, as it was (sources drift)",
    doc: r#"## What it flags

A pinned source whose lines `fieldnotes sources drift` found on the repository's default
branch exactly as they were pinned, but elsewhere: at other lines, in a renamed file, or in a
file they were split off or copied into. Only `fieldnotes sources drift` runs this rule.

## Why

The claim still holds, but the pin points at an old commit: readers who follow it see the
lines as they were, and the next drift check has further to go. Nothing needs reading again.

## Example

```text
src/transport.py:5-8 is now src/transport.py:8-11 on main (64a33dd)
```

Run `fieldnotes sources bump`: it re-pins the source to the branch's head (commit and path),
and touches nothing else."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    report_drift(cx, sink, &META, State::Moved, || {
        "`fieldnotes sources bump` re-pins the source to the branch's head; the lines need no \
             reading again"
            .to_string()
    });
}
