//! FN601 broken-link: a body link to a note, client, capability, guide or revision that
//! does not exist.

use crate::diagnostic::Severity;
use crate::index::links::{LinkTarget, MissingKind};
use crate::lint::vocab::Vocab;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::text_file::Section;

pub const META: RuleMeta = RuleMeta {
    code: "FN601",
    name: "broken-link",
    severity: Severity::Error,
    scope: Scope::Global, // links resolve against every note's id
    reads: Reads::Body,
    summary: "a body link to a page that does not exist",
    doc: r#"## What it flags

A link in a body such as `/research/<id>.md`, `/clients/<id>.md`, `/capabilities/<id>.md`,
`/guides/<slug>.md` or `/spec/<revision>.md` (or a relative link) whose target is not in the
site.

## Why

Readers and agents following it get a 404. A rename or deletion in one pull request breaks
links in files it never touched.

## Example

```markdown
See [the Cline note](/research/cline-defaults-to-sse.md).
```

Link to the note's current id."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (target, link) in walk::links(cx.index) {
        let LinkTarget::Missing { kind, id, .. } = target else {
            continue;
        };
        let vocab = match kind {
            MissingKind::Section(Section::Research) => Vocab::Notes,
            MissingKind::Section(Section::Clients) => Vocab::Clients,
            MissingKind::Section(Section::Capabilities) => Vocab::Capabilities,
            MissingKind::Section(Section::Guides) => Vocab::Guides,
            MissingKind::Section(Section::Observations) => Vocab::Observations,
            MissingKind::Spec => Vocab::SpecVersions,
        };
        let fix = || format!("link to an existing {}, or remove the link", kind.noun());
        let help = if sink.may_suggest() {
            vocab.suggest(cx.index, id, fix)
        } else {
            fix()
        };
        sink.report(
            &META,
            link.span,
            format!("link to {} `{id}`, which does not exist", kind.noun()),
            Some(help),
        );
    }
}
