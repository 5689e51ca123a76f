//! FN203 unknown-client: a note names a client the site does not have.

use crate::diagnostic::Severity;
use crate::lint::{suggest, Context, RuleMeta, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN203",
    name: "unknown-client",
    severity: Severity::Error,
    summary: "a note names a client that has no file in content/clients/",
    doc: "## What it flags\n\nAn entry of a note's `clients` list with no \
`content/clients/<id>.md`.\n\n## Why\n\nThe note would be missing from the client's page, \
and the link from the note's page would lead nowhere.\n\n## Example\n\n```yaml\nclients:\n  - \
clinee\n```\n\nFix the spelling (`cline`), or add the client with `fieldnotes new client`.",
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let ids = &cx.index.ids;
    for note in &cx.index.content.notes {
        for client in &note.clients {
            if ids.client(&client.value).is_none() {
                let help = suggest::did_you_mean(
                    &client.value,
                    ids.clients.keys().map(String::as_str),
                    || format!("add content/clients/{}.md, or fix the id", client.value),
                );
                sink.report(
                    &META,
                    client.span,
                    format!("unknown client `{}`", client.value),
                    Some(help),
                );
            }
        }
    }
}
