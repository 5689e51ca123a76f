//! FN213 observation-capability-alias: an observation's result under an alias of a capability
//! instead of its id.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN213",
    name: "observation-capability-alias",
    severity: Severity::Warning,
    scope: Scope::Global, // reads every capability's aliases
    reads: Reads::FrontMatter,
    summary: "a key of an observation's `results` that is an alias instead of the capability's id",
    doc: r#"## What it flags

A key of an observation's `results` that is one of a capability's `aliases` rather than its
id (as FN206 does for notes and support maps).

## Why

The result still counts, but pages, the data API and search use the id; a probe older than
the site's capability list may write an old spelling.

## Example

```yaml
results:
  transport.streamable_http:
    status: yes
```

Write `transports.streamableHttp`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    let keys = (content.observations.iter()).flat_map(|o| o.results.iter().map(|r| &r.capability));
    super::capability_alias::report_aliases(cx, sink, &META, keys);
}
