//! FN007 missing-field: a required front matter field is absent or empty.

use crate::diagnostic::Severity;
use crate::field_table;
use crate::lint::{Context, Reads, RuleMeta, Scope, Sink};
use crate::model::{Document, KeyRef, ObjectKind};
use crate::parse::object_kind;
use crate::text_file::Span;

pub const META: RuleMeta = RuleMeta {
    code: "FN007",
    name: "missing-field",
    severity: Severity::Error,
    scope: Scope::NoteLocal,
    reads: Reads::FrontMatter,
    summary: "a required front matter field is absent or empty",
    doc: r#"## What it flags

A note, client, capability, guide, source or support cell without a field it requires (a
note's `sources`, a source's `url`, a cell's `status`, …), or with the field written but given
no value (`title:`, `title: ~`) or an empty list (`capabilities: []`). An empty summary is
FN702's.

## Why

Pages, the matrix and other rules rely on these fields; a note without `lastVerified` cannot
say how fresh it is, and one with no `clients` appears on no client's page.

## Example

```yaml
---
id: a-note
title: A note
---
```

Add the missing fields; `fieldnotes schema` lists them."#,
};

pub fn check(cx: &Context<'_>, sink: &mut Sink<'_>) {
    for doc in cx.index.content.documents() {
        if doc.front_matter_error.is_some() {
            continue;
        }
        for (object, span, present) in objects(doc) {
            for field in field_table::fields(object).iter().filter(|f| f.required) {
                let key = present.iter().find(|k| k.key == field.name);
                let object_name = field_table::object_name(object);
                let (at, message) = match key.map(|k| (k, written(cx, k))) {
                    None | Some((_, Written::Nothing)) => (
                        span,
                        format!("{object_name} is missing required field `{}`", field.name),
                    ),
                    Some((k, Written::Empty)) => (
                        k.span,
                        format!("required field `{}` of {object_name} is empty", field.name),
                    ),
                    Some((_, Written::Value)) => continue,
                };
                sink.report(
                    &META,
                    at,
                    message,
                    Some(format!("give `{}:` a value ({})", field.name, field.doc)),
                );
            }
        }
    }
}

/// Each object in a document (the front matter and nested ones) with the keys it has. The
/// parser records the keys of one mapping together, so each object's keys are one run.
fn objects(doc: &Document) -> Vec<(ObjectKind, Span, &[KeyRef])> {
    let top = object_kind(doc.section);
    let mut out = vec![(top, first_line(doc.front_matter), &[][..])];
    for keys in doc
        .keys
        .chunk_by(|a, b| a.object == b.object && a.object_span == b.object_span)
    {
        if keys[0].object == top {
            out[0].2 = keys;
        } else {
            out.push((keys[0].object, first_line(keys[0].object_span), keys));
        }
    }
    out
}

/// Findings about a whole object point at its first line only.
fn first_line(span: Span) -> Span {
    Span::new(span.file, span.start, span.start)
}

/// What a key was given.
enum Written {
    /// No value (`title:`, `title: ~`): the same as no key.
    Nothing,
    /// An empty list or mapping.
    Empty,
    Value,
}

/// Reads what follows `key:` on its line, and whether an indented block follows.
fn written(cx: &Context<'_>, key: &KeyRef) -> Written {
    let text = &cx.index.files[key.span.file].text;
    let rest = &text[key.span.end.min(text.len())..];
    let mut lines = rest.split('\n');
    let value = lines.next().unwrap_or("");
    let value = value.trim_start_matches(['"', '\'']).trim_start();
    let value = value.trim_start_matches(':').trim();
    let value = match value.split(" #").next() {
        Some(v) if !v.starts_with('#') => v.trim(),
        _ => "",
    };
    let after_line = lines.next().unwrap_or("");
    let nested = after_line.starts_with(' ') || after_line.starts_with('-');
    match value {
        "" | "~" | "null" if !nested => Written::Nothing,
        "[]" | "{}" => Written::Empty,
        _ => Written::Value,
    }
}
