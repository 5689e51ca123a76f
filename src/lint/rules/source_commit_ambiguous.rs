//! FN952 source-commit-ambiguous: a short commit hash that starts the hashes of several
//! commits of its repository (`fieldnotes sources verify`).

use crate::diagnostic::Severity;
use crate::lint::{Reads, RuleMeta, Scope, Sink, SourcesContext};
use crate::provenance::verify::Problem;

pub const META: RuleMeta = RuleMeta {
    code: "FN952",
    name: "source-commit-ambiguous",
    severity: Severity::Error,
    scope: Scope::Global, // not run by lint
    reads: Reads::FrontMatter,
    summary: "a short source commit that names more than one commit (sources verify)",
    doc: r#"## What it flags

A source `commit` written as a short hash (7 or more hex digits) that is the start of two or
more commits' hashes in the repository. Only `fieldnotes sources verify` runs this rule.

## Why

A short hash pins nothing when it names several commits: readers (and git) cannot tell which
one the claim was read at. Large repositories make collisions of 7 digits likely: the Linux
kernel needs 12.

## Example

```yaml
commit: 573a7ae
```

Write more digits of the hash you read, or all 40 (`git rev-parse 573a7ae1`)."#,
};

pub fn check(cx: &SourcesContext<'_>, sink: &mut Sink<'_>) {
    crate::lint::report_problems(cx.verification, sink, &META, |pinned, problem| {
        let Problem::CommitAmbiguous(commits) = problem else {
            return None;
        };
        let repository = pinned.repository.as_deref().unwrap_or_default();
        let listed: Vec<String> = commits.iter().map(|c| format!("`{c}`")).collect();
        Some((
            pinned.commit.span,
            format!(
                "commit `{}` is ambiguous in {repository}: it starts {} commits ({})",
                pinned.commit.value,
                commits.len(),
                listed.join(", ")
            ),
            format!(
                "write the full hash of the commit you read, or enough of it to tell it apart: {}",
                distinct_prefixes(commits).join(" or ")
            ),
        ))
    });
}

/// The shortest prefixes (as many digits for each) that tell the commits apart, in backticks.
fn distinct_prefixes(commits: &[String]) -> Vec<String> {
    let shortest = commits.iter().map(String::len).min().unwrap_or(0);
    let digits = (7..=shortest)
        .find(|&n| {
            let mut prefixes: Vec<&str> = commits.iter().map(|c| &c[..n]).collect();
            prefixes.sort_unstable();
            prefixes.windows(2).all(|w| w[0] != w[1])
        })
        .unwrap_or(shortest);
    commits
        .iter()
        .map(|c| format!("`{}`", &c[..digits]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::distinct_prefixes;

    #[test]
    fn prefixes_are_as_long_as_telling_apart_needs() {
        let commits = ["573a7ae1083".to_string(), "573a7aea9c5".to_string()];
        assert_eq!(distinct_prefixes(&commits), ["`573a7ae1`", "`573a7aea`"]);
    }
}
