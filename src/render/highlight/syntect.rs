//! Code blocks in every language tree-sitter does not cover, highlighted by syntect
//! (Oniguruma regexes by default) with bat's grammars from `two-face` (TypeScript, TOML,
//! Dockerfile, … beside syntect's own), tokens marked with `hl-` CSS classes.

use syntect::html::{line_tokens_to_classed_spans, ClassStyle};
use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

/// The regex engine syntect runs: its grammars can match differently under each.
#[cfg(feature = "highlight-onig")]
const ENGINE: &str = "onig";
#[cfg(not(feature = "highlight-onig"))]
const ENGINE: &str = "fancy";

/// The crates and regex engine that decide this engine's output, for the disk cache key.
pub fn id() -> String {
    format!("syntect-5.3.0+two-face-0.5.2/{ENGINE}")
}

/// The class prefix of highlighted tokens (`hl-keyword`, `hl-string`, …).
const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// syntect's grammars and bat's extra ones, loaded on the first code block that needs them.
fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: std::sync::OnceLock<SyntaxSet> = std::sync::OnceLock::new();
    SYNTAXES.get_or_init(two_face::syntax::extra_newlines)
}

/// syntect's grammar for `lang` (a fence's language), if it has one.
pub fn grammar(lang: &str) -> Option<&'static SyntaxReference> {
    (!lang.is_empty())
        .then(|| syntaxes().find_syntax_by_token(lang))
        .flatten()
}

/// The deepest the grammar's scopes may nest (the contexts a block opens and leaves open):
/// as for tree-sitter ([`super::tree_sitter::MAX_DEPTH`]), real code stays far below it.
const MAX_DEPTH: usize = 128;

/// Scope operations (a scope opened or closed) a block may take, per byte of it (and
/// [`BASE_OPERATIONS`] more): real code opens a few per token.
const OPERATIONS_PER_BYTE: usize = 8;
const BASE_OPERATIONS: usize = 10_000;

/// The longest line handed to the grammar: each of its regexes may search the rest of the
/// line from each token, so a line's cost can grow with its square. A block with a longer
/// line is plain text.
pub(crate) const MAX_LINE_BYTES: usize = 4 * 1024;

/// The block's tokens in `hl-` spans around its escaped text; `None` when the grammar fails
/// on it or when it is over the budget that keeps highlighting linear in the block's size:
/// a line past [`MAX_LINE_BYTES`], scopes nested past [`MAX_DEPTH`], or more scope
/// operations than [`OPERATIONS_PER_BYTE`] per byte. Counted, never timed.
pub fn tokens(syntax: &SyntaxReference, code: &str) -> Option<String> {
    let mut state = ParseState::new(syntax);
    let mut scopes = ScopeStack::new();
    let mut html = String::with_capacity(code.len() * 3);
    let mut open = 0isize;
    let budget = BASE_OPERATIONS + OPERATIONS_PER_BYTE * code.len();
    let mut operations = 0;
    for line in LinesWithEndings::from(code) {
        if line.len() > MAX_LINE_BYTES {
            return None;
        }
        let ops = state.parse_line(line, syntaxes()).ok()?;
        operations += ops.len();
        if operations > budget {
            return None;
        }
        let (spans, delta) =
            line_tokens_to_classed_spans(line, &ops, CLASS_STYLE, &mut scopes).ok()?;
        if scopes.len() > MAX_DEPTH {
            return None;
        }
        open += delta;
        html.push_str(&spans);
    }
    for _ in 0..open {
        html.push_str("</span>");
    }
    Some(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_long_lines_and_runaway_scopes_are_over_budget() {
        let rust = grammar("rs").unwrap();
        assert!(tokens(rust, "fn f() { g((1)); }\n").is_some_and(|h| h.contains("hl-")));
        let long = format!("let s = \"{}\";\n", "a".repeat(MAX_LINE_BYTES));
        assert!(tokens(rust, &long).is_none());
        assert!(tokens(rust, &long[MAX_LINE_BYTES / 2..]).is_some());
        // TSX is syntect's alone (tree-sitter takes `ts`).
        let tsx = grammar("tsx").unwrap();
        let line = "x = `${".repeat(100);
        assert!(tokens(tsx, &format!("{line}\n{line}\n")).is_none());
        let line = "x = `${".repeat(10);
        assert!(tokens(tsx, &format!("{line}\n")).is_some());
    }
}
