//! FN955 source-not-checked: a pinned source that `fieldnotes sources verify` could not check
//! (its repository is not in the cache and cannot be reached, or it is malformed).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN955",
    name: "source-not-checked",
    severity: Severity::Info,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a pinned source that could not be checked against its repository (sources verify)",
    doc: r#"## What it flags

A source with a `commit` that `fieldnotes sources verify` could not check: its repository is
not in the cache and could not be cloned (no network, `--offline`, a private repository), the
commit is not in a cached clone that could not be fetched, or the source is malformed in a way
another rule reports (a `url` that is not http(s), a `commit` that is not a hash, a `path` that
is not a file and line ranges). Only
`fieldnotes sources verify` runs this rule.

## Why

A verification run that cannot reach a repository should say so rather than pass in silence:
the sources it lists are not known to hold.

## Example

```text
source not checked: https://github.com/o/r is not in the cache and could not be cloned
```

Run `fieldnotes sources verify` where the network reaches the repository, put a bare clone in
the cache (`git clone --bare URL <cache>/<host>/<path>.git`), or map the URL to a local clone
(`--repo URL=PATH`)."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::NotChecked(why) = problem else {
            return None;
        };
        let span = pinned
            .source
            .url
            .as_ref()
            .map_or(pinned.source.span, |u| u.span);
        Some((
            span,
            format!("source not checked: {why}"),
            "run `fieldnotes sources verify` where the network reaches the repository, put a \
             bare clone in the cache (`git clone --bare URL <cache>/<host>/<path>.git`), or map \
             the URL to a local clone with `--repo URL=PATH`"
                .to_string(),
        ))
    });
}
