//! FN604 raw-html: HTML written in a body instead of Markdown.

use crate::diagnostic::Severity;
use crate::lint::{walk, Context, Reads, RuleMeta, Scope, Sink};
use crate::text_file::Span;

pub const META: RuleMeta = RuleMeta {
    code: "FN604",
    name: "raw-html",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::Body,
    summary: "raw HTML in a body",
    doc: r#"## What it flags

HTML tags written in a body (`<div>`, `<br>`, `<b>…</b>`, comments), one finding per block or
run of inline tags.

## Why

Pages are also published as Markdown for agents, and themes style Markdown's elements; raw
HTML bypasses both, and can carry scripts or styles that break a page.

## Example

```markdown
<b>Note:</b> Hermes falls back to SSE.
```

Write `**Note:** Hermes falls back to SSE.`"#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        for span in merged(cx, &doc.body.raw_html) {
            sink.report(
                &META,
                span,
                "raw HTML in the body".to_string(),
                Some("write it in Markdown (`**bold**`, lists, links, headings)".to_string()),
            );
        }
    }
}

/// Joins spans separated only by whitespace or text on the same line (a block's lines, an
/// inline `<b>…</b>` pair) into one.
fn merged(cx: &Context<'_>, spans: &[Span]) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    for &span in spans {
        if let Some(last) = out.last_mut() {
            let between = walk::span_text(cx.index, Span::new(span.file, last.end, span.start));
            if !between.trim_end_matches(['\r', '\n']).contains('\n') {
                last.end = last.end.max(span.end);
                continue;
            }
        }
        out.push(span);
    }
    out
}
