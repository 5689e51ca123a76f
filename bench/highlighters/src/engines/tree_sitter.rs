//! tree-sitter-highlight with each grammar crate's own queries (TypeScript's highlights layered
//! on JavaScript's, as the grammar intends), rendered as nested spans with `hl-` classes mapped
//! from capture names to the scope words fieldnotes' stylesheet colours (`classes`).

use super::{escape, Engine};
use std::collections::HashMap;
use tree_sitter::Language;
use tree_sitter_highlight::{HighlightConfiguration, HighlightEvent, Highlighter};

/// Capture names the configurations recognise, and the `hl-` classes each becomes: the
/// TextMate scope words syntect would give the same token, so the site's CSS colours both.
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
    ("module", "hl-entity hl-name hl-namespace"),
];

/// In data languages a `property` is a key: coloured as syntect colours YAML and TOML keys.
const KEY: &str = "hl-entity hl-name hl-tag";

struct Grammar {
    config: HighlightConfiguration,
    data: bool,
}

pub struct TreeSitter {
    grammars: HashMap<&'static str, Grammar>,
    highlighter: Highlighter,
}

fn grammar(language: Language, name: &str, highlights: &str, locals: &str, data: bool) -> Grammar {
    let mut config = HighlightConfiguration::new(language, name, highlights, "", locals)
        .unwrap_or_else(|e| panic!("{name}'s queries compile: {e}"));
    config.configure(&CLASSES.map(|(name, _)| name));
    Grammar { config, data }
}

impl TreeSitter {
    pub fn new() -> TreeSitter {
        let typescript = format!(
            "{}\n{}",
            tree_sitter_javascript::HIGHLIGHT_QUERY,
            tree_sitter_typescript::HIGHLIGHTS_QUERY,
        );
        let typescript = grammar(
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            "typescript",
            &typescript,
            tree_sitter_javascript::LOCALS_QUERY,
            false,
        );
        let json = grammar(
            tree_sitter_json::LANGUAGE.into(),
            "json",
            tree_sitter_json::HIGHLIGHTS_QUERY,
            "",
            true,
        );
        let yaml = grammar(
            tree_sitter_yaml::LANGUAGE.into(),
            "yaml",
            tree_sitter_yaml::HIGHLIGHTS_QUERY,
            "",
            true,
        );
        let toml = grammar(
            tree_sitter_toml_ng::LANGUAGE.into(),
            "toml",
            tree_sitter_toml_ng::HIGHLIGHTS_QUERY,
            "",
            true,
        );
        let bash = grammar(
            tree_sitter_bash::LANGUAGE.into(),
            "bash",
            tree_sitter_bash::HIGHLIGHT_QUERY,
            "",
            false,
        );
        let python = grammar(
            tree_sitter_python::LANGUAGE.into(),
            "python",
            tree_sitter_python::HIGHLIGHTS_QUERY,
            "",
            false,
        );
        let grammars = HashMap::from([
            ("typescript", typescript),
            ("json", json),
            ("yaml", yaml),
            ("toml", toml),
            ("sh", bash),
            ("python", python),
        ]);
        TreeSitter {
            grammars,
            highlighter: Highlighter::new(),
        }
    }
}

impl Engine for TreeSitter {
    fn name(&self) -> String {
        "tree-sitter-highlight 0.27 (grammar crates' queries)".to_string()
    }

    fn highlight(&mut self, lang: &str, code: &str) -> Option<String> {
        let grammar = self.grammars.get(lang)?;
        let events = self
            .highlighter
            .highlight(&grammar.config, code.as_bytes(), None, None, |_| None)
            .ok()?;
        let mut html = String::with_capacity(code.len() * 3);
        for event in events {
            match event.ok()? {
                HighlightEvent::Source { start, end } => escape(&code[start..end], &mut html),
                HighlightEvent::HighlightStart(h) => {
                    let (name, class) = CLASSES[h.0];
                    let class = if grammar.data && name == "property" {
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
    }
}
