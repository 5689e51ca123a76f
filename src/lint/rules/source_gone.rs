//! FN958 source-gone: a pinned block whose file was deleted on the default branch (`fieldnotes sources
//! drift`).

use crate::diagnostic::Severity;
use crate::lint::{report_drift, Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verdict::State;

pub const META: RuleMeta = RuleMeta {
    code: "FN958",
    name: "source-gone",
    severity: Severity::Warning,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a pinned block whose file was deleted on the default branch (sources drift)",
    doc: r#"## What it flags

A pinned source whose file `fieldnotes sources drift` followed to a commit of the default
branch that deleted it, with the pinned lines in no other file that commit added or changed.
Only `fieldnotes sources drift` runs this rule.

## Why

What the claim rests on is gone from the project's main line: the behaviour may have moved
elsewhere in another form, or been removed.

## Example

```text
docs/old.md:3 is gone from main: deleted in 64a33dd
```

Find where the behaviour lives now, or whether it is gone; update or retract the note."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    report_drift(cx, sink, &META, State::Gone, || {
        "find where the behaviour lives now (or whether it is gone); update or retract the note"
            .to_string()
    });
}
