//! FN603 unsafe-link-scheme: a `javascript:`, `data:` or `vbscript:` link in a body.

use crate::diagnostic::Severity;
use crate::index::links::LinkTarget;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN603",
    name: "unsafe-link-scheme",
    severity: Severity::Error,
    scope: Scope::NoteLocal, // what it flags resolves without reading ids
    reads: Reads::Body,
    summary: "a link or image with a javascript:, data: or vbscript: URL",
    doc: r#"## What it flags

A link or image in a body whose URL uses the `javascript:`, `data:` or `vbscript:` scheme (in
any case, with or without spaces inside).

## Why

Such links run code or smuggle content in the reader's browser; a knowledge base has no use for
them, and a pull request that adds one needs a close look.

## Example

```markdown
[click](javascript:alert(1))
```

Link to an https:// URL or a page of the site."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (target, link) in walk::links(cx.index) {
        if let LinkTarget::Unsafe { scheme } = target {
            sink.report(
                &META,
                link.span,
                format!("link uses the unsafe `{scheme}:` scheme"),
                Some("link to an https:// URL or to a page of the site".to_string()),
            );
        }
    }
}
