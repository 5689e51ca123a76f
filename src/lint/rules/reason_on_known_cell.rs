//! FN805 reason-on-known-cell: a `reason` (why a cell is unknown) on a cell that is not unknown.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;

pub const META: RuleMeta = RuleMeta {
    code: "FN805",
    name: "reason-on-known-cell",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a support cell with a `reason` whose status is not `unknown`",
    doc: r#"## What it flags

A support cell with a `reason` whose `status` is `yes`, `partial` or `no`.

## Why

`reason` says why a cell is unknown (`not-researched`, `docs-silent`, …). On a cell that makes
a claim it contradicts the claim, and it usually means the status was changed and the reason
left behind, or a note about the evidence went into the wrong field.

## Example

```yaml
support:
  transports.sse:
    status: yes
    reason: docs-silent
    sources: [...]
```

Remove `reason` (say how in `notes`), or set `status: unknown` if the evidence does not show it."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for client in &cx.index.content.clients {
        for cell in &client.support {
            let (Some(reason), status) = (&cell.reason, text(&cell.status)) else {
                continue;
            };
            if matches!(status, "yes" | "partial" | "no") {
                sink.report(
                    &META,
                    reason.span,
                    format!(
                        "`{}` is marked `{status}` but gives a reason for being unknown (`{}`)",
                        cell.capability.value, reason.value
                    ),
                    Some(
                        "remove `reason:` (it is for unknown cells only), or set `status: \
                         unknown` if the evidence does not show the claim"
                            .to_string(),
                    ),
                );
            }
        }
    }
}
