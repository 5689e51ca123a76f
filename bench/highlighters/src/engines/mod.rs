//! The highlighters compared: each turns a block into HTML, or says it has no grammar.

pub mod giallo;
pub mod syntect;
pub mod tree_sitter;

/// A highlighter under test.
pub trait Engine {
    /// Crate, version and regex engine or grammar source, for the table.
    fn name(&self) -> String;
    /// The block's HTML (tokens in spans, text escaped), or `None` without a grammar for `lang`.
    fn highlight(&mut self, lang: &str, code: &str) -> Option<String>;
}

/// Escapes text for HTML, as every engine's output must.
pub fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}
