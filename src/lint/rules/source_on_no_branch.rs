//! FN959 source-on-no-branch: a pinned commit that no branch or tag of its repository leads
//! to, only the head of a pull request or nothing (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::short;
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN959",
    name: "source-on-no-branch",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a source commit on no branch or tag, only at a pull request's head (sources verify)",
    doc: r#"## What it flags

A source `commit` that the repository has, but that no branch and no tag contains: only the
head of a pull request (`refs/pull/<n>/head`) leads to it, or no ref of the clone at all (a
commit fetched by its hash). Only `fieldnotes sources verify` runs this rule.

## Why

A pull request's head moves when its author pushes again, and a closed pull request's commits
can be garbage-collected: the pin can vanish, and with it the page's link and the claim's
evidence. Code that was merged is on a branch, in another commit; code that was never merged
is not what the client ships.

## Example

```yaml
commit: 1a196376d185f7d204aa985c7ee494b70cfdbf4f   # only at refs/pull/5312/head
```

Find the commit that brought the same lines to the default branch or a release
(`git log -S '<a line>' main`), read the lines there, and pin that commit."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::OnNoBranch { commit, pull } = problem else {
            return None;
        };
        let from = match pull {
            Some(pull) => format!("only the pull request head {pull} leads to it"),
            None => "no ref of the clone leads to it".to_string(),
        };
        Some((
            pinned.commit.span,
            format!(
                "commit {} is on no branch or tag of {}: {from}",
                short(commit),
                pinned.repository.as_deref().unwrap_or_default()
            ),
            "pin the commit that brought these lines to a branch or release (`git log -S '<a \
             line>' <branch>`), after reading the lines there"
                .to_string(),
        ))
    });
}
