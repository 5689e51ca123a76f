//! FN206 capability-alias: a capability named by one of its aliases instead of its id.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, Spanned};

pub const META: RuleMeta = RuleMeta {
    code: "FN206",
    name: "capability-alias",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a capability named by an alias instead of its id",
    doc: r#"## What it flags

An entry of a note's `capabilities`, or a key of a client's `support` map, that is one of a
capability's `aliases` (another spelling seen in the wild) rather than its id.

## Why

Aliases are accepted so that data taken in from elsewhere works at once, but the id is what
pages, links and search use; mixing spellings makes notes hard to find.

## Example

```yaml
capabilities:
  - transport.streamable_http
```

Write `transports.streamableHttp`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    let notes = content.notes.iter().flat_map(|n| n.capabilities.iter());
    let cells = content
        .clients
        .iter()
        .flat_map(|c| c.support.iter().map(|cell| &cell.capability));
    report_aliases(cx, sink, &META, notes.chain(cells));
}

/// Reports, under `meta`, each of `names` that is a capability's alias instead of its id
/// (this rule for notes and cells, FN213 for observations' results).
pub(crate) fn report_aliases<'a>(
    cx: &Context<'_>,
    sink: &mut Sink<'_>,
    meta: &'static RuleMeta,
    names: impl Iterator<Item = &'a Spanned<String>>,
) {
    for name in names {
        if let Some((i, true)) = cx.index.ids.capability(&name.value) {
            let capability = &cx.index.content.capabilities[i];
            let id = doc_id(&capability.id, &capability.doc);
            sink.report(
                meta,
                name.span,
                format!("`{}` is an alias of capability `{id}`", name.value),
                Some(format!("write the capability's id, `{id}`")),
            );
        }
    }
}
