//! Markdown escaping, for the `.md` renditions and `llms.txt`: front-matter text shown as it
//! is, on one line, where nothing in it can make a link, heading, list item, comment or raw
//! HTML. Also CommonMark's rule for NUL, which pulldown-cmark leaves to its caller.

use crate::parse::markdown::options;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::borrow::Cow;

/// Markdown that shows `text` as it is, on one line: line breaks (and the whitespace around
/// them) fold to one space, and every character that could make a link, image, code span,
/// emphasis, raw HTML, comment, entity, table cell or heading end is backslash-escaped, as is
/// a first character that would open a block (heading, quote, list item, rule, fence). For
/// titles, names, dates and every other plain-text value a `.md` page or `llms.txt` prints.
pub fn md_inline(text: &str) -> String {
    let line = one_line(text);
    let mut out = String::with_capacity(line.len() + 8);
    escape_into(&line, &mut out);
    unblock(out)
}

/// Front-matter Markdown (a summary, a support cell's notes) as inline Markdown on one line:
/// read as one paragraph ([`md_paragraph`]), then written again with its code spans and
/// emphasis, links and images reduced to their text, and everything else escaped as
/// [`md_inline`] escapes it.
pub fn md_summary(markdown: &str) -> String {
    let source = md_paragraph(markdown);
    let mut out = String::with_capacity(source.len() + 8);
    for event in Parser::new_ext(&source, options()) {
        match event {
            Event::Text(text) | Event::InlineHtml(text) | Event::Html(text) => {
                escape_into(&text, &mut out);
            }
            Event::Code(code) => out.push_str(&md_code(&code)),
            Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis) => out.push('*'),
            Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) => out.push_str("**"),
            Event::Start(Tag::Strikethrough) | Event::End(TagEnd::Strikethrough) => {
                out.push_str("~~");
            }
            Event::FootnoteReference(name) => escape_into(&format!("[^{name}]"), &mut out),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    unblock(out)
}

/// Appends `text` to `out` with a backslash before each character that has a meaning inline.
/// Underscores between letters or digits (`snake_case`) are left alone: CommonMark never
/// reads those as emphasis.
fn escape_into(text: &str, out: &mut String) {
    let mut before: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '_' {
            let mut run = 1;
            while chars.next_if_eq(&'_').is_some() {
                run += 1;
            }
            let after = chars.peek().copied();
            let intraword = before.is_some_and(char::is_alphanumeric)
                && after.is_some_and(char::is_alphanumeric);
            let escaped = if intraword { "_" } else { "\\_" };
            out.push_str(&escaped.repeat(run));
            before = Some('_');
            continue;
        }
        if matches!(
            c,
            '\\' | '`' | '*' | '~' | '[' | ']' | '<' | '&' | '|' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
        before = Some(c);
    }
}

/// `line` with a backslash where its first character would open a block.
fn unblock(mut line: String) -> String {
    if let Some(at) = block_marker(&line) {
        line.insert(at, '\\');
    }
    line
}

/// A Markdown code span showing `text` on one line: fenced by more backticks than any run
/// inside it, so no backtick in the text can close it.
pub fn md_code(text: &str) -> String {
    let line = one_line(text);
    if line.is_empty() {
        return String::new();
    }
    let longest = line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A space between fence and text keeps a backtick at either end inside; one space each
    // side is taken off again by readers.
    let pad = if line.starts_with('`') || line.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{line}{pad}{fence}")
}

/// `url` for a Markdown link destination (`[text](here)`): every character that could end
/// the destination, start a link title or break the line (space and other whitespace,
/// controls, `( ) < > " \ | ` and backtick) is percent-encoded, so the link ends where the
/// template ends it.
pub fn md_url(url: &str) -> String {
    // Most URLs are plain ASCII with nothing to encode: copied whole.
    let plain = |b: &u8| {
        b.is_ascii_graphic() && !matches!(b, b'(' | b')' | b'<' | b'>' | b'"' | b'\\' | b'|' | b'`')
    };
    if url.as_bytes().iter().all(plain) {
        return url.to_owned();
    }
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        let encode = c.is_whitespace()
            || c.is_control()
            || matches!(c, '(' | ')' | '<' | '>' | '"' | '\\' | '|' | '`');
        if encode {
            let mut buf = [0; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `markdown` with each NUL replaced by U+FFFD, as CommonMark requires.
pub fn without_nul(markdown: &str) -> Cow<'_, str> {
    if markdown.contains('\0') {
        Cow::Owned(markdown.replace('\0', "\u{fffd}"))
    } else {
        Cow::Borrowed(markdown)
    }
}

/// Inline Markdown (a summary, a support cell's notes) that can open no block: its line
/// breaks folded and a first character that would open one escaped. What is left parses as
/// one paragraph of inline content; links, emphasis and code spans still work.
pub fn md_paragraph(markdown: &str) -> String {
    unblock(one_line(markdown).into_owned())
}

/// `text` on one line: each run of whitespace holding a line break (`\n`, `\r`, vertical tab,
/// form feed, U+0085, U+2028, U+2029) becomes one space, the ends are trimmed, and NUL
/// becomes U+FFFD.
fn one_line(text: &str) -> Cow<'_, str> {
    let is_break = |c: char| {
        matches!(
            c,
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    let trimmed = text.trim();
    if !trimmed.contains(|c: char| is_break(c) || c == '\0') {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    let mut pending = String::new();
    let mut folded = false;
    for c in trimmed.chars() {
        if c.is_whitespace() {
            folded |= is_break(c);
            pending.push(c);
            continue;
        }
        if folded {
            out.push(' ');
        } else {
            out.push_str(&pending);
        }
        pending.clear();
        folded = false;
        out.push(if c == '\0' { '\u{fffd}' } else { c });
    }
    Cow::Owned(out)
}

/// Where a backslash must go for `line`, standing at the start of a line, to open no block:
/// before the `#`, `>`, `-`, `+`, `=`, `*` or `_` of a heading, quote, list item, setext
/// underline or rule; before the `.` or `)` of an ordered list item; before a backtick or
/// tilde fence, a `<` that could open an HTML block, or the `[` of a footnote definition.
/// `None` when it opens none (or is escaped already).
fn block_marker(line: &str) -> Option<usize> {
    let first = line.chars().next()?;
    let second = line[first.len_utf8()..].chars().next();
    let spaced = second.is_none_or(|c| c == ' ' || c == '\t');
    let rule = || line.chars().all(|c| c == first || c == ' ' || c == '\t');
    match first {
        '#' | '>' | '-' | '+' | '=' | '<' => Some(0),
        '*' | '_' if spaced || rule() => Some(0),
        '[' if line.starts_with("[^") => Some(0),
        '~' if line.starts_with("~~~") => Some(0),
        // A backtick fence's info string holds no backtick: a code span may start a line.
        '`' if line.starts_with("```") && !line.trim_start_matches('`').contains('`') => Some(0),
        '0'..='9' => {
            let digits = line.bytes().take_while(u8::is_ascii_digit).count();
            let marker = line[digits..].chars().next();
            let after = line[digits..].chars().nth(1);
            let item = digits <= 9
                && matches!(marker, Some('.' | ')'))
                && after.is_none_or(|c| c == ' ' || c == '\t');
            item.then_some(digits)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_text_stays_one_line_of_text() {
        assert_eq!(
            md_inline("Nice note](https://evil.example/phish) <!--"),
            "Nice note\\](https://evil.example/phish) \\<!--"
        );
        assert_eq!(md_inline("a\n\n# b\r\n- c"), "a \\# b - c");
        assert_eq!(md_inline("  x \u{2028} y  "), "x y");
        assert_eq!(md_inline("a  b"), "a  b");
        assert_eq!(
            md_inline("*a* _b_ `c` ~d~ |e| &amp; \\"),
            "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ \\|e\\| \\&amp; \\\\"
        );
        assert_eq!(md_inline("nul\0"), "nul\u{fffd}");
        assert_eq!(
            md_inline("mcp_tool.py, _run_http __init__ a__b _"),
            "mcp_tool.py, \\_run_http \\_\\_init\\_\\_ a__b \\_"
        );
        assert_eq!(md_inline("2025-03-26 (draft)."), "2025-03-26 (draft).");
    }

    #[test]
    fn a_first_character_that_opens_a_block_is_escaped() {
        for (text, escaped) in [
            ("# a", "\\# a"),
            ("> a", "\\> a"),
            ("- a", "\\- a"),
            ("+ a", "\\+ a"),
            ("=== a", "\\=== a"),
            ("* a", "\\* a"),
            ("1. a", "1\\. a"),
            ("12) a", "12\\) a"),
            ("```js", "\\`\\`\\`js"),
            ("~~~", "\\~\\~\\~"),
        ] {
            assert_eq!(md_inline(text), escaped, "{text}");
        }
        for plain in ["1.5 times", "2025-03-26", "a - b", "10 clients"] {
            assert_eq!(md_inline(plain), plain);
        }
        assert_eq!(
            md_paragraph("# Title\n\n*x* [y](/z.md)"),
            "\\# Title *x* [y](/z.md)"
        );
        assert_eq!(md_paragraph("*emphasis* first"), "*emphasis* first");
        assert_eq!(md_paragraph("* item"), "\\* item");
        assert_eq!(md_paragraph("***"), "\\***");
        assert_eq!(md_paragraph("_a_ _b_ _c_"), "_a_ _b_ _c_");
        assert_eq!(md_paragraph("[^1]: note"), "\\[^1]: note");
        assert_eq!(md_paragraph("3. x"), "3\\. x");
        assert_eq!(md_paragraph("    code"), "code");
    }

    #[test]
    fn summaries_keep_code_and_emphasis_and_nothing_else() {
        assert_eq!(
            md_summary(
                "Uses `url` and *no* **type**; ~~old~~ [see](https://evil.example) ![i](x.png)"
            ),
            "Uses `url` and *no* **type**; ~~old~~ see i"
        );
        assert_eq!(
            md_summary("x\n\n# INJECTED <!-- c --> <b>b</b> a_b [^1]"),
            "x \\# INJECTED \\<!-- c --> \\<b>b\\</b> a_b \\[^1\\]"
        );
        assert_eq!(md_summary("- item"), "\\- item");
        assert_eq!(md_summary("`` a`b ``"), "``a`b``");
        assert_eq!(md_summary("``` a``b ```"), "```a``b```");
        assert_eq!(md_summary("```js"), "\\`\\`\\`js");
        assert_eq!(md_summary(""), "");
    }

    #[test]
    fn code_spans_outlast_their_backticks() {
        assert_eq!(md_code("transports.sse"), "`transports.sse`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`x``"), "``` `x`` ```");
        assert_eq!(md_code("a\n\nb"), "`a b`");
        assert_eq!(md_code(""), "");
    }

    #[test]
    fn destinations_cannot_be_left() {
        assert_eq!(
            md_url("https://x.io/a b(c)<d>\"e\"\\|`\n"),
            "https://x.io/a%20b%28c%29%3Cd%3E%22e%22%5C%7C%60%0A"
        );
        assert_eq!(md_url("https://x.io/é?q=1#f"), "https://x.io/é?q=1#f");
        assert_eq!(md_url("/a\u{2028}b"), "/a%E2%80%A8b");
    }

    #[test]
    fn nul_becomes_the_replacement_character() {
        assert_eq!(without_nul("a\0b"), "a\u{fffd}b");
        assert!(matches!(without_nul("ab"), Cow::Borrowed(_)));
    }
}
