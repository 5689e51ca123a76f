//! FN402 invalid-commit: a source `commit` that is not 7 to 40 hex digits.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN402",
    name: "invalid-commit",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a source commit that is not 7 to 40 hexadecimal digits",
    doc: r#"## What it flags

A source `commit` that is not a commit hash: fewer than 7 or more than 40 characters, or
characters other than `0-9` and `a-f`. Branch and tag names are flagged too.

## Why

The commit pins the source: links go to `/blob/<commit>/<path>#L…`, which never changes. A
branch name moves, so the lines cited today are different lines tomorrow.

## Example

```yaml
commit: main
```

Write the hash of the commit you read (`git rev-parse HEAD`), at least its first 7
characters."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let Some(commit) = &source.commit else {
            continue;
        };
        if !is_commit(&commit.value) {
            sink.report(
                &META,
                commit.span,
                format!("commit `{}` is not 7 to 40 hex digits", commit.value),
                Some(
                    "write the hash of the commit you read (`git rev-parse HEAD`), at least its \
                     first 7 characters"
                        .to_string(),
                ),
            );
        }
    }
}

/// 7 to 40 hexadecimal digits.
pub fn is_commit(text: &str) -> bool {
    (7..=40).contains(&text.len()) && text.chars().all(|c| c.is_ascii_hexdigit())
}
