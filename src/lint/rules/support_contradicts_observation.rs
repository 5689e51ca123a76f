//! FN218 support-contradicts-observation: a support cell says `no` where an observation of
//! the client saw it (`yes` or `partial`), or `yes` where one saw it refused (`no`).

use crate::diagnostic::Severity;
use crate::index::observations::compare_versions;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::text;
use std::cmp::Ordering;

pub const META: RuleMeta = RuleMeta {
    code: "FN218",
    name: "support-contradicts-observation",
    severity: Severity::Error,
    scope: Scope::Global, // a client's finding reads its observations
    reads: Reads::FrontMatter,
    summary: "a support cell whose status an observation of the client contradicts",
    doc: r#"## What it flags

A support cell marked `no` for a capability that an observation of the same client shows as
`yes` or `partial`; or marked `yes` where an observation shows `no` (an observation of a
version older than the cell's `version`, the first that shipped it, does not count, nor does a
`no-session` observation, which shows only that the client did not fall back from a refused
request). The version compared is the observation's `package.version` when it names its
package, else its `clientInfo.version`.

## Why

An observation is what the shipped client was seen doing, line by line in its transcript;
a cell that says otherwise is wrong, or the client changed and the cell needs a `version`.

## Example

```yaml
support:
  tools.listChanged:
    status: no
```

while `content/observations/<id>.md` has `tools.listChanged: {status: yes, messages: [9, 10]}`.
Read the transcript lines, then fix the cell (and cite the observation)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    let content = &index.content;
    for (c, client) in content.clients.iter().enumerate() {
        for cell in &client.support {
            let said = text(&cell.status);
            if !matches!(said, "yes" | "no") {
                continue;
            }
            let Some((cap, _)) = index.ids.capability(&cell.capability.value) else {
                continue;
            };
            for &o in &index.observations.by_client[c] {
                let observation = &content.observations[o];
                let Some(result) = index.observed_result(o, cap) else {
                    continue;
                };
                let seen = text(&result.status);
                // A client refused at a URL that began no session shows only that it did not
                // fall back there: that says nothing against a `yes` it earns configured.
                let contradicts = match said {
                    "no" => matches!(seen, "yes" | "partial"),
                    _ => {
                        seen == "no"
                            && !observation.is_no_session()
                            && !older_than(observation.client_version(), text(&cell.version))
                    }
                };
                if !contradicts {
                    continue;
                }
                let obs_file = index.files[observation.doc.file].display_path();
                let cell_file = index.files[client.doc.file].display_path();
                let transcript = text(&observation.transcript);
                let lines = match result.messages.as_slice() {
                    [] => "no transcript line cited".to_string(),
                    [one] => format!("{transcript} line {}", one.value),
                    many => format!(
                        "{transcript} lines {}",
                        many.iter()
                            .map(|m| m.value.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                sink.report(
                    &META,
                    cell.status
                        .as_ref()
                        .map_or(cell.capability.span, |s| s.span),
                    format!(
                        "{cell_file} says `{said}` for `{}`, but {obs_file} saw `{seen}` ({lines})",
                        cell.capability.value
                    ),
                    Some(format!(
                        "read {lines}; if the client changed, give the cell the `version` it \
                         holds from; else set `status: {seen}` and cite \
                         `observations: [{}]`",
                        crate::model::doc_id(&observation.id, &observation.doc)
                    )),
                );
            }
        }
    }
}

/// Whether the observed version is older than `since` (the version a cell says first shipped
/// it); `false` when either is unknown.
fn older_than(observed: Option<&str>, since: &str) -> bool {
    match observed.filter(|v| !v.is_empty()) {
        Some(v) if !since.is_empty() => compare_versions(v, since) == Ordering::Less,
        _ => false,
    }
}
