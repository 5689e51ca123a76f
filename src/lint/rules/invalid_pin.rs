//! FN406 invalid-pin: a source's `pin` other than `fixed`, or `pin: fixed` with no commit to
//! keep.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{text, PIN_FIXED};

pub const META: RuleMeta = RuleMeta {
    code: "FN406",
    name: "invalid-pin",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a source's `pin` other than `fixed`, or `pin: fixed` on a source with no commit",
    doc: r#"## What it flags

A source whose `pin` is not `fixed`, or that says `pin: fixed` and names no commit (neither
`commit` nor a `…/blob/<commit>/…` URL).

## Why

`pin: fixed` says that the commit is the point of the source (the commit that made a change,
say): `sources bump` leaves it at that commit, and `sources drift` shows where its lines went
without queueing it for a person or a bump. Any other word would be read as no `pin` at all,
and the source would be bumped; a source with no commit has nothing to keep.

## Example

```yaml
sources:
  - url: https://github.com/acme/widget
    commit: 3f4e5d6
    path: src/transport.py:10-40
    pin: keep
```

Write `pin: fixed`, or leave `pin` out to let `sources bump` re-pin the source."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let Some(pin) = &source.pin else {
            continue;
        };
        if pin.value != PIN_FIXED {
            sink.report(
                &META,
                pin.span,
                format!("`pin: {}` is not a pin fieldnotes knows", pin.value),
                Some(format!(
                    "write `pin: {PIN_FIXED}` (the commit is the point of the source), or \
                     remove `pin`"
                )),
            );
        } else if source.commit.is_none() && source.url_pin.is_none() {
            sink.report(
                &META,
                pin.span,
                format!(
                    "`pin: {PIN_FIXED}` on a source with no commit (`{}`)",
                    text(&source.url)
                ),
                Some(
                    "add `commit:` with the hash the source is about, or remove `pin`".to_string(),
                ),
            );
        }
    }
}
