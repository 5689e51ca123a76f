//! Front matter YAML → a `serde_yaml::Value` and the position of every key and value, in one
//! pass over saphyr-parser's events (serde_yaml alone gives values but no positions).
//!
//! Scalars resolve by the YAML 1.2 core schema: `yes` and `2025-03-26` are strings. Aliases
//! expand with a bound on the nodes they create, nesting is bounded, and a repeated key is an
//! error at the repeat — so no input can exhaust memory or the stack.

use crate::source::{FileId, SourceFile, Span};
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use serde_yaml::{Mapping, Number, Value};
use std::collections::HashMap;

/// Most nodes a front matter block may hold, aliases expanded (an alias bomb stops here).
pub const MAX_NODES: usize = 100_000;
/// Deepest nesting of lists and mappings.
pub const MAX_DEPTH: usize = 64;

/// The position of one YAML node and, for collections, of its children.
#[derive(Debug, Clone, Default)]
pub struct PosTree {
    pub span: Span,
    pub children: Children,
}

#[derive(Debug, Clone, Default)]
pub enum Children {
    #[default]
    None,
    Seq(Vec<PosTree>),
    /// Key text, key span, value tree.
    Map(Vec<(String, Span, PosTree)>),
}

impl PosTree {
    /// The value under `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&PosTree> {
        match &self.children {
            Children::Map(entries) => entries.iter().find(|e| e.0 == key).map(|e| &e.2),
            _ => None,
        }
    }

    /// The span of `key` itself, if this is a mapping that has it.
    pub fn key_span(&self, key: &str) -> Option<Span> {
        match &self.children {
            Children::Map(entries) => entries.iter().find(|e| e.0 == key).map(|e| e.1),
            _ => None,
        }
    }

    /// The `index`th item, if this is a sequence that long.
    pub fn item(&self, index: usize) -> Option<&PosTree> {
        match &self.children {
            Children::Seq(items) => items.get(index),
            _ => None,
        }
    }

    /// A tree that is only a span (used where positions are unknown).
    pub fn leaf(span: Span) -> PosTree {
        PosTree {
            span,
            children: Children::None,
        }
    }
}

/// Why a YAML block could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
}

/// Parses the YAML at `start..end` of `source` into a value and its positions.
/// An empty block gives `Value::Null`.
pub fn parse(
    source: &SourceFile,
    file: FileId,
    start: usize,
    end: usize,
) -> Result<(Value, PosTree), YamlError> {
    let first_line = source.line_col(start).line;
    let to_offset = |line: usize, col: usize| source.offset_of(first_line + line - 1, col + 1);
    let mut builder = Builder::default();
    for event in Parser::new_from_str(&source.text[start..end]) {
        match event {
            Ok((event, span)) => {
                let span = Span::new(
                    file,
                    to_offset(span.start.line(), span.start.col()),
                    to_offset(span.end.line(), span.end.col()),
                );
                builder.event(event, span)?;
            }
            Err(e) => {
                let mut at = to_offset(e.marker().line(), e.marker().col());
                // An unclosed `[` or `{` is only noticed at the end: point at the bracket.
                let content_end = start + source.text[start..end].trim_end().len();
                if at >= content_end && e.info().contains("flow") {
                    if let Some(open) = builder.stack.last() {
                        at = open.span.start;
                    }
                }
                return Err(YamlError {
                    message: e.info().to_string(),
                    span: Span::new(file, at, at),
                });
            }
        }
    }
    Ok(builder
        .root
        .unwrap_or_else(|| (Value::Null, PosTree::leaf(Span::new(file, start, start)))))
}

/// Collects nodes from the event stream with a stack of open collections.
#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    root: Option<(Value, PosTree)>,
    /// Anchored nodes by anchor id, for aliases.
    anchors: HashMap<usize, Value>,
    /// Nodes created so far, aliases counted at their full size.
    nodes: usize,
}

struct Open {
    anchor: usize,
    span: Span,
    kind: OpenKind,
}

enum OpenKind {
    Seq(Vec<Value>, Vec<PosTree>),
    /// Entries so far, and a key waiting for its value.
    Map(Mapping, Vec<(String, Span, PosTree)>, Option<(Value, Span)>),
}

impl Builder {
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), YamlError> {
        match event {
            Event::SequenceStart(anchor, _) => {
                self.open(anchor, span, OpenKind::Seq(Vec::new(), Vec::new()))?
            }
            Event::MappingStart(anchor, _) => self.open(
                anchor,
                span,
                OpenKind::Map(Mapping::new(), Vec::new(), None),
            )?,
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    let span = Span::new(
                        open.span.file,
                        open.span.start,
                        span.end.max(open.span.start),
                    );
                    let (value, children) = match open.kind {
                        OpenKind::Seq(values, trees) => {
                            (Value::Sequence(values), Children::Seq(trees))
                        }
                        OpenKind::Map(map, trees, _) => (Value::Mapping(map), Children::Map(trees)),
                    };
                    if open.anchor != 0 {
                        self.anchors.insert(open.anchor, value.clone());
                    }
                    self.place(value, PosTree { span, children })?;
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                let value = resolve_scalar(&text, style, tag.as_deref(), span)?;
                if anchor != 0 {
                    self.anchors.insert(anchor, value.clone());
                }
                self.count(1, span)?;
                self.place(value, PosTree::leaf(span))?;
            }
            Event::Alias(anchor) => {
                let value = self
                    .anchors
                    .get(&anchor)
                    .cloned()
                    .ok_or_else(|| YamlError {
                        message: "alias to an anchor that is not defined".to_string(),
                        span,
                    })?;
                self.count(size(&value), span)?;
                self.place(value, PosTree::leaf(span))?;
            }
            _ => {}
        }
        Ok(())
    }

    fn open(&mut self, anchor: usize, span: Span, kind: OpenKind) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError {
                message: format!("nested deeper than {MAX_DEPTH} levels"),
                span,
            });
        }
        self.count(1, span)?;
        self.stack.push(Open { anchor, span, kind });
        Ok(())
    }

    fn count(&mut self, nodes: usize, span: Span) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                message: format!("more than {MAX_NODES} values once aliases are expanded"),
                span,
            });
        }
        Ok(())
    }

    /// Places a finished node: as a key, a value, an item, or the root.
    fn place(&mut self, value: Value, tree: PosTree) -> Result<(), YamlError> {
        let Some(open) = self.stack.last_mut() else {
            self.root.get_or_insert((value, tree));
            return Ok(());
        };
        match &mut open.kind {
            OpenKind::Seq(values, trees) => {
                values.push(value);
                trees.push(tree);
            }
            OpenKind::Map(map, trees, pending) => match pending.take() {
                None => *pending = Some((value, tree.span)),
                Some((key, key_span)) => {
                    let name = key_text(&key);
                    if map.contains_key(&key) {
                        return Err(YamlError {
                            message: format!("key `{name}` appears twice"),
                            span: key_span,
                        });
                    }
                    map.insert(key, value);
                    trees.push((name, key_span, tree));
                }
            },
        }
        Ok(())
    }
}

/// How many nodes a value holds.
fn size(value: &Value) -> usize {
    match value {
        Value::Sequence(items) => 1 + items.iter().map(size).sum::<usize>(),
        Value::Mapping(map) => 1 + map.iter().map(|(k, v)| size(k) + size(v)).sum::<usize>(),
        Value::Tagged(t) => 1 + size(&t.value),
        _ => 1,
    }
}

fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        _ => "<complex key>".to_string(),
    }
}

/// A scalar's value under the YAML 1.2 core schema (quoted and block scalars are strings).
fn resolve_scalar(
    text: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
    span: Span,
) -> Result<Value, YamlError> {
    if let Some(tag) = tag {
        return match (tag.handle.as_str(), tag.suffix.as_str()) {
            ("tag:yaml.org,2002:" | "!!", "str") => Ok(Value::String(text.to_string())),
            ("tag:yaml.org,2002:" | "!!", "null" | "bool" | "int" | "float") => Ok(plain(text)),
            _ => Err(YamlError {
                message: format!(
                    "tag `{}{}` is not supported; remove it",
                    tag.handle, tag.suffix
                ),
                span,
            }),
        };
    }
    Ok(match style {
        ScalarStyle::Plain => plain(text),
        _ => Value::String(text.to_string()),
    })
}

/// A plain scalar: null, boolean, integer, float, or else a string.
fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Number(f64::INFINITY.into())
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Number(f64::NEG_INFINITY.into()),
        ".nan" | ".NaN" | ".NAN" => return Value::Number(f64::NAN.into()),
        _ => {}
    }
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return Value::String(text.to_string());
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(n) = u64::from_str_radix(hex, 16) {
            return Value::Number(Number::from(n));
        }
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if let Ok(n) = u64::from_str_radix(oct, 8) {
            return Value::Number(Number::from(n));
        }
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = text.parse::<i64>() {
            return Value::Number(Number::from(n));
        }
        if let Ok(n) = text.parse::<u64>() {
            return Value::Number(Number::from(n));
        }
    }
    let is_float = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().any(|b| b.is_ascii_digit());
    if is_float {
        if let Ok(f) = text.parse::<f64>() {
            return Value::Number(f.into());
        }
    }
    Value::String(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<(Value, PosTree), YamlError> {
        let source = SourceFile::new("a.md", text.to_string());
        parse(&source, 0, 0, text.len())
    }

    #[test]
    fn finds_keys_and_items() {
        let text = "id: a\nrelated:\n  - x\n  - yy\nmap: {k: v}\n";
        let (value, tree) = parse_str(text).unwrap();
        assert_eq!(value["related"][1], Value::String("yy".into()));
        let item = tree.get("related").unwrap().item(1).unwrap();
        assert_eq!(&text[item.span.start..item.span.end], "yy");
        let v = tree.get("map").unwrap().get("k").unwrap();
        assert_eq!(&text[v.span.start..v.span.end], "v");
    }

    #[test]
    fn resolves_scalars_as_yaml_1_2() {
        let (value, _) =
            parse_str("a: yes\nb: 2025-03-26\nc: true\nd: 12\ne: 1.5\nf:\ng: '12'\n").unwrap();
        assert_eq!(value["a"], Value::String("yes".into()));
        assert_eq!(value["b"], Value::String("2025-03-26".into()));
        assert_eq!(value["c"], Value::Bool(true));
        assert_eq!(value["d"], Value::Number(12.into()));
        assert_eq!(value["e"], Value::Number(1.5.into()));
        assert_eq!(value["f"], Value::Null);
        assert_eq!(value["g"], Value::String("12".into()));
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
    fn deep_nesting_is_bounded() {
        let text = format!("a: {}{}\n", "[".repeat(200), "]".repeat(200));
        assert!(parse_str(&text).unwrap_err().message.contains("nested"));
    }
}
