//! Code blocks in every language tree-sitter does not cover, highlighted by syntect
//! (Oniguruma regexes by default) with bat's grammars from `two-face` (TypeScript, TOML,
//! Dockerfile, … beside syntect's own), tokens marked with `hl-` CSS classes.

use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxReference, SyntaxSet};
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

/// The block's tokens in `hl-` spans around its escaped text.
pub fn tokens(syntax: &SyntaxReference, code: &str) -> Option<String> {
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, syntaxes(), CLASS_STYLE);
    for line in LinesWithEndings::from(code) {
        generator
            .parse_html_for_line_which_includes_newline(line)
            .ok()?;
    }
    Some(generator.finalize())
}
