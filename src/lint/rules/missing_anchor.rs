//! FN602 missing-anchor: a link to a `#anchor` the target page does not have.

use crate::diagnostic::Severity;
use crate::index::links::LinkTarget;
use crate::lint::{suggest, walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN602",
    name: "missing-anchor",
    severity: Severity::Error,
    scope: Scope::Global, // reads the linked note's headings
    reads: Reads::Body,
    summary: "a link to an anchor that the target page does not have",
    doc: r#"## What it flags

A body link with a `#anchor` (`/research/<id>.md#sources`, or `#anchor` alone for the same
page) where the page has no heading with that anchor, and the page's template adds no section
with it. Anchors are made from headings GitHub's way: lowercase, spaces to `-`, punctuation
dropped, repeats numbered (`intro`, `intro-1`).

## Why

The link opens the page at the top instead of the section it meant; often a heading was
renamed in another file.

## Example

```markdown
See [the fallback](/research/hermes-defaults-a-url-server-to-streamable-http.md#fallback).
```

Link to an existing heading's anchor, or drop the `#…`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (target, link) in walk::links(cx.index) {
        let LinkTarget::Page {
            page,
            anchor: Some(anchor),
        } = target
        else {
            continue;
        };
        if anchor.is_empty() {
            continue;
        }
        let anchors = cx.index.anchors(*page);
        if anchors.contains(&anchor.as_str()) {
            continue;
        }
        let help = suggest::did_you_mean(anchor, anchors.iter().copied(), || {
            format!(
                "link to one of the page's anchors ({}), or remove `#{anchor}`",
                anchors.join(", ")
            )
        });
        sink.report(
            &META,
            link.span,
            format!("`#{anchor}` is not an anchor of {}", cx.index.route(*page)),
            Some(help),
        );
    }
}
