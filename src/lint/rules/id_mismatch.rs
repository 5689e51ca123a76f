//! FN102 id-mismatch: an `id` that is not the file's name.

use crate::diagnostic::Severity;
use crate::lint::walk::{self, Common};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN102",
    name: "id-mismatch",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "an id that differs from the file name",
    doc: r#"## What it flags

A note, client or capability whose `id` is not its file name without `.md`.

## Why

Links are written with the id (`/research/<id>.md`) and read on GitHub by file name; when the
two differ, one of them is a dead link. It is also how a half-done rename shows.

## Example

`content/research/cline-defaults-to-sse.md` with

```yaml
id: cline-defaults-a-url-server-to-sse
```

Rename the file to the id, or change the id to the file name."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (doc, id) in walk::common(&cx.index.content, Common::Id) {
        if id.value != doc.stem {
            sink.report(
                &META,
                id.span,
                format!(
                    "id `{}` differs from the file name `{}.md`",
                    id.value, doc.stem
                ),
                Some(format!(
                    "rename the file to `{}.md`, or change the id to `{}`",
                    id.value, doc.stem
                )),
            );
        }
    }
}
