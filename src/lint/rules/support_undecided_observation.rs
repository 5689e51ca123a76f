//! FN221 support-undecided-observation: a support cell says `yes`, `no` or `partial` while
//! every observation it cites judged that capability `unknown`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, text};

pub const META: RuleMeta = RuleMeta {
    code: "FN221",
    name: "support-undecided-observation",
    severity: Severity::Warning,
    scope: Scope::Global, // a client's finding reads its observations
    reads: Reads::FrontMatter,
    summary: "a decided support cell whose cited observations all left the capability unknown",
    doc: r#"## What it flags

A support cell with `status: yes`, `no` or `partial` that cites observations, where every
one of them has a result for the cell's capability and that result is `unknown`. (An
observation with no result for the capability is not counted: a person may have read its
transcript for what no rule judges, and said so in the cell's note.)

## Why

A cited observation makes the cell's evidence "observed", with the version that ran. But
`unknown` is the probe's own word that the session does not settle the capability: a client
that did not list again after a change notice, say, looks the same as one that lists again
only when it next needs the list. The cell's claim then rests on something else, and the
page should not say it was seen.

## Example

```yaml
support:
  tools.listChanged:
    status: no
    observations: [codex-0-171-0-stdio-20261206-090512]  # its result: unknown
```

Cite the source the claim rests on and name the sessions in the note, cite an observation
that decides the capability, or make the cell `unknown` with `reason:
observation-inconclusive`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    let content = &index.content;
    for (c, client) in content.clients.iter().enumerate() {
        for cell in &client.support {
            let said = text(&cell.status);
            if !matches!(said, "yes" | "no" | "partial") || cell.observations.is_empty() {
                continue;
            }
            let Some((cap, _)) = index.ids.capability(&cell.capability.value) else {
                continue;
            };
            // Only the client's own (another client's is FN217's).
            let cited: Vec<usize> = (cell.observations.iter())
                .filter_map(|o| index.ids.observation(&o.value))
                .filter(|&o| index.observations.client[o] == Some(c))
                .collect();
            let undecided = cited.iter().all(|&o| {
                (index.observed_result(o, cap)).is_some_and(|r| text(&r.status) == "unknown")
            });
            if cited.is_empty() || !undecided {
                continue;
            }
            let ids: Vec<String> = (cited.iter())
                .map(|&o| {
                    let observation = &content.observations[o];
                    doc_id(&observation.id, &observation.doc).to_string()
                })
                .collect();
            sink.report(
                &META,
                cell.status
                    .as_ref()
                    .map_or(cell.capability.span, |s| s.span),
                format!(
                    "`{}` says `{said}`, but every observation it cites judged it `unknown` ({})",
                    cell.capability.value,
                    ids.join(", ")
                ),
                Some(
                    "cite the source the claim rests on and name these sessions in the note, \
                     cite an observation that decides it, or make the cell `unknown` with \
                     `reason: observation-inconclusive`"
                        .to_string(),
                ),
            );
        }
    }
}
