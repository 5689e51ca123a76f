//! FN014 comment-cuts-text: a prose value that a YAML comment on the same line cut short.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN014",
    name: "comment-cuts-text",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary:
        "a title, summary, notes, reason or quote cut short by a ` #` that YAML reads as a comment",
    doc: r##"## What it flags

An unquoted `title`, `summary`, `notes`, `reason` or `quote` (at any level: a source's
title, a support cell's notes) followed on the same line by ` #`. YAML ends an unquoted value
at a space followed by `#` and drops the rest of the line as a comment, so the text after it
never reaches a page, the data API or a reviewer.

## Why

In a knowledge base the lost words are evidence: "added by #11315, after the 25.07.1 release"
reads as "added by", and nothing else warns about it.

## Example

```yaml
notes: Streamable HTTP was added by #11315, after the 25.07.1 release.
```

Quote the value, so the `#` is part of it:

```yaml
notes: "Streamable HTTP was added by #11315, after the 25.07.1 release."
```

A comment meant as a comment goes on a line of its own, above the field."##,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        for cut in &doc.comment_cuts {
            sink.report(
                &META,
                cut.comment,
                format!(
                    "`{}` ends at ` #`: YAML reads the rest of the line as a comment, so the \
                     value is only \"{}\"",
                    cut.field, cut.kept
                ),
                Some(format!(
                    "put `{}` in double quotes so the `#` and what follows are part of it (or, \
                     for a real comment, move it to a line of its own)",
                    cut.field
                )),
            );
        }
    }
}
