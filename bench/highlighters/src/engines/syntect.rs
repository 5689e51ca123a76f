//! syntect with bat's grammars from two-face, rendered with `hl-` classes: what fieldnotes
//! ships (`src/render/highlight.rs`). The regex engine is the crate feature: `onig` or `fancy`.

use super::Engine;
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

#[cfg(feature = "onig")]
const REGEX: &str = "onig";
#[cfg(not(feature = "onig"))]
const REGEX: &str = "fancy-regex";

pub struct Syntect {
    syntaxes: SyntaxSet,
}

impl Syntect {
    pub fn new() -> Syntect {
        Syntect {
            syntaxes: two_face::syntax::extra_newlines(),
        }
    }
}

impl Engine for Syntect {
    fn name(&self) -> String {
        format!("syntect 5.3 + two-face 0.5 ({REGEX})")
    }

    fn highlight(&mut self, lang: &str, code: &str) -> Option<String> {
        let syntax = self.syntaxes.find_syntax_by_token(lang)?;
        let mut generator = ClassedHTMLGenerator::new_with_class_style(
            syntax,
            &self.syntaxes,
            ClassStyle::SpacedPrefixed { prefix: "hl-" },
        );
        for line in LinesWithEndings::from(code) {
            generator
                .parse_html_for_line_which_includes_newline(line)
                .ok()?;
        }
        Some(generator.finalize())
    }
}
