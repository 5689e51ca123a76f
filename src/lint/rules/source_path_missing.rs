//! FN953 source-path-missing: a source path that does not exist at its commit
//! (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::short;
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN953",
    name: "source-path-missing",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a source path that does not exist at its commit (sources verify)",
    doc: r#"## What it flags

A source `path` whose file does not exist at the pinned commit, or that is a folder although
line ranges follow it. Only `fieldnotes sources verify` runs this rule.

## Why

The link goes to the file at the pinned commit: a path that is not there is a 404, and the
lines the claim rests on cannot be found. It usually means the path was copied from a newer
(or older) checkout than the commit, or has a typo.

## Example

```yaml
commit: a24c12d1
path: tools/mcp_tools.py:3588-3672    # the file is tools/mcp_tool.py
```

List the files at the commit (`git ls-tree -r --name-only a24c12d1`) and correct the path, or
pin the commit the path was read at."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::PathMissing { commit, folder } = problem else {
            return None;
        };
        // A source its url pins has no `path`: the url is where its file and lines are.
        let span = (pinned.source.path.as_ref()).map_or(pinned.commit.span, |p| p.span);
        let repository = pinned.repository.as_deref().unwrap_or_default();
        let what = match folder {
            true => "is a folder, not a file, at",
            false => "does not exist at",
        };
        Some((
            span,
            format!(
                "`{}` {what} commit {} of {repository}",
                pinned.file,
                short(commit)
            ),
            format!(
                "list the files at the commit (`git ls-tree -r --name-only {}`) and correct the \
                 path, or pin the commit you read the file at",
                short(commit)
            ),
        ))
    });
}
