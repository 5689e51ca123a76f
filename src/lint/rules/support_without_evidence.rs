//! FN803 support-without-evidence: a support cell that says yes, partial or no with no source
//! or note behind it.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;

pub const META: RuleMeta = RuleMeta {
    code: "FN803",
    name: "support-without-evidence",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a support cell with a status but no sources, research notes or observations",
    doc: r#"## What it flags

A support cell whose `status` is `yes`, `partial` or `no` but which has no `sources`, no
`research` (ids of notes that give the evidence) and no `observations` (ids of observations of
the client).

## Why

Every claim on the site is checkable; a matrix cell without evidence is an unchecked claim.
`unknown` needs no evidence.

## Example

```yaml
support:
  transports.sse:
    status: yes
```

Add `research: [<note id>]` or `sources:` with a pinned source, or set `status: unknown`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for client in &cx.index.content.clients {
        for cell in &client.support {
            let status = text(&cell.status);
            let claims = matches!(status, "yes" | "partial" | "no");
            let cited = !(cell.sources.is_empty()
                && cell.research.is_empty()
                && cell.observations.is_empty());
            if claims && !cited {
                sink.report(
                    &META,
                    cell.capability.span,
                    format!(
                        "`{}` is marked `{status}` with no evidence",
                        cell.capability.value
                    ),
                    Some(
                        "add `research:` (ids of notes), `sources:` or `observations:` (ids of \
                         observations) that show it, or set `status: unknown`"
                            .to_string(),
                    ),
                );
            }
        }
    }
}
