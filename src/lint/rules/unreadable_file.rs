//! FN001 unreadable-file: a content file that cannot be read as UTF-8 text.

use crate::diagnostic::Severity;
use crate::lint::{Context, RuleMeta, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN001",
    name: "unreadable-file",
    severity: Severity::Error,
    summary: "a content file that cannot be read as UTF-8 text",
    doc: r#"## What it flags

A `.md` file under `content/` that could not be read: it is not UTF-8 text (saved as Latin-1 or
UTF-16, or binary), or the file system refused to read it.

## Why

Nothing in the file can be checked or published. Other findings in it, if any, are read from a
lossy copy and may be wrong.

## Example

A note saved by an editor as UTF-16:

```text
content/research/a-note.md: not UTF-8 text (invalid byte at offset 0)
```

Save the file as UTF-8."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for bad in &cx.index.unreadable {
        sink.report_file(
            &META,
            bad.file,
            format!("the file cannot be read: {}", bad.reason),
            Some("save the file as UTF-8 text, and check that it can be read".to_string()),
        );
    }
}
