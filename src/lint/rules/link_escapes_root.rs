//! FN605 link-escapes-root: a relative link that climbs above the site root.

use crate::diagnostic::Severity;
use crate::index::links::LinkTarget;
use crate::lint::{walk, Context, RuleMeta, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN605",
    name: "link-escapes-root",
    severity: Severity::Error,
    summary: "a relative link that climbs above the site root",
    doc: r#"## What it flags

A relative link whose `..` segments climb above the root of the site
(`../../../README.md` from `content/research/`).

## Why

Nothing above the root is published, so the link is dead on the site, even if it works when
the file is read on GitHub.

## Example

```markdown
[the guide](../../../guides/streamable-http-vs-sse.md)
```

Write a site path: `/guides/streamable-http-vs-sse.md`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (target, link) in walk::links(cx.index) {
        if *target == LinkTarget::Escapes {
            sink.report(
                &META,
                link.span,
                format!("`{}` climbs above the site root", link.dest),
                Some(
                    "write a site path such as /research/<id>.md or /guides/<slug>.md".to_string(),
                ),
            );
        }
    }
}
