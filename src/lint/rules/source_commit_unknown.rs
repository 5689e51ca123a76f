//! FN951 source-commit-unknown: a pinned commit that its repository does not have
//! (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN951",
    name: "source-commit-unknown",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a source commit that its repository does not have (sources verify)",
    doc: r#"## What it flags

A source `commit` that names no commit of the repository its `url` names, after the cached
clone was fetched (or in a `--repo` mapping, which is the repository itself); with
`--offline`, a commit the cached clone lacks, since a hash one digit off and a commit newer
than the cache cannot be told apart without fetching. A hash that names a file or folder
object instead of a commit is flagged too. Only `fieldnotes sources verify`
runs this rule: plain `lint` has no repositories to read.

## Why

The commit is what makes a claim checkable: the page links to the file at that commit. A hash
that is not in the repository (a typo, a commit never pushed, a commit in a fork) leads readers
to a 404, and the claim can no longer be checked.

## Example

```yaml
sources:
  - url: https://github.com/cline/cline
    commit: 1a196376d185f7d204aa985c7ee494b70cfdbf4e   # one digit off
```

Copy the hash again from your checkout (`git rev-parse HEAD`), push the commit, or point `url`
at the fork that has it."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::CommitUnknown(why) = problem else {
            return None;
        };
        let repository = pinned.repository.as_deref().unwrap_or_default();
        Some((
            pinned.commit.span,
            format!(
                "commit `{}` is not in {repository}: {why}",
                pinned.commit.value
            ),
            "copy the hash again from the checkout you read (`git rev-parse HEAD`); check that \
             the commit was pushed, and that `url` names the repository (or fork) that has it"
                .to_string(),
        ))
    });
}
