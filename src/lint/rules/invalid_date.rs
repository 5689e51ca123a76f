//! FN301 invalid-date: a date field that is not a real `YYYY-MM-DD` date.

use crate::dates::parse_date;
use crate::diagnostic::Severity;
use crate::lint::walk;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN301",
    name: "invalid-date",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a date that is not written as a real YYYY-MM-DD date",
    doc: r#"## What it flags

A `lastVerified`, `last-updated` or source `date` that is not a calendar date written as
`YYYY-MM-DD`: another format, a month 13, February 30.

## Why

Dates say how fresh a claim is and order the feeds; a date that cannot be read makes the note
look unverified.

## Example

```yaml
lastVerified: 9/11/2026
```

Write `2026-11-09`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for date in walk::dates(&cx.index.content) {
        if parse_date(&date.value.value).is_none() {
            sink.report(
                &META,
                date.value.span,
                format!("`{}` is not a date: `{}`", date.field, date.value.value),
                Some("write the date as YYYY-MM-DD, e.g. 2026-11-09".to_string()),
            );
        }
    }
}
