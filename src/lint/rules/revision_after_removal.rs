//! FN904 revision-after-removal: a note applies to a spec revision that no longer has one of
//! the capabilities it is about.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, text};

pub const META: RuleMeta = RuleMeta {
    code: "FN904",
    name: "revision-after-removal",
    severity: Severity::Warning,
    scope: Scope::NoteLocal, // the note, the capabilities' files and site.yaml
    reads: Reads::FrontMatter,
    summary:
        "a note's `specVersions` names a revision at or after the removal of a capability it lists",
    doc: r#"## What it flags

An entry of a note's `specVersions` that is the revision a capability in the note's
`capabilities` was `removed` in, or a later one (in `site.yaml`'s `specVersions` order).

## Why

A note is listed on the page of each revision it names, beside the capabilities that revision
has; a capability the revision removed is not one of them, so the note claims behaviour the
revision no longer defines. Usually the revision was copied from a newer note. It is a
warning, not an error: a note about a client that keeps using a removed feature against a
newer revision (say, still sending `Mcp-Session-Id` at 2026-07-28) may mean it.

## Example

```yaml
capabilities:
  - transports.sessions   # removed: 2026-07-28
specVersions:
  - 2026-07-28
```

Name the revisions that still have the capability (`2025-11-25`), or drop the capability if the
note is not about it."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    let config = &index.config;
    for note in &index.content.notes {
        for name in &note.capabilities {
            let Some((i, _)) = index.ids.capability(&name.value) else {
                continue;
            };
            let capability = &index.content.capabilities[i];
            let removed = text(&capability.removed);
            let Some(gone) = config.spec_version_rank(removed) else {
                continue;
            };
            let id = doc_id(&capability.id, &capability.doc);
            for version in &note.spec_versions {
                if config
                    .spec_version_rank(&version.value)
                    .is_some_and(|rank| rank >= gone)
                {
                    sink.report(
                        &META,
                        version.span,
                        format!(
                            "revision `{}` no longer has capability `{id}`, removed in `{removed}`",
                            version.value
                        ),
                        Some(format!(
                            "name the revisions before `{removed}` that the note is about, or drop `{id}` from `capabilities` if the note is not about it"
                        )),
                    );
                }
            }
        }
    }
}
