//! FN704 page-url-scheme: a client's `homepage` or `repository`, or a capability's `specUrl`,
//! that is not an http or https URL.

use crate::diagnostic::Severity;
use crate::lint::{web_url, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::Spanned;

pub const META: RuleMeta = RuleMeta {
    code: "FN704",
    name: "page-url-scheme",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a homepage, repository or specUrl that is not an absolute http or https URL",
    doc: r#"## What it flags

A client's `homepage` or `repository`, or a capability's `specUrl`, that does not start with
`http://` or `https://`: a bare host, a relative path, or another scheme (`javascript:`,
`data:`, `file:`).

## Why

These URLs become links on the site's pages. A `javascript:` URL runs script in the browser
of whoever clicks it, and a bare host is read as a path of the site itself.

## Example

```yaml
homepage: javascript:alert(document.cookie)
```

Write the https:// URL of the client's site."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    let clients = content
        .clients
        .iter()
        .flat_map(|c| [("homepage", &c.homepage), ("repository", &c.repository)]);
    let capabilities = content
        .capabilities
        .iter()
        .map(|c| ("specUrl", &c.spec_url));
    for (field, url) in clients.chain(capabilities) {
        let Some(Spanned { value, span }) = url else {
            continue;
        };
        if let Some(problem) = web_url::problem(value) {
            sink.report(
                &META,
                *span,
                format!("{field} `{value}` {problem}"),
                Some(format!("write the https:// URL of the page as `{field}`")),
            );
        }
    }
}
