//! FN403 invalid-source-path: a source `path` that the parse step could not read into a file
//! and line ranges ([`crate::parse::source_path`] decides; this rule reports its error).

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN403",
    name: "invalid-source-path",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    summary: "a source path that is malformed or has a reversed line range",
    reads: Reads::FrontMatter,
    doc: r#"## What it flags

A source `path` that is not a file path relative to the repository root, optionally followed
by `:` and line ranges: `file`, `file:L`, `file:L-L` or `file:L-L,L-L`, each `L` a line number
(`tools/x.py:3-5,9`). The last `:` starts the ranges, so a file name may hold a `:` only when
lines follow. Line numbers are digits, from 1: not `0`, and not GitHub's `L10` (write `10`).
Each range runs forwards (not `20-10`) and starts after the one before it ends; none is left
open or empty (`3-`, `1-2,`, a `:` with nothing after it). The file may not start with `/` or a
drive (`C:\`, `C:/`), contain `\` or a `..` segment, or start or end with spaces (spaces inside
it are fine).

`sources verify`, `sources drift`, excerpts and pages read the path the same way: a source this
rule flags is not checked against its repository (FN955 says why), and its page links to the
commit alone.

## Why

The path and lines become the link to the exact code a claim rests on (`#L3588-L3672`); a
malformed one links to the wrong place or nowhere.

## Example

```yaml
path: tools/mcp_tool.py:3672-3588
```

Write `tools/mcp_tool.py:3588-3672`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for source in walk::sources(&cx.index.content) {
        let (Some(path), Some(Err(error))) = (&source.path, &source.location) else {
            continue;
        };
        sink.report(
            &META,
            error.span,
            format!("source path `{}`: {}", path.value, error.problem),
            Some(
                "write `file`, `file:L`, `file:L-L` or `file:L-L,L-L`, the file relative to \
                 the repository root, ranges in increasing order"
                    .to_string(),
            ),
        );
    }
}
