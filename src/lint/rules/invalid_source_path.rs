//! FN403 invalid-source-path: a source `path` that is not `file`, `file:L`, `file:L-L` or
//! `file:L-L,L-L`, or whose line ranges run backwards.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, RuleMeta, Scope, Sink};

pub const META: RuleMeta = RuleMeta {
    code: "FN403",
    name: "invalid-source-path",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    summary: "a source path that is malformed or has a reversed line range",
    doc: r#"## What it flags

A source `path` that is not a file path relative to the repository root, optionally followed
by `:` and line ranges: `file`, `file:L`, `file:L-L` or `file:L-L,L-L`. Ranges must run forwards
and in order, lines start at 1, and the path may not start with `/` or contain `..` or `\`.

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
        let Some(path) = &source.path else {
            continue;
        };
        if let Err(problem) = check_path(&path.value) {
            sink.report(
                &META,
                path.span,
                format!("source path `{}`: {problem}", path.value),
                Some(
                    "write `file`, `file:L`, `file:L-L` or `file:L-L,L-L`, the file relative to \
                     the repository root, ranges in increasing order"
                        .to_string(),
                ),
            );
        }
    }
}

/// Checks `file[:ranges]`; the error says what is wrong.
pub fn check_path(text: &str) -> Result<(), String> {
    let (file, lines) = match text.rsplit_once(':') {
        Some((file, lines)) => (file, Some(lines)),
        None => (text, None),
    };
    if file.trim().is_empty() {
        return Err("no file before the line numbers".to_string());
    }
    if file.starts_with('/') {
        return Err(
            "the file must be relative to the repository root, without a leading `/`".into(),
        );
    }
    if file.contains('\\') || file.split('/').any(|s| s == "..") {
        return Err("the file may not contain `\\` or `..`".to_string());
    }
    if file != file.trim() {
        return Err("the file starts or ends with spaces".to_string());
    }
    let Some(lines) = lines else {
        return Ok(());
    };
    let mut last = 0;
    for range in lines.split(',') {
        let (start, end) = match range.split_once('-') {
            Some((a, b)) => (line_number(a)?, line_number(b)?),
            None => {
                let line = line_number(range)?;
                (line, line)
            }
        };
        if start > end {
            return Err(format!("the range {start}-{end} runs backwards"));
        }
        if start <= last {
            return Err(format!(
                "the range starting at line {start} overlaps or comes before the one before it"
            ));
        }
        last = end;
    }
    Ok(())
}

fn line_number(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("lines are numbered from 1".to_string()),
        Ok(n) if text.trim() == text && !text.starts_with('+') => Ok(n),
        _ => Err(format!("`{text}` is not a line number")),
    }
}

#[cfg(test)]
mod tests {
    use super::check_path;

    #[test]
    fn reads_paths_and_ranges() {
        for ok in ["a.py", "a/b.py:3", "a.py:3588-3672", "t.py:532-560,600-668"] {
            assert_eq!(check_path(ok), Ok(()), "{ok}");
        }
        for bad in [
            "a.py:10-5",
            "a.py:L10",
            "/a.py:1",
            ":1-2",
            "a.py:5-9,1-2",
            "a.py:0",
            "a.py:",
            "../a.py",
        ] {
            assert!(check_path(bad).is_err(), "{bad}");
        }
    }
}
