//! FN007 missing-field: a required front matter field is absent.

use crate::diagnostic::Severity;
use crate::lint::{Context, RuleMeta, Sink};
use crate::model::{Document, KeyRef, ObjectKind};
use crate::parse::object_kind;
use crate::schema;
use crate::source::Span;
use std::collections::BTreeMap;

pub const META: RuleMeta = RuleMeta {
    code: "FN007",
    name: "missing-field",
    severity: Severity::Error,
    summary: "a required front matter field is absent",
    doc: "## What it flags\n\nA note, client, capability, guide, source or support cell without \
a field it requires (a note's `sources`, a source's `url`, a cell's `status`, …).\n\n## Why\n\n\
Pages, the matrix and other rules rely on these fields; a note without `lastVerified` cannot \
say how fresh it is.\n\n## Example\n\n```yaml\n---\nid: a-note\ntitle: A note\n---\n```\n\n\
Add the missing fields; `fieldnotes schema` lists them.",
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if doc.front_matter_error.is_some() {
            continue;
        }
        for (object, span, present) in objects(doc) {
            for field in schema::fields(object).iter().filter(|f| f.required) {
                if !present
                    .iter()
                    .any(|k| k.key == field.name && !is_null(cx, k))
                {
                    sink.report(
                        &META,
                        span,
                        format!(
                            "{} is missing required field `{}`",
                            schema::object_name(object),
                            field.name
                        ),
                        Some(format!("add `{}:` ({})", field.name, field.doc)),
                    );
                }
            }
        }
    }
}

/// Each object in a document (the front matter and nested ones) with the keys it has.
fn objects(doc: &Document) -> Vec<(ObjectKind, Span, Vec<&KeyRef>)> {
    let top = object_kind(doc.section);
    let mut map: BTreeMap<(Span, ObjectKind), Vec<&KeyRef>> = BTreeMap::new();
    map.entry((doc.front_matter, top)).or_default();
    for key in &doc.keys {
        let span = if key.object == top {
            doc.front_matter
        } else {
            key.object_span
        };
        map.entry((span, key.object)).or_default().push(key);
    }
    map.into_iter()
        .map(|((span, kind), keys)| (kind, first_line(span), keys))
        .collect()
}

/// Findings about a whole object point at its first line only.
fn first_line(span: Span) -> Span {
    Span::new(span.file, span.start, span.start)
}

/// A key written with no value (`title:`) counts as missing.
fn is_null(cx: &Context<'_>, key: &KeyRef) -> bool {
    let text = &cx.index.files[key.span.file].text;
    let rest = &text[key.span.end.min(text.len())..];
    let value = rest.split('\n').next().unwrap_or("");
    let value = value.trim_start_matches(':').trim();
    let after_line = rest.split('\n').nth(1).unwrap_or("");
    let nested = after_line.starts_with(' ') || after_line.starts_with('-');
    (value.is_empty() || value == "~" || value == "null") && !nested
}
