//! Code blocks highlighted at build time: syntect (Oniguruma regexes by default) with bat's
//! grammars from `two-face` (TypeScript, TOML, Dockerfile, … beside syntect's own) marks tokens
//! with `hl-` CSS classes, and the theme's stylesheet colours them for light and dark alike.
//! Highlighted blocks are kept in memory and, when the command line asks, on disk across
//! builds ([`cache`]).

mod cache;

pub use cache::{default_dir, use_disk_cache, DiskCache};

use super::escape;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

/// The regex engine syntect runs: its grammars can match differently under each.
#[cfg(feature = "highlight-onig")]
const ENGINE: &str = "onig";
#[cfg(not(feature = "highlight-onig"))]
const ENGINE: &str = "fancy";

/// What decides a block's highlighted HTML besides its language and text: the grammars, the
/// regex engine and the class style. Part of every disk cache key, so an entry made by another
/// version or engine is never read.
pub fn highlighter_id() -> String {
    format!(
        "syntect-5.3.0+two-face-0.5.2/{ENGINE}/hl-classes/fieldnotes-{}",
        env!("CARGO_PKG_VERSION")
    )
}

/// The class prefix of highlighted tokens (`hl-keyword`, `hl-string`, …).
const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// syntect's grammars and bat's extra ones, loaded on the first code block that names a
/// language.
fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(two_face::syntax::extra_newlines)
}

/// The language of a fenced block's info string (`rust,ignore` → `rust`).
pub fn language(info: &str) -> &str {
    info.split([',', ' ', '\t', '{'])
        .next()
        .unwrap_or("")
        .trim()
}

/// Blocks already highlighted, by language and text: a snippet repeated across notes (a
/// config example, a call) or a note re-rendered by `serve` is highlighted once. Cleared when
/// it holds this many.
const CACHE_LIMIT: usize = 512;

/// Highlighted tokens by language and text (`None`: no grammar for the language).
type Memory = Mutex<HashMap<(String, String), Option<String>>>;

/// `<pre><code>` for a fenced block: tokens in `hl-` spans when a grammar knows `lang`,
/// escaped text otherwise.
pub fn code_block(lang: &str, code: &str) -> String {
    static CACHE: OnceLock<Memory> = OnceLock::new();
    let memory = CACHE.get_or_init(Mutex::default);
    let key = (lang.to_string(), code.to_string());
    let cached = memory.lock().ok().and_then(|c| c.get(&key).cloned());
    let tokens = match cached {
        Some(tokens) => tokens,
        None => {
            let tokens = tokens(lang, code);
            if let Ok(mut memory) = memory.lock() {
                if memory.len() >= CACHE_LIMIT {
                    memory.clear();
                }
                memory.insert(key, tokens.clone());
            }
            tokens
        }
    };
    wrap(lang, code, tokens.as_deref())
}

/// The highlighted tokens of a block, from the disk cache when it has them; `None` when no
/// grammar knows `lang`.
fn tokens(lang: &str, code: &str) -> Option<String> {
    let syntax = (!lang.is_empty())
        .then(|| syntaxes().find_syntax_by_token(lang))
        .flatten()?;
    let disk = cache::disk();
    if let Some(tokens) = disk.and_then(|d| d.get(lang, code)) {
        return Some(tokens);
    }
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, syntaxes(), CLASS_STYLE);
    for line in LinesWithEndings::from(code) {
        generator
            .parse_html_for_line_which_includes_newline(line)
            .ok()?;
    }
    let tokens = generator.finalize();
    if let Some(disk) = disk {
        disk.put(lang, code, &tokens);
    }
    Some(tokens)
}

/// Wraps tokens (or, without them, the escaped text) in `<pre><code>`.
fn wrap(lang: &str, code: &str, tokens: Option<&str>) -> String {
    let mut html = String::with_capacity(code.len() * 2 + 64);
    html.push_str("<pre");
    if tokens.is_some() {
        html.push_str(" class=\"highlight\"");
    }
    html.push_str("><code");
    if !lang.is_empty() {
        html.push_str(" class=\"language-");
        escape::html(lang, &mut html);
        html.push('"');
    }
    html.push('>');
    match tokens {
        Some(tokens) => html.push_str(tokens),
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
    fn mcp_languages_are_known() {
        for (lang, code) in [
            ("typescript", "const x: number = 1;\n"),
            ("ts", "let y = \"a\";\n"),
            ("json", "{\"a\": 1}\n"),
            ("yaml", "a: 1\n"),
            ("toml", "[a]\nb = 1\n"),
            ("sh", "echo \"$HOME\"\n"),
            ("bash", "if true; then exit 1; fi\n"),
            ("python", "def f(): return 1\n"),
        ] {
            let html = code_block(lang, code);
            assert!(
                html.starts_with("<pre class=\"highlight\">"),
                "{lang}: {html}"
            );
            assert!(html.contains("<span class=\"hl-"), "{lang}: {html}");
        }
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
