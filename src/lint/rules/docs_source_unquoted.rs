//! FN407 docs-source-unquoted: a support cell's source without a commit (a docs page) that
//! lacks the `quote` it rests on or the day it was `retrieved`.

use super::unpinned_source::repository_pin;
use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{text, SourceRef};

pub const META: RuleMeta = RuleMeta {
    code: "FN407",
    name: "docs-source-unquoted",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a support cell's source without a commit that has no `quote` or no `retrieved` date",
    doc: r#"## What it flags

A source of a support cell that is not pinned to a commit (no `commit`, and a `url` that names
none: a vendor's docs page, a changelog on a website) and lacks `quote` (the sentence the cell
rests on, copied verbatim from the page) or `retrieved` (the day the page was read,
`YYYY-MM-DD`). A repository URL without a commit is FN404's finding, not this one.

## Why

A page without a commit changes under the link: what it says next month need not be what the
cell was written from. The quote lets a reader check the claim without trusting the site (find
the sentence on the page, or see that it is gone), and the date says when it was there. A cell
states no more than its quote says.

## Example

```yaml
support:
  transports.sse:
    status: yes
    sources:
      - url: https://docs.example.com/mcp
        title: Example docs, remote servers
```

Add the sentence and the day:

```yaml
      - url: https://docs.example.com/mcp
        title: Example docs, remote servers
        quote: "Remote servers can use the SSE transport."
        retrieved: 2026-12-06
```"#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for list in walk::source_lists(&cx.index.content) {
        if list.cell.is_none() {
            continue;
        }
        for source in list.sources.iter().filter(|s| unpinned_page(s)) {
            let missing: Vec<&str> = [("quote", &source.quote), ("retrieved", &source.retrieved)]
                .into_iter()
                .filter(|(_, value)| text(value).trim().is_empty())
                .map(|(field, _)| field)
                .collect();
            if missing.is_empty() {
                continue;
            }
            let span = source.url.as_ref().map_or(source.span, |u| u.span);
            let fields = missing
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            sink.report(
                &META,
                span,
                format!(
                    "{} cites `{}` without a commit and has no {fields}",
                    list.holder(),
                    text(&source.url)
                ),
                Some(
                    "add `quote:` with the sentence the cell rests on, copied verbatim from the \
                     page, and `retrieved:` with the day you read it (YYYY-MM-DD); or pin the \
                     source with `commit:` and `path:` where the page is a file in a repository"
                        .to_string(),
                ),
            );
        }
    }
}

/// Whether `source` is a page no commit pins: no `commit`, no commit in its URL, and not a
/// repository URL (FN404 asks those for a commit).
fn unpinned_page(source: &SourceRef) -> bool {
    let Some(url) = &source.url else {
        return false;
    };
    source.commit.is_none() && source.url_pin.is_none() && repository_pin(&url.value).is_none()
}
