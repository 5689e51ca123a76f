//! FN303 source-after-verification: a source dated after the note or cell was last verified.

use crate::dates::parse_date;
use crate::diagnostic::Severity;
use crate::lint::walk;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN303",
    name: "source-after-verification",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a source dated after the note's or cell's lastVerified",
    doc: r#"## What it flags

A source whose `date` is later than the `lastVerified` of the note or support cell that cites
it.

## Why

`lastVerified` is when the sources were last read; a source that did not exist yet cannot have
been read then. Usually a new source was added without updating `lastVerified`.

## Example

```yaml
sources:
  - url: https://github.com/NousResearch/hermes-agent
    commit: 9dcf7714
    date: 2026-11-09
lastVerified: 2026-08-27
```

Set `lastVerified` to the day you read the newest source."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for list in walk::source_lists(&cx.index.content) {
        let Some(verified) = list
            .last_verified
            .and_then(|v| parse_date(&v.value).map(|d| (v, d)))
        else {
            continue;
        };
        for source in list.sources {
            let Some(date) = source.date.as_ref() else {
                continue;
            };
            if parse_date(&date.value).is_some_and(|d| d > verified.1) {
                sink.report(
                    &META,
                    date.span,
                    format!(
                        "source dated {} is newer than the {}'s lastVerified {}",
                        date.value,
                        list.holder(),
                        verified.0.value
                    ),
                    Some(format!(
                        "set lastVerified to the day you read this source (on or after {})",
                        date.value
                    )),
                );
            }
        }
    }
}
