//! FN954 source-lines-out-of-range: a source line range past the end of its file at the
//! pinned commit (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::short;
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN954",
    name: "source-lines-out-of-range",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a source line range past the end of its file at the commit (sources verify)",
    doc: r#"## What it flags

A line range of a source `path` (`file:L-L`) that ends past the last line of the file as it is
at the pinned commit. Only `fieldnotes sources verify` runs this rule.

## Why

The range is the evidence: lines that do not exist at the commit cite nothing. It usually means
the line numbers were read in a newer checkout than the pinned commit, or mistyped.

## Example

```yaml
commit: 9dcf7714
path: tools/mcp_tool_errors.py:73-910   # the file has 214 lines
```

Read the lines at the pinned commit (`git show 9dcf7714:tools/mcp_tool_errors.py`) and correct
the range, or pin the commit the lines were read at."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::LinesOutOfRange {
            range,
            lines,
            commit,
        } = problem
        else {
            return None;
        };
        // A source its url pins has no `path`: the url is where its file and lines are.
        let span = (pinned.source.path.as_ref()).map_or(pinned.commit.span, |p| p.span);
        let commit = short(commit);
        Some((
            span,
            format!(
                "lines {range} of `{}` run past the end of the file, which has {lines} lines at \
                 commit {commit}",
                pinned.file
            ),
            format!(
                "read the lines at the pinned commit (`git show {commit}:{}`) and correct the \
                 range, or pin the commit you read them at",
                pinned.file
            ),
        ))
    });
}
