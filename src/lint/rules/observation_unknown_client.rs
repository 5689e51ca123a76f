//! FN210 observation-unknown-client: an observation's `client` is no client of the site, or
//! that client does not list the name the client announced in `clientInfo`.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{doc_id, text};

pub const META: RuleMeta = RuleMeta {
    code: "FN210",
    name: "observation-unknown-client",
    severity: Severity::Error,
    scope: Scope::Global, // reads every client's clientInfoNames
    reads: Reads::FrontMatter,
    summary: "an observation of a client the site does not have, or whose clientInfoNames lacks the name seen",
    doc: r#"## What it flags

An observation whose `client` is not the id of a file in `content/clients/`, or whose client's
`clientInfoNames` does not hold the `clientInfo.name` the session saw. A name a proxy forwards,
`host (via mcp-remote 0.15.1)`, is held by the client that lists the proxy's name
(`mcp-remote`).

## Why

`fieldnotes probe` picks `client` by looking the announced name up in every client's
`clientInfoNames`; when no client claims it, it writes the kebab-case of the name. The
observation then belongs to no column of the matrix, and no cell can cite it.

## Example

```yaml
client: claude-code
clientInfo:
  name: claude-code
  version: 2.1.328
```

Add `claude-code` to `clientInfoNames` in `content/clients/claude-code.md`, or create that
file when the site has no such client yet."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    for (o, observation) in content.observations.iter().enumerate() {
        let Some(client) = &observation.client else {
            continue;
        };
        let name = observation
            .client_info
            .as_ref()
            .map_or("", |i| text(&i.name));
        // A proxy's forwarded name (`host (via mcp-remote 0.15.1)`) is claimed by the proxy.
        let claims = |n: &str| {
            !n.is_empty() && name == n
                || crate::model::proxy_name(name).is_some_and(|proxy| proxy == n)
        };
        let claimed_by =
            (content.clients.iter()).find(|c| c.client_info_names.iter().any(|n| claims(&n.value)));
        match cx.index.observations.client[o] {
            None => {
                let help = match claimed_by {
                    Some(other) => format!(
                        "`{name}` is in the clientInfoNames of content/clients/{}.md: write \
                         `client: {}`",
                        other.doc.stem,
                        doc_id(&other.id, &other.doc)
                    ),
                    None => format!(
                        "create content/clients/{}.md with `clientInfoNames: [{}]`, or write \
                         the id of the client that announces `{}`",
                        client.value,
                        yaml_item(if name.is_empty() { &client.value } else { name }),
                        if name.is_empty() { &client.value } else { name }
                    ),
                };
                sink.report(
                    &META,
                    client.span,
                    format!("client `{}` is not a client of the site", client.value),
                    Some(help),
                );
            }
            Some(c) if !name.is_empty() => {
                let site_client = &content.clients[c];
                if site_client
                    .client_info_names
                    .iter()
                    .any(|n| claims(&n.value))
                {
                    continue;
                }
                let file = cx.index.files[site_client.doc.file].display_path();
                let help = match claimed_by {
                    Some(other) => format!(
                        "`{name}` is in the clientInfoNames of content/clients/{}.md: write \
                         `client: {}`, or move the name to {file}",
                        other.doc.stem,
                        doc_id(&other.id, &other.doc)
                    ),
                    None => format!("add `{name}` to `clientInfoNames` in {file}"),
                };
                sink.report(
                    &META,
                    client.span,
                    format!(
                        "client `{}` does not list the name `{name}` the session saw in its \
                         clientInfoNames",
                        client.value
                    ),
                    Some(help),
                );
            }
            Some(_) => {}
        }
    }
}

/// `name` as a YAML flow-list item: quoted when it needs to be.
fn yaml_item(name: &str) -> String {
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '))
        && !name.starts_with(' ');
    match plain {
        true => name.to_string(),
        false => format!("{name:?}"),
    }
}
