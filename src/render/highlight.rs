//! Code blocks highlighted at build time: tree-sitter for the languages MCP notes use most
//! (TypeScript, Python, JSON, YAML, shell: [`tree_sitter`]), syntect with bat's grammars for
//! every other language ([`syntect`]). Both mark tokens with the same `hl-` CSS classes, and
//! the theme's stylesheet colours them for light and dark alike. Highlighted blocks are kept
//! in memory and, when the command line asks, on disk across builds ([`cache`]).

mod cache;
mod syntect;
#[cfg(feature = "highlight-tree-sitter")]
mod tree_sitter;

pub use cache::{default_dir, use_disk_cache, DiskCache};

use super::escape;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// What decides a block's highlighted HTML besides its language and text: both engines'
/// crates, grammars and regex engine, and the class style. Part of every disk cache key, so
/// an entry made by another version or engine is never read.
pub fn highlighter_id() -> String {
    #[cfg(feature = "highlight-tree-sitter")]
    let tree_sitter = format!("+{}", tree_sitter::ID);
    #[cfg(not(feature = "highlight-tree-sitter"))]
    let tree_sitter = "";
    format!(
        "{}{tree_sitter}/hl-classes/fieldnotes-{}",
        syntect::id(),
        env!("CARGO_PKG_VERSION")
    )
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

/// `<pre><code>` for a fenced block: tokens in `hl-` spans when a grammar knows `lang` and
/// the block is at most `max_bytes` long (`limits.maxHighlightBytes`), escaped text
/// otherwise. Past the cap a block is never handed to a highlighter: on some inputs they take
/// time or memory far out of proportion to the block (SECURITY.md, "Bounded work").
pub fn code_block(lang: &str, code: &str, max_bytes: usize) -> String {
    if code.len() > max_bytes {
        return wrap(lang, code, None);
    }
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

/// The engine that highlights a language.
enum Engine {
    #[cfg(feature = "highlight-tree-sitter")]
    TreeSitter(tree_sitter::Known),
    Syntect(&'static ::syntect::parsing::SyntaxReference),
}

/// The engine for `lang`: tree-sitter where it has the grammar, else syntect, else none.
fn engine(lang: &str) -> Option<Engine> {
    #[cfg(feature = "highlight-tree-sitter")]
    if let Some(known) = tree_sitter::grammar(lang) {
        return Some(Engine::TreeSitter(known));
    }
    syntect::grammar(lang).map(Engine::Syntect)
}

/// The highlighted tokens of a block, from the disk cache when it has them; `None` when no
/// grammar knows `lang`.
fn tokens(lang: &str, code: &str) -> Option<String> {
    let engine = engine(lang)?;
    let disk = cache::disk();
    if let Some(tokens) = disk.and_then(|d| d.get(lang, code)) {
        return Some(tokens);
    }
    let tokens = match engine {
        // Should tree-sitter fail on a block, syntect (which knows all its languages) answers;
        // a block over tree-sitter's budget is plain text.
        #[cfg(feature = "highlight-tree-sitter")]
        Engine::TreeSitter(known) => match tree_sitter::tokens(known, code) {
            tree_sitter::Tokens::Html(tokens) => tokens,
            tree_sitter::Tokens::OverBudget => return None,
            tree_sitter::Tokens::Failed => syntect::tokens(syntect::grammar(lang)?, code)?,
        },
        Engine::Syntect(syntax) => syntect::tokens(syntax, code)?,
    };
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

    /// The default `limits.maxHighlightBytes`.
    const MAX: usize = 128 * 1024;

    #[test]
    fn blocks_past_the_cap_are_plain_escaped_text() {
        let code = "if x:\n    return '<b>'\n".repeat(100);
        let html = code_block("python", &code, 64);
        assert!(
            html.starts_with("<pre><code class=\"language-python\">"),
            "{html}"
        );
        assert!(
            !html.contains("hl-") && html.contains("&lt;b&gt;"),
            "{html}"
        );
        assert!(code_block("python", &code, code.len()).contains("hl-"));
    }

    #[test]
    fn known_languages_get_token_classes() {
        let html = code_block("python", "if x == \"sse\":\n    return 1\n", MAX);
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
            let html = code_block(lang, code, MAX);
            assert!(
                html.starts_with("<pre class=\"highlight\">"),
                "{lang}: {html}"
            );
            assert!(html.contains("<span class=\"hl-"), "{lang}: {html}");
        }
    }

    #[test]
    fn the_cache_key_names_both_engines() {
        let id = highlighter_id();
        assert!(id.starts_with("syntect-5.3.0+two-face-0.5.2/"), "{id}");
        #[cfg(feature = "highlight-tree-sitter")]
        assert!(id.contains("+tree-sitter-highlight-0.27.1["), "{id}");
    }

    #[test]
    fn unknown_languages_and_markup_are_escaped() {
        let html = code_block("nosuchlang\"><x", "<script>alert(1)</script>\n", MAX);
        assert!(
            !html.contains("<script>") && !html.contains("\"><x"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
        let html = code_block("html", "<script>alert(1)</script>\n", MAX);
        assert!(!html.contains("<script>"), "{html}");
        assert_eq!(language("rust,ignore"), "rust");
    }
}
