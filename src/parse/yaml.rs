//! Front matter YAML → a tree of [`Node`]s that carry their own span, in one pass over
//! saphyr-parser's events (serde_yaml gives values but no positions; `site.yaml` uses it).
//!
//! Scalars resolve by the YAML 1.2 core schema (`schema`): `yes` and `2025-03-26` are
//! strings, and any tag but the schema's is an error, on a value, list or mapping alike. Aliases
//! expand with a bound on the nodes and bytes they create (anchored copies count too), nesting
//! is bounded with aliases expanded, keys are single values, and a repeated key is an error at
//! the repeat — so no input can exhaust memory or the stack, or take quadratic time.

mod schema;

use crate::text_file::{FileId, Span, TextFile};
use saphyr_parser::{Event, Marker, Parser, Tag};
use schema::{core_tag, plain, resolve_scalar, CORE_TAG_PREFIX, SCALAR_TAGS};
use serde_yaml::Value;
use std::collections::{HashMap, HashSet};

/// Most nodes a front matter block may hold, aliases expanded (an alias bomb stops here).
pub const MAX_NODES: usize = 100_000;
/// Most bytes of scalar text aliases may add beyond the block's own size (a bomb of long
/// strings stops here).
pub const MAX_ALIAS_BYTES: usize = 4 * 1024 * 1024;
/// Deepest nesting of lists and mappings.
pub const MAX_DEPTH: usize = 64;

/// One YAML value and the span it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Null,
    /// A scalar other than null: its text as written (unquoted) and what it resolves to.
    Scalar(String, ScalarType),
    Seq(Vec<Node>),
    /// Keys and values in the order written; keys are unique.
    Map(Vec<(Node, Node)>),
}

/// What a non-null scalar resolves to under the YAML 1.2 core schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarType {
    Bool,
    Int,
    Float,
    Str,
}

impl Node {
    /// What the node is, in messages ("text", "a list", …).
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Null => "nothing",
            NodeKind::Scalar(_, ScalarType::Bool) => "a boolean",
            NodeKind::Scalar(_, ScalarType::Int | ScalarType::Float) => "a number",
            NodeKind::Scalar(_, ScalarType::Str) => "text",
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a mapping",
        }
    }

    /// The scalar's text, or `None` for null and collections.
    pub fn scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar(text, _) => Some(text),
            _ => None,
        }
    }

    /// How large the tree is: nodes, bytes of scalar text, and levels of nesting.
    fn size(&self) -> Size {
        let children = |nodes: &mut dyn Iterator<Item = &Node>| {
            nodes.fold(Size::default(), |total, node| {
                let size = node.size();
                Size {
                    nodes: total.nodes + size.nodes,
                    bytes: total.bytes + size.bytes,
                    depth: total.depth.max(size.depth),
                }
            })
        };
        let nested = |inner: Size| Size {
            nodes: inner.nodes + 1,
            depth: inner.depth + 1,
            ..inner
        };
        match &self.kind {
            NodeKind::Seq(items) => nested(children(&mut items.iter())),
            NodeKind::Map(entries) => {
                nested(children(&mut entries.iter().flat_map(|(k, v)| [k, v])))
            }
            NodeKind::Scalar(text, _) => Size {
                nodes: 1,
                bytes: text.len(),
                depth: 0,
            },
            NodeKind::Null => Size {
                nodes: 1,
                bytes: 0,
                depth: 0,
            },
        }
    }

    /// A key's identity for spotting repeats: its text and type (`None` for null).
    fn key_identity(&self) -> Option<(Option<ScalarType>, &str)> {
        match &self.kind {
            NodeKind::Null => Some((None, "")),
            NodeKind::Scalar(text, ty) => Some((Some(*ty), text)),
            _ => None,
        }
    }

    /// The same value as a `serde_yaml::Value` (for fields kept but not read).
    pub fn to_value(&self) -> Value {
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Scalar(text, ScalarType::Str) => Value::String(text.clone()),
            NodeKind::Scalar(text, _) => plain(text),
            NodeKind::Seq(items) => Value::Sequence(items.iter().map(Node::to_value).collect()),
            NodeKind::Map(entries) => Value::Mapping(
                entries
                    .iter()
                    .map(|(k, v)| (k.to_value(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

/// Why a YAML block could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
}

/// Parses the YAML at `start..end` of `source` into a tree of spanned nodes.
/// An empty block gives a null node.
pub fn parse(source: &TextFile, file: FileId, start: usize, end: usize) -> Result<Node, YamlError> {
    let first_line = source.line_of(start);
    // Markers count characters: in ASCII text (nearly all front matter) that is the byte
    // offset; otherwise go through the marker's line and column.
    let ascii = source.text[start..end].is_ascii();
    let to_offset = |m: &Marker| {
        if ascii {
            start + m.index()
        } else {
            source.offset_of(first_line + m.line() - 1, m.col() + 1)
        }
    };
    let mut builder = Builder {
        text: &source.text,
        ..Builder::default()
    };
    for event in Parser::new_from_str(&source.text[start..end]) {
        match event {
            Ok((event, span)) => {
                let span = Span::new(file, to_offset(&span.start), to_offset(&span.end));
                builder.event(event, span)?;
            }
            Err(e) => {
                let mut at = to_offset(e.marker());
                // An unclosed `[` or `{` is only noticed at the end: point at the bracket.
                let content_end = start + source.text[start..end].trim_end().len();
                if at >= content_end && e.info().contains("flow") {
                    if let Some(open) = builder.stack.last() {
                        at = open.span.start;
                    }
                }
                let mut message = e.info().to_string();
                if let Some(open) = builder.open_flow(source) {
                    let opened = source.line_col(open.span.start);
                    if at != open.span.start && source.line_col(at).line != opened.line {
                        let bracket = &source.text[open.span.start..open.span.start + 1];
                        message.push_str(&format!(
                            " (inside the `{bracket}` at line {}, column {}: is it closed?)",
                            opened.line, opened.column
                        ));
                    }
                }
                return Err(YamlError {
                    message,
                    span: Span::new(file, at, at),
                });
            }
        }
    }
    Ok(builder.root.unwrap_or(Node {
        span: Span::new(file, start, start),
        kind: NodeKind::Null,
    }))
}

/// Collects nodes from the event stream with a stack of open collections.
#[derive(Default)]
struct Builder<'t> {
    /// The whole file's text (spans index it).
    text: &'t str,
    stack: Vec<Open>,
    root: Option<Node>,
    /// Anchored nodes by anchor id, for aliases.
    anchors: HashMap<usize, Node>,
    /// Nodes created so far, aliases and anchored copies counted at their full size.
    nodes: usize,
    /// Bytes of scalar text that aliases and anchored copies added.
    alias_bytes: usize,
}

/// How large a tree is (see [`Node::size`]).
#[derive(Debug, Default, Clone, Copy)]
struct Size {
    nodes: usize,
    bytes: usize,
    /// Levels of lists and mappings: 0 for a scalar.
    depth: usize,
}

struct Open {
    anchor: usize,
    span: Span,
    kind: OpenKind,
}

/// A key's identity: its type (`None` for null) and text.
type KeyId = (Option<ScalarType>, String);

enum OpenKind {
    Seq(Vec<Node>),
    /// Entries so far, the keys seen (in large mappings, for repeats: see [`repeats`]), and a
    /// key waiting for its value.
    Map(Vec<(Node, Node)>, HashSet<KeyId>, Option<Node>),
}

impl Builder<'_> {
    /// The innermost open collection when it is a flow one (`[…]` or `{…}`).
    fn open_flow(&self, source: &TextFile) -> Option<&Open> {
        let open = self.stack.last()?;
        let first = source.text.as_bytes().get(open.span.start)?;
        matches!(first, b'[' | b'{').then_some(open)
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), YamlError> {
        match event {
            Event::SequenceStart(anchor, tag) => {
                self.check_tag(tag.as_deref(), &["seq"], span)?;
                self.open(anchor, span, OpenKind::Seq(Vec::new()))?
            }
            Event::MappingStart(anchor, tag) => {
                self.check_tag(tag.as_deref(), &["map"], span)?;
                self.open(
                    anchor,
                    span,
                    OpenKind::Map(Vec::new(), HashSet::new(), None),
                )?
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    let span = Span::new(
                        open.span.file,
                        open.span.start,
                        span.end.max(open.span.start),
                    );
                    let kind = match open.kind {
                        OpenKind::Seq(items) => NodeKind::Seq(items),
                        OpenKind::Map(entries, ..) => NodeKind::Map(entries),
                    };
                    self.finish(open.anchor, Node { span, kind })?;
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1, span)?;
                self.check_tag(tag.as_deref(), SCALAR_TAGS, span)?;
                // The scanner reserves 128 bytes for every plain scalar: the model keeps the
                // values (a 10-character id would hold 129 bytes, a third of lint's memory).
                let mut text = text.into_owned();
                text.shrink_to_fit();
                let kind = resolve_scalar(text, style, tag.as_deref());
                self.finish(anchor, Node { span, kind })?;
            }
            Event::Alias(anchor) => {
                let node = self.anchors.get(&anchor).ok_or_else(|| YamlError {
                    message: "alias to an anchor that is not defined".to_string(),
                    span,
                })?;
                let size = node.size();
                self.copy(size, span)?;
                let kind = self.anchors[&anchor].kind.clone();
                self.place(Node { span, kind })?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks a node's tag: none, or one of the core schema's `allowed` for its kind (any
    /// other asks a YAML loader to build something: `!!python/object/apply:…`, `!foo`).
    fn check_tag(&self, tag: Option<&Tag>, allowed: &[&str], node: Span) -> Result<(), YamlError> {
        let Some(tag) = tag else {
            return Ok(());
        };
        if core_tag(tag).is_some_and(|name| allowed.contains(&name)) {
            return Ok(());
        }
        // As written: `!!x` rather than the `tag:yaml.org,2002:x` it expands to.
        let handle = match tag.handle.as_str() {
            CORE_TAG_PREFIX => "!!",
            other => other,
        };
        Err(YamlError {
            message: format!(
                "tag `{handle}{}` is not supported (front matter takes plain values, lists and \
                 mappings); remove it",
                tag.suffix
            ),
            span: self.tag_span(node),
        })
    }

    /// Where the tag of a node starting at `node` is written: after its anchor, if it has one
    /// first, up to a space or flow indicator.
    fn tag_span(&self, node: Span) -> Span {
        let written = self.text.get(node.start..).unwrap_or("");
        let mut at = 0;
        if written.starts_with('&') {
            let anchor = written.find(char::is_whitespace).unwrap_or(written.len());
            at = anchor + written[anchor..].len() - written[anchor..].trim_start().len();
        }
        let tag = &written[at..];
        let len = tag
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}'))
            .unwrap_or(tag.len());
        let start = node.start + at;
        Span::new(node.file, start, start + len)
    }

    fn open(&mut self, anchor: usize, span: Span, kind: OpenKind) -> Result<(), YamlError> {
        self.check_depth(1, span)?;
        self.count(1, span)?;
        self.stack.push(Open { anchor, span, kind });
        Ok(())
    }

    /// Checks that `levels` more levels fit under the open collections.
    fn check_depth(&self, levels: usize, span: Span) -> Result<(), YamlError> {
        if self.stack.len() + levels > MAX_DEPTH {
            return Err(YamlError {
                message: format!(
                    "nested deeper than {MAX_DEPTH} levels (aliases expanded); flatten it"
                ),
                span,
            });
        }
        Ok(())
    }

    fn count(&mut self, nodes: usize, span: Span) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                message: format!(
                    "more than {MAX_NODES} values once aliases are expanded; write the values \
                     out instead of repeating aliases"
                ),
                span,
            });
        }
        Ok(())
    }

    /// Counts a copy of a tree of `size` (an alias, or an anchor's remembered copy).
    fn copy(&mut self, size: Size, span: Span) -> Result<(), YamlError> {
        self.check_depth(size.depth, span)?;
        self.count(size.nodes, span)?;
        self.alias_bytes = self.alias_bytes.saturating_add(size.bytes);
        if self.alias_bytes > MAX_ALIAS_BYTES {
            return Err(YamlError {
                message: format!(
                    "aliases expand to more than {} MiB of text; write the values out instead",
                    MAX_ALIAS_BYTES / (1024 * 1024)
                ),
                span,
            });
        }
        Ok(())
    }

    /// Remembers an anchored node (its copy counts against the bounds), then places it.
    fn finish(&mut self, anchor: usize, node: Node) -> Result<(), YamlError> {
        if anchor != 0 {
            let size = node.size();
            self.copy(Size { depth: 0, ..size }, node.span)?;
            self.anchors.insert(anchor, node.clone());
        }
        self.place(node)
    }

    /// Places a finished node: as a key, a value, an item, or the root.
    fn place(&mut self, node: Node) -> Result<(), YamlError> {
        let Some(open) = self.stack.last_mut() else {
            self.root.get_or_insert(node);
            return Ok(());
        };
        match &mut open.kind {
            OpenKind::Seq(items) => items.push(node),
            OpenKind::Map(entries, seen, pending) => match pending.take() {
                None => {
                    if node.key_identity().is_none() {
                        return Err(YamlError {
                            message: format!(
                                "a key must be a single value, not {}",
                                node.type_name()
                            ),
                            span: node.span,
                        });
                    }
                    *pending = Some(node);
                }
                Some(key) => {
                    if repeats(entries, seen, &key) {
                        let name = key.scalar().unwrap_or("~");
                        return Err(YamlError {
                            message: format!("key `{name}` appears twice"),
                            span: key.span,
                        });
                    }
                    entries.push((key, node));
                }
            },
        }
        Ok(())
    }
}

/// Mappings with fewer keys than this look for a repeated key along their keys; larger ones
/// keep a set of them, so a mapping of any size costs linear time.
const SMALL_MAP: usize = 16;

/// Whether `key` (a single value) repeats a key of `entries`, the mapping's entries so far;
/// `seen` holds their identities once the mapping has [`SMALL_MAP`] entries.
fn repeats(entries: &[(Node, Node)], seen: &mut HashSet<KeyId>, key: &Node) -> bool {
    let Some((ty, text)) = key.key_identity() else {
        return false;
    };
    if entries.len() < SMALL_MAP {
        return (entries.iter()).any(|(k, _)| k.key_identity() == Some((ty, text)));
    }
    if seen.is_empty() {
        let known = entries.iter().filter_map(|(k, _)| k.key_identity());
        seen.extend(known.map(|(ty, text)| (ty, text.to_string())));
    }
    !seen.insert((ty, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Node, YamlError> {
        let source = TextFile::new("a.md", text.to_string());
        parse(&source, 0, 0, text.len())
    }

    fn get<'n>(node: &'n Node, key: &str) -> &'n Node {
        let NodeKind::Map(entries) = &node.kind else {
            panic!("not a map")
        };
        &entries
            .iter()
            .find(|(k, _)| k.scalar() == Some(key))
            .expect("key")
            .1
    }

    #[test]
    fn scalars_hold_only_their_text() {
        // The model keeps every value: a short id must not carry the scanner's reserve.
        let root = parse_str("id: a\nrelated:\n  - x\n  - 'quoted'\n").unwrap();
        let NodeKind::Seq(items) = &get(&root, "related").kind else {
            panic!("not a list")
        };
        for node in [get(&root, "id"), &items[0], &items[1]] {
            let NodeKind::Scalar(text, _) = &node.kind else {
                panic!("not a scalar")
            };
            assert_eq!(text.capacity(), text.len(), "{text:?}");
        }
    }

    #[test]
    fn finds_keys_and_items() {
        let text = "id: a\nrelated:\n  - x\n  - yy\nmap: {k: v}\n";
        let root = parse_str(text).unwrap();
        let NodeKind::Seq(items) = &get(&root, "related").kind else {
            panic!("not a list")
        };
        assert_eq!(items[1].scalar(), Some("yy"));
        assert_eq!(&text[items[1].span.start..items[1].span.end], "yy");
        let v = get(get(&root, "map"), "k");
        assert_eq!(&text[v.span.start..v.span.end], "v");
    }

    #[test]
    fn resolves_scalars_as_yaml_1_2() {
        let text = "a: yes\nb: 2025-03-26\nc: true\nd: 12\ne: 1.5\nf:\ng: '12'\nh: 0x1f\n";
        let value = parse_str(text).unwrap().to_value();
        assert_eq!(value["a"], Value::String("yes".into()));
        assert_eq!(value["b"], Value::String("2025-03-26".into()));
        assert_eq!(value["c"], Value::Bool(true));
        assert_eq!(value["d"], Value::Number(12.into()));
        assert_eq!(value["e"], Value::Number(1.5.into()));
        assert_eq!(value["f"], Value::Null);
        assert_eq!(value["g"], Value::String("12".into()));
        assert_eq!(value["h"], Value::Number(31.into()));
    }

    #[test]
    fn spans_are_right_in_non_ascii_text_too() {
        let text = "title: café\nrelated:\n  - naïve-note\n";
        let root = parse_str(text).unwrap();
        let NodeKind::Seq(items) = &get(&root, "related").kind else {
            panic!("not a list")
        };
        assert_eq!(&text[items[0].span.start..items[0].span.end], "naïve-note");
    }

    #[test]
    fn unclosed_bracket_points_at_the_bracket() {
        let text = "id: a\ntitle: [unclosed\n";
        let err = parse_str(text).unwrap_err();
        assert_eq!(err.span.start, text.find('[').unwrap());
    }

    #[test]
    fn repeated_key_is_an_error_at_the_repeat() {
        let text = "id: a\ntitle: t\nid: b\n";
        let err = parse_str(text).unwrap_err();
        assert_eq!(err.span.start, text.rfind("id").unwrap());
        // Past SMALL_MAP keys too, whether the first of the two comes before or after it,
        // and typed keys: `1` and `"1"` are two keys.
        for (first, repeat) in [(3, 30), (20, 25), (0, 16)] {
            let keys: Vec<String> = (0..40).map(|n| format!("k{n}: v\n")).collect();
            let mut text = keys.concat();
            text.insert_str(keys[..repeat].concat().len(), &format!("k{first}: again\n"));
            let err = parse_str(&text).unwrap_err();
            assert_eq!(
                err.span.start,
                text.find("again").unwrap() - 2 - format!("k{first}").len()
            );
            assert!(err.message.contains("appears twice"), "{}", err.message);
        }
        let typed: String = (0..20).map(|n| format!("{n}: v\n\"{n}\": w\n")).collect();
        assert!(parse_str(&typed).is_ok());
    }

    #[test]
    fn alias_bomb_is_bounded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = format!("*a{}", i - 1);
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        let err = parse_str(&text).unwrap_err();
        assert!(err.message.contains("aliases"), "{}", err.message);
    }

    #[test]
    fn tags_other_than_the_core_schema_are_errors_on_any_node() {
        for text in [
            "clients: !!python/object/apply:os.system [echo]\n",
            "clients: !!python/object/apply:os.system\n  - echo\n",
            "support: !foo {}\n",
            "support: !foo\n  a: b\n",
            "list: !!map [a]\n",
            "map: !!seq {a: b}\n",
            "title: !!binary aGVsbG8=\n",
            "title: &t !foo x\n",
            "list: &l !!map\n  - x\n",
        ] {
            let err = parse_str(text).unwrap_err();
            assert!(err.message.starts_with("tag `"), "{text}: {}", err.message);
            let tag = text
                .split_whitespace()
                .find(|w| w.starts_with('!'))
                .unwrap();
            assert_eq!(&text[err.span.start..err.span.end], tag, "{text}");
        }
        let text = "a: !!seq [x]\nb: !!map {k: v}\nc: !!str 12\n";
        let value = parse_str(text).unwrap().to_value();
        assert_eq!(value["a"][0], Value::String("x".into()));
        assert_eq!(value["c"], Value::String("12".into()));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let text = format!("a: {}{}\n", "[".repeat(200), "]".repeat(200));
        assert!(parse_str(&text).unwrap_err().message.contains("nested"));
    }
}
