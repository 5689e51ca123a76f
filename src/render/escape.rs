//! Escaping: text from front matter (and `site.yaml`) made safe for the format it lands in, one
//! function per format, and the tera instance whose templates use them.
//!
//! - HTML and XML (pages, feeds, the sitemap): [`markup`], tera's autoescape for `.html` and
//!   `.xml` templates (and [`html`] for Rust code writing HTML). Front-matter Markdown
//!   (summaries, support notes) becomes inline HTML through `markdown::inline_html`.
//! - Markdown (the `.md` renditions and `llms.txt`): [`markdown`]'s `md_inline` for plain
//!   text, `md_summary` for front-matter Markdown, `md_code` for a code span and `md_url` for a
//!   link destination, which templates call as filters of the same names. Tera's autoescape
//!   is HTML only: a `.md` or `.txt` template passes every value it did not make itself
//!   through one of them.
//! - JSON (the data API, the search index): serde_json, which escapes every string.

pub(crate) mod markdown;

use std::borrow::Cow;
use std::io::Write;

/// A Markdown filter: the value in, the escaped Markdown out.
type MarkdownFilter = fn(&str) -> String;

/// A new tera instance: values escaped by [`markup`] in `.html` and `.xml` templates, and the
/// Markdown filters registered (before any template is added: tera checks templates against
/// the filters it knows).
pub fn tera() -> tera::Tera {
    let mut tera = tera::Tera::new();
    tera.set_escape_fn(markup);
    let filters: [(&str, MarkdownFilter); 4] = [
        ("md_inline", markdown::md_inline),
        ("md_summary", markdown::md_summary),
        ("md_code", markdown::md_code),
        ("md_url", markdown::md_url),
    ];
    for (name, filter) in filters {
        tera.register_filter(name, move |text: &str, _: tera::Kwargs, _: &tera::State| {
            filter(text)
        });
    }
    tera
}

/// Writes `text` escaped for HTML or XML text and quoted attribute values: `& < > " '` as
/// references, and every character XML 1.0 forbids (NUL, the C0 controls but tab and line
/// breaks, U+FFFE, U+FFFF) as U+FFFD, so a feed stays readable and no NUL reaches a page.
pub fn markup(text: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let mut result = Ok(());
    markup_pieces(text, |piece| {
        if result.is_ok() {
            result = out.write_all(piece.as_bytes());
        }
    });
    result
}

/// Appends `text` to `out`, escaped as [`markup`] does.
pub fn html(text: &str, out: &mut String) {
    markup_pieces(text, |piece| out.push_str(piece));
}

/// `text` escaped for HTML or XML, in pieces.
///
/// Scanned byte by byte: every character replaced is ASCII but U+FFFE and U+FFFF, whose
/// UTF-8 (`EF BF BE`, `EF BF BF`) a lead byte `EF` starts; other bytes are copied in runs.
fn markup_pieces(text: &str, mut push: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let (replacement, len) = match bytes[i] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' => ("&quot;", 1),
            b'\'' => ("&#39;", 1),
            0..=0x8 | 0xb | 0xc | 0xe..=0x1f => ("\u{fffd}", 1),
            0xef if matches!(bytes.get(i + 1..i + 3), Some([0xbf, 0xbe | 0xbf])) => ("\u{fffd}", 3),
            _ => {
                i += 1;
                continue;
            }
        };
        push(&text[start..i]);
        push(replacement);
        i += len;
        start = i;
    }
    push(&text[start..]);
}

/// Whether `c` reorders or hides text when shown (the Unicode bidi controls: embeddings,
/// overrides, isolates and marks), the characters of "Trojan Source" attacks.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// Whether `c` breaks a line for some reader but not for every one: a Markdown parser ends a
/// line (a code fence, a heading) at a lone CR; editors and browsers at NEL, U+2028, U+2029,
/// VT and FF. Only `\n` (and the CR of a CRLF) is a line break everywhere.
fn is_odd_line_break(c: char) -> bool {
    matches!(c, '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Whether `c` is shown as nothing (or hides what follows) while it changes what text is: the
/// zero-width and invisible formatting characters, the Hangul fillers, the tag characters
/// (U+E0000 block, "ASCII smuggling") and the variation selectors past U+FE0F.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2065}'
        | '\u{206a}'..='\u{206f}' | '\u{3164}' | '\u{feff}' | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}'
        | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// What [`visible_controls`] does with one character.
enum Shown {
    /// Kept as it is.
    Kept,
    /// Replaced by U+FFFD (a C0 or C1 control, as [`markup`] does).
    Replaced,
    /// Shown as its name, `<U+202E>`.
    Named,
}

fn shown(c: char, next: Option<char>) -> Shown {
    match c {
        '\t' | '\n' => Shown::Kept,
        '\r' if next == Some('\n') => Shown::Kept,
        '\r' => Shown::Named,
        c if is_bidi_control(c) || is_odd_line_break(c) || is_invisible(c) => Shown::Named,
        '\0'..='\u{1f}' | '\u{80}'..='\u{9f}' => Shown::Replaced,
        _ => Shown::Kept,
    }
}

/// Text from outside the site (a cited repository's lines, a transcript, what a client sent),
/// made inert once, before it reaches any output format: every character that could change
/// what a reader sees without being seen, or end a line in one reader and not another, is
/// made visible. NUL and the other C0 and C1 controls but tab and line feed become U+FFFD (as
/// [`markup`] does); a lone CR, NEL, U+2028, U+2029, VT, FF, each bidi control, zero-width,
/// invisible or tag character becomes its visible name (`<U+202E>`), so code reads in the
/// order it runs and a `.md` fence holds. Everything else is left as it is: each format's own
/// escaping ([`markup`], the Markdown fence, serde's JSON, the CSV quoting) then applies.
pub fn visible_controls(text: &str) -> Cow<'_, str> {
    let mut chars = text.char_indices().peekable();
    let first = loop {
        let Some((i, c)) = chars.next() else {
            return Cow::Borrowed(text);
        };
        if !matches!(shown(c, chars.peek().map(|&(_, n)| n)), Shown::Kept) {
            break i;
        }
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    let mut chars = text[first..].chars().peekable();
    while let Some(c) = chars.next() {
        match shown(c, chars.peek().copied()) {
            Shown::Kept => out.push(c),
            Shown::Replaced => out.push('\u{fffd}'),
            Shown::Named => {
                use std::fmt::Write as _;
                let _ = write!(out, "<U+{:04X}>", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_in_code_become_visible() {
        assert_eq!(visible_controls("a\tb\r\n"), Cow::Borrowed("a\tb\r\n"));
        assert_eq!(
            visible_controls("x\0y\u{1b}[2J/*\u{202e} } \u{2066}*/"),
            "x\u{fffd}y\u{fffd}[2J/*<U+202E> } <U+2066>*/"
        );
    }

    /// Each class of character that hides or breaks text, in the middle, first and last.
    #[test]
    fn odd_line_breaks_and_invisible_characters_become_visible() {
        for (c, name) in [
            ('\r', "<U+000D>"),
            ('\u{85}', "<U+0085>"),
            ('\u{2028}', "<U+2028>"),
            ('\u{2029}', "<U+2029>"),
            ('\u{b}', "<U+000B>"),
            ('\u{200b}', "<U+200B>"),
            ('\u{200d}', "<U+200D>"),
            ('\u{2060}', "<U+2060>"),
            ('\u{feff}', "<U+FEFF>"),
            ('\u{e0041}', "<U+E0041>"),
            ('\u{e007f}', "<U+E007F>"),
            ('\u{e0100}', "<U+E0100>"),
            ('\u{2066}', "<U+2066>"),
        ] {
            assert_eq!(visible_controls(&format!("a{c}b")), format!("a{name}b"));
            assert_eq!(visible_controls(&format!("{c}")), name);
        }
        assert_eq!(visible_controls("a\u{9b}b\u{80}"), "a\u{fffd}b\u{fffd}");
        assert_eq!(visible_controls("x\r\ny\r"), "x\r\ny<U+000D>");
        assert_eq!(
            visible_controls("é ü 中 🙂 \u{fe0f}"),
            Cow::Borrowed("é ü 中 🙂 \u{fe0f}")
        );
    }

    #[test]
    fn markup_escapes_and_replaces_what_xml_forbids() {
        let escaped = |text: &str| {
            let mut out = String::new();
            html(text, &mut out);
            out
        };
        assert_eq!(
            escaped("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(
            escaped("a\0b\u{1}c\td\ne\u{ffff}"),
            "a\u{fffd}b\u{fffd}c\td\ne\u{fffd}"
        );
        // U+FFFE goes; U+FFFD and other characters whose UTF-8 starts `EF` stay.
        assert_eq!(
            escaped("\r\u{fffe}\u{fffd}\u{f000}\u{feff}\u{7f}"),
            "\r\u{fffd}\u{fffd}\u{f000}\u{feff}\u{7f}"
        );
        let mut bytes = Vec::new();
        markup("é <", &mut bytes).expect("writes");
        assert_eq!(bytes, "é &lt;".as_bytes());
    }

    #[test]
    fn templates_get_the_markdown_filters() {
        let mut tera = tera();
        tera.add_raw_template("t.md", "{{ t | md_inline }} {{ s | md_summary }}")
            .expect("compiles");
        let mut context = tera::Context::new();
        context.insert("t", "[x](y)");
        context.insert("s", "`c`");
        assert_eq!(
            tera.render("t.md", &context).expect("renders"),
            "\\[x\\](y) `c`"
        );
    }
}
