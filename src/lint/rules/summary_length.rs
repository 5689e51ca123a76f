//! FN702 summary-length: a summary that is empty or longer than 300 characters.

use crate::diagnostic::Severity;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};

/// The longest summary, in characters.
pub const MAX_SUMMARY: usize = 300;

pub const META: RuleMeta = RuleMeta {
    code: "FN702",
    name: "summary-length",
    severity: Severity::Warning,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a summary that is empty or longer than 300 characters",
    doc: r#"## What it flags

A note's or guide's `summary` that is empty, or longer than 300 characters.

## Why

The summary is the finding in brief: it is shown in lists, feeds, search results and link
previews, which cut long text. An empty one shows nothing.

## Example

```yaml
summary: ""
```

Say the finding in one or two sentences."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let content = &cx.index.content;
    let summaries = content
        .notes
        .iter()
        .map(|n| &n.summary)
        .chain(content.guides.iter().map(|g| &g.summary));
    for summary in summaries.flatten() {
        let length = summary.value.trim().chars().count();
        let problem = if length == 0 {
            "the summary is empty".to_string()
        } else if length > MAX_SUMMARY {
            format!("the summary is {length} characters long (at most {MAX_SUMMARY})")
        } else {
            continue;
        };
        sink.report(
            &META,
            summary.span,
            problem,
            Some(format!(
                "state the finding in one or two sentences, at most {MAX_SUMMARY} characters; \
                 the body has room for the rest"
            )),
        );
    }
}
