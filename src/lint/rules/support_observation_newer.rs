//! FN219 support-observation-newer: an observation of a newer version of the client than the
//! cell's evidence has seen the capability: the cell should be re-checked.

use crate::diagnostic::Severity;
use crate::index::observations::compare_versions;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, text};
use std::cmp::Ordering;

pub const META: RuleMeta = RuleMeta {
    code: "FN219",
    name: "support-observation-newer",
    severity: Severity::Info,
    scope: Scope::Global, // a client's finding reads its observations
    reads: Reads::FrontMatter,
    summary: "an observation of a newer client version than a support cell's evidence",
    doc: r#"## What it flags

A support cell whose evidence is of an older client version — its `version`, or the newest
client version among the observations it cites — while an observation of a newer version of
the same client, which the cell does not cite, has a result for the capability.

## Why

Clients ship weekly; a newer session may show the capability working, changed or gone. The
cell is not wrong, but it is worth a re-check.

## Example

A cell citing an observation of version `2.1.300` while
`content/observations/claude-code-2-1-328-…md` saw `tools.listChanged` again. Read the newer
transcript and cite it (or update the cell)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    let content = &index.content;
    for (c, client) in content.clients.iter().enumerate() {
        for cell in &client.support {
            let Some((cap, _)) = index.ids.capability(&cell.capability.value) else {
                continue;
            };
            // Only the client's own (another client's is FN217's).
            let cited: Vec<usize> = (cell.observations.iter())
                .filter_map(|o| index.ids.observation(&o.value))
                .filter(|&o| index.observations.client[o] == Some(c))
                .collect();
            let versions = (cited.iter()).filter_map(|&o| content.observations[o].client_version());
            let baseline = versions
                .chain(Some(text(&cell.version)))
                .filter(|v| !v.is_empty())
                .max_by(|a, b| compare_versions(a, b));
            let Some(baseline) = baseline else { continue };
            // The newest observation of the client with a result for the capability.
            let newer = index.observations.by_client[c].iter().copied().find(|&o| {
                index
                    .observed_result(o, cap)
                    .is_some_and(|r| text(&r.status) != "unknown")
            });
            let Some(o) = newer.filter(|o| !cited.contains(o)) else {
                continue;
            };
            let observation = &content.observations[o];
            let Some(version) = observation.client_version().filter(|v| !v.is_empty()) else {
                continue;
            };
            if compare_versions(version, baseline) != Ordering::Greater {
                continue;
            }
            let file = index.files[observation.doc.file].display_path();
            sink.report(
                &META,
                cell.capability.span,
                format!(
                    "`{}` rests on version {baseline}, but {file} observed version {version}: \
                     re-check",
                    cell.capability.value
                ),
                Some(format!(
                    "read that session's result and cite it: `observations: [{}]`",
                    doc_id(&observation.id, &observation.doc)
                )),
            );
        }
    }
}
