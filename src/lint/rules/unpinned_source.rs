//! FN404 unpinned-source: a GitHub or GitLab repository source with no commit.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN404",
    name: "unpinned-source",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a source in a GitHub or GitLab repository that is not pinned to a commit",
    doc: r#"## What it flags

A source whose `url` is a GitHub or GitLab repository, or a file or folder in one at a branch
(`/blob/main/…`), without a `commit`. A URL that already names a commit (`/blob/<7–40 hex>/…`,
which `sources verify` then checks as the pin; `/commit/<hash>`) is pinned. Issues, pull requests and releases are left alone.

## Why

Every claim must be checkable later. A repository's default branch moves: the lines a note
cites today are other lines next month, and the claim can no longer be checked.

## Example

```yaml
sources:
  - url: https://github.com/cline/cline
    path: src/services/mcp/schemas.ts:39-61
```

Add `commit: <the hash you read>` (`git rev-parse HEAD` in your checkout)."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let Some(url) = &source.url else {
            continue;
        };
        if source.commit.is_none() && repository_pin(&url.value) == Some(false) {
            sink.report(
                &META,
                url.span,
                format!("source `{}` is not pinned to a commit", url.value),
                Some(
                    "add `commit:` with the hash you read (and `path:` with the lines), or link to \
                     a /blob/<commit>/ URL"
                        .to_string(),
                ),
            );
        }
    }
}

/// For a GitHub or GitLab URL of repository content: whether the URL itself names a commit.
/// `None` for other URLs (other hosts, issues, pull requests, releases, …).
pub fn repository_pin(url: &str) -> Option<bool> {
    let rest = url
        .trim()
        .strip_prefix("https://")
        .or_else(|| url.trim().strip_prefix("http://"))?;
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let is_sha = |s: &str, min: usize| {
        (min..=40).contains(&s.len()) && s.chars().all(|c| c.is_ascii_hexdigit())
    };
    let at_ref = |kind: &str, reference: Option<&&str>| match kind {
        "blob" => Some(reference.is_some_and(|r| is_sha(r, 7))),
        "tree" | "raw" | "blame" => Some(reference.is_some_and(|r| is_sha(r, 40))),
        "commit" | "commits" => Some(reference.is_some_and(|r| is_sha(r, 7))),
        _ => None,
    };
    match host {
        "github.com" => match segments.as_slice() {
            [_, _] => Some(false),
            [_, _, kind, reference, ..] => at_ref(kind, Some(reference)),
            [_, _, kind] => at_ref(kind, None),
            _ => None,
        },
        "raw.githubusercontent.com" => segments.get(2).map(|r| is_sha(r, 40)),
        "gitlab.com" => match segments.iter().position(|s| *s == "-") {
            Some(dash) => at_ref(segments.get(dash + 1)?, segments.get(dash + 2)),
            None => (segments.len() >= 2).then_some(false),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::repository_pin;

    #[test]
    fn tells_pinned_from_moving_urls() {
        let sha = "1a196376d185f7d204aa985c7ee494b70cfdbf44";
        assert_eq!(
            repository_pin("https://github.com/cline/cline"),
            Some(false)
        );
        assert_eq!(
            repository_pin("https://github.com/cline/cline/blob/main/a.ts"),
            Some(false)
        );
        assert_eq!(
            repository_pin(&format!(
                "https://github.com/cline/cline/blob/{sha}/a.ts#L3"
            )),
            Some(true)
        );
        assert_eq!(
            repository_pin("https://github.com/cline/cline/commit/1a19637"),
            Some(true)
        );
        assert_eq!(
            repository_pin("https://github.com/cline/cline/issues/12"),
            None
        );
        assert_eq!(repository_pin("https://gitlab.com/a/b/c"), Some(false));
        assert_eq!(
            repository_pin(&format!("https://gitlab.com/a/b/-/blob/{sha}/x.rs")),
            Some(true)
        );
        assert_eq!(repository_pin("https://docs.cline.bot/mcp"), None);
    }
}
