//! FN304 stale-verification: a note or support cell not verified for too long.

use crate::dates::parse_date;
use crate::diagnostic::Severity;
use crate::lint::walk;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN304",
    name: "stale-verification",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a note or support cell last verified longer ago than lint.staleAfterDays",
    doc: r#"## What it flags

A research note or support cell whose `lastVerified` is more than `site.yaml`'s
`lint.staleAfterDays` (180 unless set) before today. Superseded and retracted notes are left
alone.

## Why

Clients change every week; a claim nobody has re-read for half a year may no longer hold, and
readers should be told to check.

## Example

```yaml
lastVerified: 2025-01-10
```

Re-read the sources (at their latest commit), update the note if needed, and set
`lastVerified` to today."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let limit = i64::from(cx.index.config.lint.stale_after_days);
    for list in walk::source_lists(&cx.index.content) {
        let Some(verified) = list.last_verified.filter(|_| !list.retired) else {
            continue;
        };
        let Some(day) = parse_date(&verified.value) else {
            continue;
        };
        let age = (cx.today - day).num_days();
        if age > limit {
            sink.report(
                &META,
                verified.span,
                format!(
                    "the {} was last verified {age} days ago (lint.staleAfterDays is {limit})",
                    list.holder()
                ),
                Some(
                    "re-read the sources, update the claim if it changed, and set lastVerified \
                     to the day you did"
                        .to_string(),
                ),
            );
        }
    }
}
