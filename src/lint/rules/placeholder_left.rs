//! FN705 placeholder-left: a `TODO` marker that `fieldnotes new` wrote and the author has not
//! replaced yet.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::PLACEHOLDER;
use crate::text_file::Span;

pub const META: RuleMeta = RuleMeta {
    code: "FN705",
    name: "placeholder-left",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::Body,
    summary: "a `TODO` marker left where the author must still write something",
    doc: r#"## What it flags

The word `TODO` in front matter or in a body (outside code blocks and code spans): the marker
`fieldnotes new` leaves where the author must still write the title, summary, sources or text.

## Why

A note with a placeholder title or source must not be published. The marker is reported at
each line that still holds it, so the author can work through them.

## Example

```yaml
title: "TODO: the claim, as one sentence"
```

Write the claim. A site whose prose uses the word on purpose can turn the rule off:
`lint: {rules: {FN705: off}}` in `site.yaml`."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for (file, source) in cx.index.files.iter().enumerate() {
        if !source.text.contains(PLACEHOLDER) {
            continue;
        }
        let mut offset = 0;
        let mut fence: Option<&str> = None;
        for line in source.text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            match (fence, marker) {
                (None, Some(m)) => fence = Some(m),
                (Some(open), Some(m)) if open == m => fence = None,
                (None, None) => {
                    if let Some(at) = find_marker(line) {
                        let start = offset + at;
                        sink.report(
                            &META,
                            Span::new(file, start, start + PLACEHOLDER.len()),
                            format!("`{PLACEHOLDER}` left here: this still needs writing"),
                            Some("replace the placeholder with the real text or value".into()),
                        );
                    }
                }
                _ => {}
            }
            offset += line.len();
        }
    }
}

/// The byte offset of the first `TODO` on the line that stands as a word, outside `code`.
fn find_marker(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut in_code = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            in_code = !in_code;
        } else if !in_code
            && bytes[i..].starts_with(PLACEHOLDER.as_bytes())
            && (i == 0 || !word(bytes[i - 1]))
            && bytes.get(i + PLACEHOLDER.len()).is_none_or(|&b| !word(b))
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::find_marker;

    #[test]
    fn finds_the_word_outside_code() {
        assert_eq!(find_marker("title: \"TODO: the claim\""), Some(8));
        assert_eq!(find_marker("see `TODO` here"), None);
        assert_eq!(find_marker("TODOS and XTODO"), None);
        assert_eq!(find_marker("  - TODO\n"), Some(4));
        // Found by fuzzing: a line with a character of several bytes.
        assert_eq!(find_marker("naïve caTODOti ͢ TODO"), Some(19));
    }
}
