//! Code blocks in TypeScript, Python, JSON, YAML and shell highlighted by tree-sitter: a real
//! parser per language and each grammar crate's own highlight queries, 3–8× less CPU than
//! syntect's regex grammars on the benchmark's blocks (BENCHMARKS.md, issue 17). Tokens get
//! the `hl-` classes syntect would give the same token ([`CLASSES`]), so the theme's
//! stylesheet colours both engines alike; every other language stays with syntect.

use crate::render::escape;
use std::cell::RefCell;
use std::sync::OnceLock;
use tree_sitter::Language;
use tree_sitter_highlight::{HighlightConfiguration, HighlightEvent, Highlighter};

/// The crates that decide this engine's output, for the disk cache key.
pub const ID: &str = "tree-sitter-highlight-0.27.1[typescript-0.23.2+javascript-0.25.0,python-0.25.0,json-0.24.8,yaml-0.7.2,bash-0.25.1]";

/// Capture names the queries use, each with the `hl-` classes of the TextMate scope syntect
/// gives the same token (`keyword` → `hl-keyword`, `function` → `hl-entity hl-name
/// hl-function`). A capture takes the longest listed prefix (`punctuation.bracket` →
/// `punctuation`); an unlisted one is left unmarked.
const CLASSES: [(&str, &str); 27] = [
    ("attribute", "hl-entity hl-other hl-attribute-name"),
    ("boolean", "hl-constant hl-language"),
    ("comment", "hl-comment"),
    ("constant", "hl-constant"),
    ("constant.builtin", "hl-constant hl-language"),
    ("constructor", "hl-entity hl-name hl-function"),
    ("embedded", "hl-meta hl-embedded"),
    ("escape", "hl-constant hl-character hl-escape"),
    ("function", "hl-entity hl-name hl-function"),
    ("function.builtin", "hl-support hl-function"),
    ("keyword", "hl-keyword"),
    ("label", "hl-entity hl-name hl-label"),
    ("module", "hl-entity hl-name hl-namespace"),
    ("number", "hl-constant hl-numeric"),
    ("operator", "hl-keyword hl-operator"),
    ("property", "hl-variable hl-other hl-property"),
    ("punctuation", "hl-punctuation"),
    (
        "punctuation.special",
        "hl-punctuation hl-section hl-embedded",
    ),
    ("string", "hl-string"),
    ("string.special", "hl-string hl-regexp"),
    ("string.special.key", "hl-entity hl-name hl-tag"),
    ("tag", "hl-entity hl-name hl-tag"),
    ("type", "hl-entity hl-name hl-type"),
    ("type.builtin", "hl-support hl-type"),
    ("variable", "hl-variable"),
    ("variable.builtin", "hl-variable hl-language"),
    ("variable.parameter", "hl-variable hl-parameter"),
];

/// A YAML mapping key is a `property`: coloured as syntect colours it (`entity.name.tag`).
const KEY: &str = "hl-entity hl-name hl-tag";

/// One language tree-sitter highlights.
struct Grammar {
    /// Fence languages it answers to, lower case (syntect's names and extensions for it).
    names: &'static [&'static str],
    language: fn() -> Language,
    /// Highlight queries, joined in this order: TypeScript's add to JavaScript's, and only
    /// after them do its parameters (`variable.parameter`) keep their colour.
    highlights: &'static [&'static str],
    locals: &'static str,
    /// Whether a `property` is a mapping key rather than a member access.
    keys: bool,
}

const GRAMMARS: [Grammar; 5] = [
    Grammar {
        names: &["typescript", "ts", "mts", "cts"],
        language: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        highlights: &[
            tree_sitter_javascript::HIGHLIGHT_QUERY,
            tree_sitter_typescript::HIGHLIGHTS_QUERY,
        ],
        locals: tree_sitter_javascript::LOCALS_QUERY,
        keys: false,
    },
    Grammar {
        names: &["python", "py", "py3", "python3"],
        language: || tree_sitter_python::LANGUAGE.into(),
        highlights: &[tree_sitter_python::HIGHLIGHTS_QUERY],
        locals: "",
        keys: false,
    },
    Grammar {
        names: &["json"],
        language: || tree_sitter_json::LANGUAGE.into(),
        highlights: &[tree_sitter_json::HIGHLIGHTS_QUERY],
        locals: "",
        keys: true,
    },
    Grammar {
        names: &["yaml", "yml"],
        language: || tree_sitter_yaml::LANGUAGE.into(),
        highlights: &[tree_sitter_yaml::HIGHLIGHTS_QUERY],
        locals: "",
        keys: true,
    },
    Grammar {
        names: &["sh", "bash", "shell"],
        language: || tree_sitter_bash::LANGUAGE.into(),
        highlights: &[tree_sitter_bash::HIGHLIGHT_QUERY],
        locals: "",
        keys: false,
    },
];

/// A grammar tree-sitter highlights `lang` (a fence's language) with.
#[derive(Clone, Copy)]
pub struct Known(usize);

/// The tree-sitter grammar for `lang`, if there is one.
pub fn grammar(lang: &str) -> Option<Known> {
    let lang = lang.to_ascii_lowercase();
    GRAMMARS
        .iter()
        .position(|g| g.names.contains(&lang.as_str()))
        .map(Known)
}

/// Each grammar's compiled queries, made on its first block (`None`: they did not compile).
fn configuration(known: Known) -> Option<&'static HighlightConfiguration> {
    static CONFIGURATIONS: [OnceLock<Option<HighlightConfiguration>>; GRAMMARS.len()] =
        [const { OnceLock::new() }; GRAMMARS.len()];
    CONFIGURATIONS[known.0]
        .get_or_init(|| {
            let grammar = &GRAMMARS[known.0];
            let highlights = grammar.highlights.join("\n");
            let name = grammar.names[0];
            let mut config = HighlightConfiguration::new(
                (grammar.language)(),
                name,
                &highlights,
                "",
                grammar.locals,
            )
            .ok()?;
            config.configure(&CLASSES.map(|(capture, _)| capture));
            Some(config)
        })
        .as_ref()
}

/// What tree-sitter made of a block.
pub enum Tokens {
    /// The block's tokens in `hl-` spans around its escaped text.
    Html(String),
    /// The block takes work out of proportion to its size ([`within_budget`]): it is shown
    /// as plain text, never handed to another engine.
    OverBudget,
    /// tree-sitter could not highlight it (the caller then asks syntect).
    Failed,
}

/// The block's tokens, or why there are none ([`Tokens`]).
pub fn tokens(known: Known, code: &str) -> Tokens {
    let Some(config) = configuration(known) else {
        return Tokens::Failed;
    };
    if !within_budget(&config.language, code) {
        return Tokens::OverBudget;
    }
    html(known, config, code).map_or(Tokens::Failed, Tokens::Html)
}

/// The block's tokens in `hl-` spans, from tree-sitter-highlight.
fn html(known: Known, config: &HighlightConfiguration, code: &str) -> Option<String> {
    thread_local! {
        static HIGHLIGHTER: RefCell<Highlighter> = RefCell::new(Highlighter::new());
    }
    let keys = GRAMMARS[known.0].keys;
    HIGHLIGHTER.with(|highlighter| {
        let mut highlighter = highlighter.try_borrow_mut().ok()?;
        let events = highlighter
            .highlight(config, code.as_bytes(), None, None, |_| None)
            .ok()?;
        let mut html = String::with_capacity(code.len() * 3);
        for event in events {
            match event.ok()? {
                HighlightEvent::Source { start, end } => {
                    escape::html(code.get(start..end)?, &mut html)
                }
                HighlightEvent::HighlightStart(capture) => {
                    let (name, class) = CLASSES[capture.0];
                    let class = if keys && name == "property" {
                        KEY
                    } else {
                        class
                    };
                    html.push_str("<span class=\"");
                    html.push_str(class);
                    html.push_str("\">");
                }
                HighlightEvent::HighlightEnd => html.push_str("</span>"),
            }
        }
        Some(html)
    })
}

/// Bytes of a block the parser may read, per byte of it (and [`BASE_READ`] more): real code
/// is read about once; an external scanner that looks ahead to the end of the block at every
/// token (tree-sitter-bash's heredocs, on 120 KB of `<`) reads it thousands of times over,
/// for minutes.
const READ_PER_BYTE: usize = 32;
const BASE_READ: usize = 256 * 1024;

/// Parser operations a block may take, per byte of it (and [`BASE_OPERATIONS`] more).
const OPERATIONS_PER_BYTE: u64 = 64;
const BASE_OPERATIONS: u64 = 1_000_000;

/// The text is handed to the parser in pieces of this size, so that what it reads is counted
/// as it reads it.
const PIECE: usize = 1024;

/// The deepest a block's syntax tree may nest: at every node the highlight queries walk up
/// through its ancestors (`ts_tree_cursor_current_status`). Real code nests a few dozen deep.
pub(crate) const MAX_DEPTH: usize = 128;

/// Sibling steps the highlight queries may take, per byte of a block (and [`BASE_STEPS`]
/// more). At every node they scan its later siblings up to the next named one
/// (`ts_tree_cursor_current_status` again): a run of anonymous tokens costs its length
/// squared, and a block that only opens (`(` repeated in Python, `[` in YAML or JSON,
/// `` `${ `` in TypeScript) is one error node of 120,000 of them: minutes. Real code has a
/// named node every few tokens.
const STEPS_PER_BYTE: u64 = 64;
const BASE_STEPS: u64 = 1_000_000;

/// Whether `code` parses within a budget of bytes read and of operations that grows linearly
/// with its size, into a tree the highlight queries walk within theirs ([`too_costly`]).
/// Counted, not timed, so that whether a block is highlighted never depends on the machine:
/// the parser asks for the text piece by piece and reports every 100 operations, and once
/// past either budget it is told the text has ended and is stopped; the tree is then walked
/// once. Every block is checked
/// (the parse costs a fraction of the highlighting): a block over is shown as plain text,
/// so highlighting stays linear in the block's size whatever it holds.
fn within_budget(language: &Language, code: &str) -> bool {
    thread_local! {
        static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(tree_sitter::Parser::new());
    }
    let budget = BASE_READ + READ_PER_BYTE * code.len();
    PARSER.with(|parser| {
        let Ok(mut parser) = parser.try_borrow_mut() else {
            return false;
        };
        if parser.set_language(language).is_err() {
            return false;
        }
        let over = std::cell::Cell::new(false);
        let mut read_so_far = 0usize;
        let bytes = code.as_bytes();
        let mut read = |offset: usize, _| {
            let piece = bytes.get(offset..).unwrap_or_default();
            let piece = &piece[..piece.len().min(PIECE)];
            read_so_far += piece.len();
            if read_so_far > budget {
                over.set(true);
                return &[][..];
            }
            piece
        };
        // Called every 100 parser operations: error recovery on some inputs (`(` repeated in
        // Python) takes thousands of operations per byte.
        let operations_budget = BASE_OPERATIONS + OPERATIONS_PER_BYTE * code.len() as u64;
        let mut operations = 0u64;
        let mut progress = |_: &tree_sitter::ParseState| {
            operations += 100;
            match over.get() || operations > operations_budget {
                true => {
                    over.set(true);
                    std::ops::ControlFlow::Break(())
                }
                false => std::ops::ControlFlow::Continue(()),
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        parser.reset();
        let steps = BASE_STEPS + STEPS_PER_BYTE * code.len() as u64;
        !over.get() && tree.is_some_and(|tree| !too_costly(&tree, steps))
    })
}

/// Whether the highlight queries would take more than `budget` sibling steps on `tree`, or
/// meet a node more than [`MAX_DEPTH`] below its root: the work they do at each node, counted
/// as they do it (each child scans its later siblings up to the next named one).
fn too_costly(tree: &tree_sitter::Tree, budget: u64) -> bool {
    let mut cursor = tree.walk();
    let mut stack = vec![(tree.root_node(), 0usize)];
    let mut steps = 0u64;
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return true;
        }
        // From the last child back: how many siblings the child before this one scans.
        let mut ahead = 0u64;
        let children: Vec<_> = node.children(&mut cursor).collect();
        for child in children.into_iter().rev() {
            steps += ahead;
            ahead = if child.is_named() { 1 } else { ahead + 1 };
            stack.push((child, depth + 1));
        }
        if steps > budget {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens_of(known: Known, code: &str) -> Option<String> {
        match tokens(known, code) {
            Tokens::Html(html) => Some(html),
            _ => None,
        }
    }

    /// Blocks that only open (one error node of thousands of tokens) and nesting past
    /// [`MAX_DEPTH`] are over budget, whatever the language; nesting within it is highlighted.
    #[test]
    fn blocks_that_only_open_or_nest_deep_are_over_budget() {
        for (lang, open) in [("python", "("), ("yaml", "["), ("ts", "`${"), ("json", "[")] {
            let code = format!("{}\n", open.repeat(5_000));
            assert!(matches!(
                tokens(grammar(lang).unwrap(), &code),
                Tokens::OverBudget
            ));
        }
        for (lang, open, close) in [
            ("python", "(", ")"),
            ("yaml", "[", "]"),
            ("ts", "`${", "}`"),
            ("json", "[", "]"),
            ("bash", "$(", ")"),
        ] {
            let known = grammar(lang).unwrap();
            let deep = format!("{}1{}\n", open.repeat(400), close.repeat(400));
            assert!(matches!(tokens(known, &deep), Tokens::OverBudget), "{lang}");
            let shallow = format!("{}1{}\n", open.repeat(5), close.repeat(5));
            assert!(tokens_of(known, &shallow).is_some(), "{lang}");
        }
    }

    #[test]
    fn every_grammars_queries_compile() {
        for (i, grammar) in GRAMMARS.iter().enumerate() {
            assert!(configuration(Known(i)).is_some(), "{}", grammar.names[0]);
        }
    }

    #[test]
    fn tokens_get_the_classes_syntect_gives_them() {
        let ts = tokens_of(
            grammar("ts").unwrap(),
            "export async function f(a: string) { return 1; }\n",
        )
        .unwrap();
        assert!(
            ts.contains("<span class=\"hl-keyword\">async</span>"),
            "{ts}"
        );
        assert!(
            ts.contains("<span class=\"hl-entity hl-name hl-function\">f</span>"),
            "{ts}"
        );
        assert!(
            ts.contains("<span class=\"hl-support hl-type\">string</span>"),
            "{ts}"
        );
        assert!(
            ts.contains("<span class=\"hl-variable hl-parameter\">a</span>"),
            "{ts}"
        );
        let py = tokens_of(
            grammar("Python").unwrap(),
            "def f(x):\n    return \"a\" # b\n",
        )
        .unwrap();
        assert!(py.contains("<span class=\"hl-keyword\">def</span>"), "{py}");
        assert!(
            py.contains("<span class=\"hl-string\">&quot;a&quot;</span>"),
            "{py}"
        );
        assert!(py.contains("<span class=\"hl-comment\"># b</span>"), "{py}");
        let yaml = tokens_of(grammar("yml").unwrap(), "a: 1\n").unwrap();
        assert!(
            yaml.contains("<span class=\"hl-entity hl-name hl-tag\">a</span>"),
            "{yaml}"
        );
        assert!(grammar("toml").is_none() && grammar("rust").is_none());
    }

    #[test]
    fn text_is_escaped_and_kept_whole() {
        let code = "let s = '<script>' && \"</span>\"; // a < b\n\u{1}\n";
        let html = tokens_of(grammar("typescript").unwrap(), code).unwrap();
        assert!(
            !html.contains("<script>") && !html.contains("\"</span>\""),
            "{html}"
        );
        let mut escaped = String::new();
        escape::html(code, &mut escaped);
        let mut text = html.clone();
        while let Some(open) = text.find("<span") {
            let close = open + text[open..].find('>').unwrap();
            text.replace_range(open..=close, "");
        }
        assert_eq!(text.replace("</span>", ""), escaped);
    }
}
