//! FN703 duplicate-title: two notes (or clients, capabilities, guides) with the same title.

use crate::diagnostic::Severity;
use crate::lint::walk::{self, Common};
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::text_file::Span;
use std::collections::HashMap;

pub const META: RuleMeta = RuleMeta {
    code: "FN703",
    name: "duplicate-title",
    severity: Severity::Warning,
    scope: Scope::Global, // compares every note's title
    reads: Reads::FrontMatter,
    summary: "two files of one section with the same title",
    doc: r#"## What it flags

Two or more research notes (or clients, capabilities, guides) whose titles are the same, case
and surrounding spaces aside. Each is reported with another file that has the title.

## Why

Lists, search results and feeds show titles; two equal ones cannot be told apart. Often the
second note repeats the first and should be merged into it, or one title should say what
differs.

## Example

Two notes titled `Cline defaults to SSE`.

Make each title state its own claim."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    let mut by_title: HashMap<_, Vec<Span>> = HashMap::new();
    for (doc, title) in walk::common(&cx.index.content, Common::Title) {
        let key = (doc.section, title.value.trim().to_lowercase());
        by_title.entry(key).or_default().push(title.span);
    }
    for spans in by_title.values().filter(|spans| spans.len() > 1) {
        walk::report_clashes(
            cx.index,
            sink,
            &META,
            spans,
            |other| format!("the same title as {other}"),
            "give each a title that states its own claim, or merge the two",
        );
    }
}
