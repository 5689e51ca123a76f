//! Reading typed fields out of a YAML mapping, recording every key, its position and every
//! value of the wrong type, so that one bad field never hides the others.

use super::yaml::PosTree;
use crate::model::{KeyRef, ObjectKind, SourceRef, Spanned, TypeError};
use crate::source::{SourceFile, Span};
use serde_yaml::{Mapping, Value};

/// What reading front matter collects besides the values: keys and type errors.
#[derive(Debug, Default)]
pub struct Collected {
    pub keys: Vec<KeyRef>,
    pub type_errors: Vec<TypeError>,
}

/// Reads the fields of one YAML mapping (a front matter block, a source, a support cell).
pub struct Reader<'a> {
    source: &'a SourceFile,
    map: &'a Mapping,
    pos: &'a PosTree,
    /// Field path prefix in messages (`sources[1].`).
    prefix: String,
    out: &'a mut Collected,
}

impl<'a> Reader<'a> {
    /// Starts reading `map` as an object of `kind`, recording all its keys.
    pub fn new(
        source: &'a SourceFile,
        kind: ObjectKind,
        map: &'a Mapping,
        pos: &'a PosTree,
        prefix: String,
        out: &'a mut Collected,
    ) -> Reader<'a> {
        for key in map.keys() {
            let key = scalar_text(key).unwrap_or_else(|| "<complex key>".to_string());
            let span = pos.key_span(&key).unwrap_or(pos.span);
            out.keys.push(KeyRef {
                object: kind,
                object_span: pos.span,
                key,
                span,
            });
        }
        Reader {
            source,
            map,
            pos,
            prefix,
            out,
        }
    }

    /// The span of the value under `key` (or of the object, when unknown).
    pub fn span_of(&self, key: &str) -> Span {
        self.pos.get(key).map_or(self.pos.span, |p| p.span)
    }

    fn value(&self, key: &str) -> Option<&'a Value> {
        match self.map.get(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    fn wrong_type(&mut self, field: String, expected: &'static str, found: &Value, span: Span) {
        self.out.type_errors.push(TypeError {
            field,
            expected,
            found: type_name(found),
            span,
        });
    }

    /// A scalar field read as text (YAML 1.2: `yes` and `2025-03-26` stay strings).
    pub fn text(&mut self, key: &str) -> Option<Spanned<String>> {
        let value = self.value(key)?;
        let span = self.span_of(key);
        match self.scalar(value, span) {
            Some(text) => Some(Spanned::new(text, span)),
            None => {
                self.wrong_type(
                    format!("{}{key}", self.prefix),
                    "a single value",
                    value,
                    span,
                );
                None
            }
        }
    }

    /// A list of scalars. A lone scalar where a list belongs is a type error.
    pub fn list(&mut self, key: &str) -> Vec<Spanned<String>> {
        let Some((items, span)) = self.shaped(key, "a list", Value::as_sequence) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let item_span = self
                .pos
                .get(key)
                .and_then(|p| p.item(i))
                .map_or(span, |p| p.span);
            match self.scalar(item, item_span) {
                Some(text) => out.push(Spanned::new(text, item_span)),
                None => self.wrong_type(
                    format!("{}{key}[{i}]", self.prefix),
                    "a single value",
                    item,
                    item_span,
                ),
            }
        }
        out
    }

    /// A list of sources, each a mapping read as an object of kind `Source`.
    pub fn sources(&mut self, key: &str) -> Vec<SourceRef> {
        let mut out = Vec::new();
        for (i, map, pos) in self.maps_in_list(key) {
            let prefix = format!("{}{key}[{i}].", self.prefix);
            let mut r = Reader::new(self.source, ObjectKind::Source, map, pos, prefix, self.out);
            out.push(SourceRef {
                span: pos.span,
                url: r.text("url"),
                title: r.text("title"),
                commit: r.text("commit"),
                path: r.text("path"),
                date: r.text("date"),
            });
        }
        out
    }

    fn maps_in_list(&mut self, key: &str) -> Vec<(usize, &'a Mapping, &'a PosTree)> {
        let Some((items, _)) = self.shaped(key, "a list", Value::as_sequence) else {
            return Vec::new();
        };
        let list_pos = self.pos.get(key);
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let pos = list_pos.and_then(|p| p.item(i)).unwrap_or(self.pos);
            if let Some(map) = self.fields_of(item, format!("{key}[{i}]"), pos.span) {
                out.push((i, map, pos));
            }
        }
        out
    }

    /// The value under `key` if `extract` accepts its shape; a type error otherwise.
    fn shaped<T>(
        &mut self,
        key: &str,
        expected: &'static str,
        extract: impl Fn(&'a Value) -> Option<T>,
    ) -> Option<(T, Span)> {
        let value = self.value(key)?;
        let span = self.span_of(key);
        match extract(value) {
            Some(shaped) => Some((shaped, span)),
            None => {
                self.wrong_type(format!("{}{key}", self.prefix), expected, value, span);
                None
            }
        }
    }

    /// A nested object's mapping, or a type error at `field` when it is not one.
    fn fields_of(&mut self, value: &'a Value, field: String, span: Span) -> Option<&'a Mapping> {
        match value {
            Value::Mapping(map) => Some(map),
            other => {
                let field = format!("{}{field}", self.prefix);
                self.wrong_type(field, "a mapping of fields", other, span);
                None
            }
        }
    }

    /// The entries of a mapping field: key (spanned), value mapping, its positions.
    pub fn entries(&mut self, key: &str) -> Vec<(Spanned<String>, &'a Mapping, &'a PosTree)> {
        let Some((map, span)) = self.shaped(key, "a mapping", Value::as_mapping) else {
            return Vec::new();
        };
        let map_pos = self.pos.get(key);
        let mut out = Vec::new();
        for (k, v) in map {
            let name = scalar_text(k).unwrap_or_default();
            let key_span = map_pos.and_then(|p| p.key_span(&name)).unwrap_or(span);
            let pos = map_pos.and_then(|p| p.get(&name)).unwrap_or(self.pos);
            if let Some(cell) = self.fields_of(v, format!("{key}.{name}"), pos.span) {
                out.push((Spanned::new(name, key_span), cell, pos));
            }
        }
        out
    }

    /// Reads a nested object of `kind` (a support cell) with this reader's collector.
    pub fn nested<T>(
        &mut self,
        kind: ObjectKind,
        map: &'a Mapping,
        pos: &'a PosTree,
        prefix: String,
        read: impl FnOnce(&mut Reader<'_>) -> T,
    ) -> T {
        let mut reader = Reader::new(self.source, kind, map, pos, prefix, self.out);
        read(&mut reader)
    }

    /// A scalar's text: strings as they are; numbers as written in the file.
    fn scalar(&self, value: &Value, span: Span) -> Option<String> {
        match value {
            Value::String(s) => Some(s.clone()),
            Value::Number(_) | Value::Bool(_) => {
                let written = self.source.text.get(span.start..span.end).map(str::trim);
                Some(match written {
                    Some(w) if !w.is_empty() && !w.contains(['\n', ':']) => w.to_string(),
                    _ => scalar_text(value).unwrap_or_default(),
                })
            }
            _ => None,
        }
    }
}

/// The text of a scalar value, or `None` for collections, null and tagged values.
pub fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// What a YAML value is, in messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}
