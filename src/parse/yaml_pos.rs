//! Where each key and value of a YAML front matter block sits in the file, from
//! saphyr-parser's event spans (serde_yaml gives values but no positions).

use crate::source::{FileId, SourceFile, Span};
use saphyr_parser::{Event, Parser};

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

/// The span of the second occurrence of `key` in any mapping of the tree.
pub fn repeated_key(tree: &PosTree, key: &str) -> Option<Span> {
    match &tree.children {
        Children::None => None,
        Children::Seq(items) => items.iter().find_map(|t| repeated_key(t, key)),
        Children::Map(entries) => entries
            .iter()
            .filter(|e| e.0 == key)
            .nth(1)
            .map(|e| e.1)
            .or_else(|| entries.iter().find_map(|e| repeated_key(&e.2, key))),
    }
}

/// Builds the position tree of the YAML at `yaml_start..yaml_end` in `source`.
/// Returns `None` when the YAML does not parse (serde_yaml reports that error).
pub fn positions(
    source: &SourceFile,
    file: FileId,
    yaml_start: usize,
    yaml_end: usize,
) -> Option<PosTree> {
    let first_line = source.line_col(yaml_start).line;
    let to_offset = |line: usize, col: usize| source.offset_of(first_line + line - 1, col + 1);
    let mut builder = Builder::default();
    for event in Parser::new_from_str(&source.text[yaml_start..yaml_end]) {
        let (event, span) = event.ok()?;
        let span = Span::new(
            file,
            to_offset(span.start.line(), span.start.col()),
            to_offset(span.end.line(), span.end.col()),
        );
        builder.event(event, span);
    }
    builder.root
}

/// Collects nodes from a stream of events with a stack of open collections.
#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    root: Option<PosTree>,
}

enum Open {
    Seq(Span, Vec<PosTree>),
    /// Entries so far, and a key waiting for its value.
    Map(Span, Vec<(String, Span, PosTree)>, Option<(String, Span)>),
}

impl Builder {
    fn event(&mut self, event: Event<'_>, span: Span) {
        match event {
            Event::SequenceStart(..) => self.stack.push(Open::Seq(span, Vec::new())),
            Event::MappingStart(..) => self.stack.push(Open::Map(span, Vec::new(), None)),
            Event::SequenceEnd => {
                if let Some(Open::Seq(start, items)) = self.stack.pop() {
                    let span = Span::new(start.file, start.start, span.end.max(start.end));
                    self.node(
                        PosTree {
                            span,
                            children: Children::Seq(items),
                        },
                        String::new(),
                    );
                }
            }
            Event::MappingEnd => {
                if let Some(Open::Map(start, entries, _)) = self.stack.pop() {
                    let span = Span::new(start.file, start.start, span.end.max(start.end));
                    self.node(
                        PosTree {
                            span,
                            children: Children::Map(entries),
                        },
                        String::new(),
                    );
                }
            }
            Event::Scalar(value, ..) => self.node(PosTree::leaf(span), value.into_owned()),
            Event::Alias(_) => self.node(PosTree::leaf(span), String::new()),
            _ => {}
        }
    }

    /// Places a finished node: as a key, a value, an item, or the root.
    fn node(&mut self, tree: PosTree, scalar: String) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(tree);
                }
            }
            Some(Open::Seq(_, items)) => items.push(tree),
            Some(Open::Map(_, entries, pending)) => match pending.take() {
                None => *pending = Some((scalar, tree.span)),
                Some((key, key_span)) => entries.push((key, key_span, tree)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_items() {
        let text = "---\nid: a\nrelated:\n  - x\n  - yy\nmap: {k: v}\n---\n";
        let source = SourceFile::new("a.md", text.to_string());
        let tree = positions(&source, 0, 4, text.len() - 4).unwrap();
        let item = tree.get("related").unwrap().item(1).unwrap();
        assert_eq!(&text[item.span.start..item.span.end], "yy");
        let lc = source.line_col(tree.key_span("map").unwrap().start);
        assert_eq!((lc.line, lc.column), (6, 1));
        let v = tree.get("map").unwrap().get("k").unwrap();
        assert_eq!(&text[v.span.start..v.span.end], "v");
    }
}
