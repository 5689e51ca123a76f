//! Code blocks highlighted at build time: syntect marks tokens with `hl-` CSS classes, and
//! the theme's stylesheet colours them for light and dark alike.

use super::escape;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

/// The class prefix of highlighted tokens (`hl-keyword`, `hl-string`, …).
const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// syntect's bundled grammars, loaded on the first code block that names a language.
fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// The language of a fenced block's info string (`rust,ignore` → `rust`).
pub fn language(info: &str) -> &str {
    info.split([',', ' ', '\t', '{'])
        .next()
        .unwrap_or("")
        .trim()
}

/// Blocks already highlighted, by language and text: a snippet repeated across notes (a
/// config example, a call) is highlighted once. Cleared when it holds this many.
const CACHE_LIMIT: usize = 4096;

/// `<pre><code>` for a fenced block: tokens in `hl-` spans when syntect knows `lang`,
/// escaped text otherwise.
pub fn code_block(lang: &str, code: &str) -> String {
    static CACHE: OnceLock<Mutex<HashMap<(String, String), String>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    let key = (lang.to_string(), code.to_string());
    if let Some(html) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return html;
    }
    let html = render_block(lang, code);
    if let Ok(mut cache) = cache.lock() {
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, html.clone());
    }
    html
}

fn render_block(lang: &str, code: &str) -> String {
    let mut html = String::with_capacity(code.len() * 2 + 64);
    html.push_str("<pre");
    let known = (!lang.is_empty())
        .then(|| syntaxes().find_syntax_by_token(lang))
        .flatten();
    let highlighted = known.and_then(|syntax| {
        let mut generator =
            ClassedHTMLGenerator::new_with_class_style(syntax, syntaxes(), CLASS_STYLE);
        for line in LinesWithEndings::from(code) {
            generator
                .parse_html_for_line_which_includes_newline(line)
                .ok()?;
        }
        Some(generator.finalize())
    });
    if highlighted.is_some() {
        html.push_str(" class=\"highlight\"");
    }
    html.push_str("><code");
    if !lang.is_empty() {
        html.push_str(" class=\"language-");
        escape::html(lang, &mut html);
        html.push('"');
    }
    html.push('>');
    match highlighted {
        Some(tokens) => html.push_str(&tokens),
        None => escape::html(code, &mut html),
    }
    html.push_str("</code></pre>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_languages_get_token_classes() {
        let html = code_block("python", "if x == \"sse\":\n    return 1\n");
        assert!(html.starts_with("<pre class=\"highlight\"><code class=\"language-python\">"));
        assert!(html.contains("hl-keyword"), "{html}");
        assert!(html.contains("hl-string"), "{html}");
    }

    #[test]
    fn unknown_languages_and_markup_are_escaped() {
        let html = code_block("nosuchlang\"><x", "<script>alert(1)</script>\n");
        assert!(
            !html.contains("<script>") && !html.contains("\"><x"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
        let html = code_block("html", "<script>alert(1)</script>\n");
        assert!(!html.contains("<script>"), "{html}");
        assert_eq!(language("rust,ignore"), "rust");
    }
}
