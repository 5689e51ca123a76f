//! FN217 support-unknown-observation: a support cell cites an observation that does not
//! exist, or one of another client.

use crate::diagnostic::Severity;
use crate::lint::vocab::Vocab;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;

pub const META: RuleMeta = RuleMeta {
    code: "FN217",
    name: "support-unknown-observation",
    severity: Severity::Error,
    scope: Scope::Global, // a client's finding reads every observation
    reads: Reads::FrontMatter,
    summary: "a support cell's `observations` id that names no observation of that client",
    doc: r#"## What it flags

An entry of a support cell's `observations` with no `content/observations/<id>.md`, or one
that is an observation of another client.

## Why

The cell says it was observed; an id that leads nowhere (or to another client's session) leaves
the claim without the evidence it names.

## Example

```yaml
support:
  tools.listChanged:
    status: yes
    observations: [claude-code-2-1-328-stdio-20261201-231500]
```

Use the id of an observation of this client (its file name under `content/observations/`)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    for (c, client) in index.content.clients.iter().enumerate() {
        for id in client.support.iter().flat_map(|cell| &cell.observations) {
            match index.ids.observation(&id.value) {
                None => {
                    let fix = || {
                        format!(
                            "use the id of an observation in content/observations/ (record \
                             one with `fieldnotes probe`), or remove `{}`",
                            id.value
                        )
                    };
                    let help = match sink.may_suggest() {
                        true => Vocab::Observations.suggest(index, &id.value, fix),
                        false => fix(),
                    };
                    sink.report(
                        &META,
                        id.span,
                        format!("observation `{}` does not exist", id.value),
                        Some(help),
                    );
                }
                Some(o) if index.observations.client[o].is_some_and(|of| of != c) => {
                    let of = text(&index.content.observations[o].client);
                    sink.report(
                        &META,
                        id.span,
                        format!(
                            "observation `{}` is of client `{of}`, not of this one",
                            id.value
                        ),
                        Some("cite an observation of this client".to_string()),
                    );
                }
                Some(_) => {}
            }
        }
    }
}
