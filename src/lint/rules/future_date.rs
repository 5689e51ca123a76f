//! FN302 future-date: a date after today.

use crate::dates::parse_date;
use crate::diagnostic::Severity;
use crate::lint::walk;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN302",
    name: "future-date",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a verification, update or source date after today",
    doc: r#"## What it flags

A `lastVerified`, `last-updated` or source `date` later than today. Today is `--today`, else
the day of `SOURCE_DATE_EPOCH`, else the system clock's.

## Why

Nobody verified a claim tomorrow: a future date is a typo (a wrong year or month), and it would
keep the note from ever looking stale.

## Example

```yaml
lastVerified: 2027-11-09
```

Write the day the sources were read."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for date in walk::dates(&cx.index.content) {
        let Some(day) = parse_date(&date.value.value) else {
            continue;
        };
        if day > cx.today {
            sink.report(
                &META,
                date.value.span,
                format!(
                    "`{}` {day} is in the future (today is {})",
                    date.field, cx.today
                ),
                Some("write the day it happened; check the year and the month".to_string()),
            );
        }
    }
}
