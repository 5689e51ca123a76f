//! FN010 front-matter-too-large: front matter larger than `limits.maxFrontMatterBytes`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::FrontMatterError;

pub const META: RuleMeta = RuleMeta {
    code: "FN010",
    name: "front-matter-too-large",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "front matter larger than limits.maxFrontMatterBytes (256 KiB unless site.yaml says)",
    doc: r#"## What it flags

A front matter block (between the `---` lines) larger than `limits.maxFrontMatterBytes` in
`site.yaml` (256 KiB unless it says otherwise). The block is not parsed, so nothing in it is
checked.

## Why

Front matter holds ids, titles and sources: a few kilobytes. A block of megabytes is a mistake
(a body pasted above the closing `---`) or an attack on the YAML parser; capping it keeps lint
fast and its memory small.

## Example

```markdown
---
id: a-note
title: …
(300 KiB of pasted data)
---
```

Move long text into the body, below the closing `---`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if let Some(FrontMatterError::TooLarge { span, bytes, limit }) = doc.front_matter_error {
            sink.report(
                &META,
                span,
                format!(
                    "the front matter has {bytes} bytes, more than the {limit} of \
                     limits.maxFrontMatterBytes; it was not read"
                ),
                Some(
                    "move long text into the body, below the closing `---` (or raise \
                     limits.maxFrontMatterBytes in site.yaml)"
                        .to_string(),
                ),
            );
        }
    }
}
