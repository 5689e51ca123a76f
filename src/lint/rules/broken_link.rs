//! FN601 broken-link: a body link to a note, client, capability, guide or revision that
//! does not exist.

use crate::diagnostic::Severity;
use crate::index::links::{LinkTarget, MissingKind};
use crate::lint::{suggest, Context, RuleMeta, Sink};
use crate::source::Section;

pub const META: RuleMeta = RuleMeta {
    code: "FN601",
    name: "broken-link",
    severity: Severity::Error,
    summary: "a body link to a page that does not exist",
    doc: "## What it flags\n\nA link in a body such as `/research/<id>.md`, `/clients/<id>.md`, \
`/capabilities/<id>.md`, `/guides/<slug>.md` or `/spec/<revision>.md` (or a relative link) \
whose target is not in the site.\n\n## Why\n\nReaders and agents following it get a 404. A \
rename or deletion in one pull request breaks links in files it never touched.\n\n## \
Example\n\n```markdown\nSee [the Cline note](/research/cline-defaults-to-sse.md).\n```\n\n\
Link to the note's current id.",
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    for link in &index.links {
        let LinkTarget::Missing { kind, id, .. } = &link.target else {
            continue;
        };
        let doc = index
            .document(link.from)
            .expect("links come from documents");
        let at = &doc.body.links[link.link];
        let known: Vec<&str> = match kind {
            MissingKind::Section(Section::Research) => {
                index.ids.notes.keys().map(String::as_str).collect()
            }
            MissingKind::Section(Section::Clients) => {
                index.ids.clients.keys().map(String::as_str).collect()
            }
            MissingKind::Section(Section::Capabilities) => {
                index.ids.capabilities.keys().map(String::as_str).collect()
            }
            MissingKind::Section(Section::Guides) => {
                index.ids.guides.keys().map(String::as_str).collect()
            }
            MissingKind::Spec => index.ids.specs.keys().map(String::as_str).collect(),
        };
        let help = suggest::did_you_mean(id, known, || {
            format!("link to an existing {}, or remove the link", kind.noun())
        });
        sink.report(
            &META,
            at.span,
            format!("link to {} `{id}`, which does not exist", kind.noun()),
            Some(help),
        );
    }
}
