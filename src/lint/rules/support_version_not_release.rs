//! FN950 support-version-not-release: a support cell's `version` that is not a release of the
//! client containing the commit its code evidence pins (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verify::Problem;
use crate::provenance::Holder;

pub const META: RuleMeta = RuleMeta {
    code: "FN950",
    name: "support-version-not-release",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a support cell's version that is not a release containing its pinned commit (sources verify)",
    doc: r#"## What it flags

A support cell whose `version` does not name a release that contains the commit of a source
in the client's own `repository`: the client's `releaseTags` (a tag pattern whose `*` stands
for the version, such as `v*`) names no such tag, or the tag does not contain the commit. Only
`fieldnotes sources verify` runs this rule, with the repository at hand.

## Why

`version` tells a reader as of which release the claim holds. A version the pinned code is
not in claims a release the evidence never saw.

## Example

```yaml
# releaseTags: v*
support:
  tools.call:
    version: "0.55.0"     # commit 5411f113 is first in v0.57.0
    sources:
      - url: https://github.com/google-gemini/gemini-cli
        commit: 5411f113cafae26161b4969b0237b8e1e024e2c2
```

Run `fieldnotes sources release` to write the first release each cell's commit is in."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    let index = cx.index;
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::VersionNotRelease(why) = problem else {
            return None;
        };
        let Holder::Cell { client, cell } = pinned.holder else {
            return None;
        };
        let cell = &index.content.clients[client].support[cell];
        let version = cell.version.as_ref()?;
        Some((
            version.span,
            format!(
                "`version: {}` is not a release containing this cell's pinned commit: {why}",
                version.value
            ),
            "run `fieldnotes sources release` to write the first release the commit is in, or \
             pin a commit of the release named"
                .to_string(),
        ))
    });
}
