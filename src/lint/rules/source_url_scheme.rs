//! FN401 source-url-scheme: a source `url` that is not an http or https URL.

use crate::diagnostic::Severity;
use crate::lint::{walk, web_url, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN401",
    name: "source-url-scheme",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a source url that is not an absolute http or https URL",
    doc: r#"## What it flags

A source `url` that does not start with `http://` or `https://`: a bare host
(`github.com/cline/cline`), a relative path, or another scheme (`file:`, `ftp:`, `git@…`).

## Why

Sources are links readers follow to check a claim; only web URLs open for everyone, and only
they can be pinned to a commit and a line range.

## Example

```yaml
sources:
  - url: git@github.com:cline/cline.git
```

Write `https://github.com/cline/cline`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let Some(url) = &source.url else {
            continue;
        };
        let Some(problem) = web_url::problem(&url.value) else {
            continue;
        };
        sink.report(
            &META,
            url.span,
            format!("source url `{}` {problem}", url.value),
            Some("link to the https:// URL of the repository or page".to_string()),
        );
    }
}
