//! Reading typed fields out of a YAML mapping, recording every key, its position and every
//! value of the wrong type, so that one bad field never hides the others.

use super::source_path::source_path;
use super::url_pin::url_pin;
use super::yaml::{Node, NodeKind};
use crate::model::{CommentCut, KeyRef, ObjectKind, SourceRef, Spanned, TypeError};
use crate::text_file::Span;
use std::borrow::Cow;

/// What reading front matter collects besides the values: keys and type errors.
#[derive(Debug, Default)]
pub struct Collected {
    pub keys: Vec<KeyRef>,
    pub type_errors: Vec<TypeError>,
    pub comment_cuts: Vec<CommentCut>,
}

/// The fields whose values are prose (a sentence, not an id or a date), where a ` #` that
/// YAML reads as the start of a comment almost always cuts the author's text short.
pub const PROSE_FIELDS: &[&str] = &["title", "summary", "notes", "reason", "quote"];

/// Reads the fields of one YAML mapping (a front matter block, a source, a support cell),
/// taking each value out of the tree as it is read, so nothing is copied.
pub struct Reader<'a> {
    /// The mapping's span (where findings about the object as a whole point).
    span: Span,
    entries: Vec<(Node, Node)>,
    /// Field path prefix in messages (`sources[1].`).
    prefix: String,
    /// The text of the file being read (values' spans are offsets into it).
    file_text: &'a str,
    out: &'a mut Collected,
}

impl<'a> Reader<'a> {
    /// Starts reading `map` (a mapping node, or null for an empty one of `file_text`) as an
    /// object of `kind`, recording all its keys.
    pub fn new(
        kind: ObjectKind,
        map: Node,
        prefix: String,
        file_text: &'a str,
        out: &'a mut Collected,
    ) -> Reader<'a> {
        let span = map.span;
        let entries = match map.kind {
            NodeKind::Map(entries) => entries,
            _ => Vec::new(),
        };
        for (key, _) in &entries {
            out.keys.push(KeyRef {
                object: kind,
                object_span: span,
                key: key_name(kind, key),
                span: key.span,
            });
        }
        Reader {
            span,
            entries,
            prefix,
            file_text,
            out,
        }
    }

    /// The keys `known` does not accept, with their values (kept for the linter).
    pub fn unknown(
        &self,
        known: impl Fn(&str) -> bool,
    ) -> Vec<(Spanned<String>, serde_yaml::Value)> {
        self.entries
            .iter()
            .filter_map(|(k, v)| {
                let name = k.scalar()?;
                (!known(name)).then(|| (Spanned::new(name.to_string(), k.span), v.to_value()))
            })
            .collect()
    }

    /// Takes the value under `key`, if it is there and not null.
    fn take(&mut self, key: &str) -> Option<Node> {
        let (_, value) = self
            .entries
            .iter_mut()
            .find(|(k, _)| k.scalar() == Some(key))?;
        let null = Node {
            span: value.span,
            kind: NodeKind::Null,
        };
        match std::mem::replace(value, null) {
            Node {
                kind: NodeKind::Null,
                ..
            } => None,
            node => Some(node),
        }
    }

    fn wrong_type(&mut self, field: String, expected: &'static str, found: &Node) {
        self.out.type_errors.push(TypeError {
            field,
            expected,
            found: found.type_name(),
            span: found.span,
        });
    }

    /// A scalar field read as text (YAML 1.2: `yes` and `2025-03-26` stay strings).
    pub fn text(&mut self, key: &str) -> Option<Spanned<String>> {
        let node = self.take(key)?;
        match node.kind {
            NodeKind::Scalar(text, _) => {
                if PROSE_FIELDS.contains(&key) {
                    if let Some(comment) = comment_after_plain(self.file_text, node.span) {
                        self.out.comment_cuts.push(CommentCut {
                            field: format!("{}{key}", self.prefix),
                            kept: text.clone(),
                            comment,
                        });
                    }
                }
                Some(Spanned::new(text, node.span))
            }
            _ => {
                self.wrong_type(format!("{}{key}", self.prefix), "a single value", &node);
                None
            }
        }
    }

    /// A list of scalars. A lone scalar where a list belongs is a type error.
    pub fn list(&mut self, key: &str) -> Vec<Spanned<String>> {
        let mut out = Vec::new();
        for (i, item) in self.items(key).into_iter().enumerate() {
            match item.kind {
                NodeKind::Scalar(text, _) => out.push(Spanned::new(text, item.span)),
                _ => {
                    let field = format!("{}{key}[{i}]", self.prefix);
                    self.wrong_type(field, "a single value", &item);
                }
            }
        }
        out
    }

    /// A list of 1-based line numbers; anything but a positive whole number is a type error.
    pub fn lines(&mut self, key: &str) -> Vec<Spanned<usize>> {
        let mut out = Vec::new();
        for (i, item) in self.items(key).into_iter().enumerate() {
            let line = match &item.kind {
                NodeKind::Scalar(text, _) => text.trim().parse::<usize>().ok().filter(|&n| n > 0),
                _ => None,
            };
            match line {
                Some(line) => out.push(Spanned::new(line, item.span)),
                None => {
                    let field = format!("{}{key}[{i}]", self.prefix);
                    self.wrong_type(field, "a line number (1 or more)", &item);
                }
            }
        }
        out
    }

    /// A nested object field of `kind` (a mapping), read by `read`; anything else is a type
    /// error.
    pub fn object<T>(
        &mut self,
        key: &str,
        kind: ObjectKind,
        read: impl FnOnce(&mut Reader<'_>) -> T,
    ) -> Option<T> {
        let node = self.take(key)?;
        let map = self.fields_of(node, key.to_string())?;
        let prefix = format!("{}{key}.", self.prefix);
        Some(self.nested(kind, map, prefix, read))
    }

    /// Every entry of the mapping being read, its value as text: a scalar as written, a list
    /// or mapping as compact JSON (what an open object such as `clientInfo` keeps).
    pub fn values(&self) -> Vec<(Spanned<String>, String)> {
        self.entries
            .iter()
            .filter_map(|(k, v)| {
                let name = Spanned::new(k.scalar()?.to_string(), k.span);
                let value = match &v.kind {
                    NodeKind::Scalar(text, _) => text.clone(),
                    _ => serde_json::to_string(&v.to_value()).unwrap_or_default(),
                };
                Some((name, value))
            })
            .collect()
    }

    /// The items of a list field; anything else is a type error.
    fn items(&mut self, key: &str) -> Vec<Node> {
        let Some(node) = self.take(key) else {
            return Vec::new();
        };
        match node.kind {
            NodeKind::Seq(items) => items,
            _ => {
                self.wrong_type(format!("{}{key}", self.prefix), "a list", &node);
                Vec::new()
            }
        }
    }

    /// A list of sources, each a mapping read as an object of kind `Source`.
    pub fn sources(&mut self, key: &str) -> Vec<SourceRef> {
        let mut out = Vec::new();
        for (i, item) in self.items(key).into_iter().enumerate() {
            let Some(map) = self.fields_of(item, format!("{key}[{i}]")) else {
                continue;
            };
            let prefix = format!("{}{key}[{i}].", self.prefix);
            out.push(self.nested(ObjectKind::Source, map, prefix, |r| {
                let (url, title, commit) = (r.text("url"), r.text("title"), r.text("commit"));
                let path = r.text("path");
                SourceRef {
                    span: r.span,
                    url_pin: url.as_ref().and_then(url_pin),
                    url,
                    title,
                    commit,
                    location: (path.as_ref()).map(|path| source_path(path, r.file_text)),
                    path,
                    date: r.text("date"),
                    quote: r.text("quote"),
                    retrieved: r.text("retrieved"),
                    pin: r.text("pin"),
                }
            }));
        }
        out
    }

    /// The entries of a mapping field whose values are mappings: key (spanned) and value.
    pub fn entries(&mut self, key: &str) -> Vec<(Spanned<String>, Node)> {
        let Some(node) = self.take(key) else {
            return Vec::new();
        };
        let NodeKind::Map(entries) = node.kind else {
            self.wrong_type(format!("{}{key}", self.prefix), "a mapping", &node);
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            let name = k.scalar().unwrap_or_default().to_string();
            if let Some(map) = self.fields_of(v, format!("{key}.{name}")) {
                out.push((Spanned::new(name, k.span), map));
            }
        }
        out
    }

    /// A nested object's mapping, or a type error at `field` when it is not one.
    fn fields_of(&mut self, node: Node, field: String) -> Option<Node> {
        match node.kind {
            NodeKind::Map(_) => Some(node),
            _ => {
                let field = format!("{}{field}", self.prefix);
                self.wrong_type(field, "a mapping of fields", &node);
                None
            }
        }
    }

    /// Reads a nested object of `kind` (a source, a support cell) with this reader's collector.
    pub fn nested<T>(
        &mut self,
        kind: ObjectKind,
        map: Node,
        prefix: String,
        read: impl FnOnce(&mut Reader<'_>) -> T,
    ) -> T {
        let mut reader = Reader::new(kind, map, prefix, self.file_text, self.out);
        read(&mut reader)
    }

    /// The span of the mapping being read.
    pub fn span(&self) -> Span {
        self.span
    }
}

/// A key's name, borrowed from the schema table when it names a known field.
fn key_name(kind: ObjectKind, key: &Node) -> Cow<'static, str> {
    let name = key.scalar().unwrap_or("<complex key>");
    match crate::field_table::find(kind, name) {
        Some(field) => Cow::Borrowed(field.name),
        None => Cow::Owned(name.to_string()),
    }
}

/// The comment that follows a plain (unquoted) scalar at `value` on its last line, if one
/// does: YAML ends a plain scalar at ` #`, so what follows is dropped as a comment.
fn comment_after_plain(file_text: &str, value: Span) -> Option<Span> {
    let written = file_text.get(value.start..value.end)?;
    if written.starts_with(['"', '\'', '|', '>']) {
        return None;
    }
    let rest = &file_text[value.end..];
    let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
    let comment = line.trim_start_matches([' ', '\t']);
    // A `#` straight after the value is part of it (`C#`); only one after a space is a comment.
    if !comment.starts_with('#') || comment.len() == line.len() {
        return None;
    }
    let start = value.end + (line.len() - comment.len());
    Some(Span::new(value.file, start, value.end + line.len()))
}
