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

/// Code from a repository nobody vetted (a source's pinned lines), made harmless to show as
/// it lands in a page or a `.md` fence: NUL and the other C0 controls but tab and line breaks
/// become U+FFFD (as [`markup`] does), and each bidi control becomes its visible name
/// (`<U+202E>`), so lines read in the order they run. Everything else is left as it is.
pub fn visible_controls(text: &str) -> Cow<'_, str> {
    let harmful = |c: char| (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{7f}')) || is_bidi_control(c);
    if !text.contains(harmful) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_bidi_control(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else if harmful(c) {
            out.push('\u{fffd}');
        } else {
            out.push(c);
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
