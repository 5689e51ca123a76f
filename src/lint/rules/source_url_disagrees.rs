//! FN405 source-url-disagrees: a source whose `url` names a file at a commit that its `commit`
//! or `path` contradicts.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{text, SourceRef};
use crate::provenance::pin::format_path;

pub const META: RuleMeta = RuleMeta {
    code: "FN405",
    name: "source-url-disagrees",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary:
        "a source url at a commit (…/blob/<commit>/<file>#L…) that its commit or path contradicts",
    doc: r#"## What it flags

A source whose `url` names a file at a commit of a GitHub or GitLab repository
(`…/blob/<commit>/<file>#L10-L20`) and whose `commit` or `path` says something else: another
commit (neither hash starts the other), another file, or lines the URL does not highlight
(when `path` pins lines, the URL's lines must be one of its ranges).

Such a URL is a pin on its own: a source with no `commit` and `path` is checked at the
commit, file and lines the URL names (`fieldnotes sources verify`). A URL at a branch
(`/blob/main/…`) pins nothing: FN404 flags it.

## Why

The page links to one place and fieldnotes checks another: a reader who follows the link
reads lines that are not the ones verified.

## Example

```yaml
sources:
  - url: https://github.com/cline/cline/blob/1a19637/src/schemas.ts#L39-L61
    commit: 9dcf7714b2b5b9e2e8f3a1c6d4e5f60718293a4b   # another commit
    path: src/schemas.ts:39-61
```

Make them agree: copy the URL from the commit you read (press `y` on GitHub), or drop the
fields and let the URL pin the source."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let (Some(url), Some(pin)) = (&source.url, &source.url_pin) else {
            continue;
        };
        if let Some(why) = disagreement(source, pin) {
            sink.report(
                &META,
                url.span,
                format!(
                    "the url names {} at commit `{}`, but {why}",
                    format_path(&pin.path.file, &pin.path.lines),
                    pin.commit.value
                ),
                Some(
                    "make `url`, `commit` and `path` name the same commit, file and lines, or \
                     drop `commit` and `path` and let the url pin the source"
                        .to_string(),
                ),
            );
        }
    }
}

/// What `commit` or `path` says that the URL's pin does not.
fn disagreement(source: &SourceRef, pin: &crate::model::UrlPin) -> Option<String> {
    let commit = text(&source.commit).to_ascii_lowercase();
    let url_commit = pin.commit.value.as_str();
    if !commit.is_empty() && !commit.starts_with(url_commit) && !url_commit.starts_with(&commit) {
        return Some(format!("`commit` is `{}`", text(&source.commit)));
    }
    let Some(Ok(path)) = &source.location else {
        return None;
    };
    if path.file.trim_start_matches('/') != pin.path.file {
        return Some(format!("`path` names `{}`", path.file));
    }
    let highlighted = pin.path.lines.first()?;
    match path.lines.is_empty() || path.lines.contains(highlighted) {
        true => None,
        false => Some(format!("`path` pins lines {}", text(&source.path))),
    }
}
