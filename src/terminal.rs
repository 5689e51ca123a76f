//! Text for terminals: what a repository or content says, printed with its control characters
//! escaped (`\u{1b}`), so that a file name or a front-matter value cannot move the cursor,
//! clear the screen, retitle the window or reorder the line it is printed on.
//!
//! Every printer for people (lint's human format, the `sources` tables) passes such text
//! through [`escape`]; code frames pass the file they quote through [`escape_source`].

use std::borrow::Cow;

/// Whether `c` is shown escaped: C0 and C1 controls and DEL (tabs and line breaks included),
/// and the bidirectional formatting characters (embeddings, overrides, isolates and marks).
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every unsafe character written as Rust escapes it (`\u{1b}`); one line.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, |_, _| true)
}

/// A source file's text for a code frame: as [`escape`], with its layout kept (tabs, and line
/// ends `\n` and `\r\n`), so that its lines are the file's lines.
pub(crate) fn escape_source(text: &str) -> Cow<'_, str> {
    escape_where(text, |c, next| !is_layout(c, next))
}

/// Where byte `offset` of `text` is in [`escape_source`]`(text)` (an offset inside a character
/// is taken to that character's start).
pub(crate) fn source_offset(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let mut chars = before.chars().peekable();
    let mut grown = 0;
    while let Some(c) = chars.next() {
        // A `\r` ending the slice is judged by what follows it in the whole text.
        let next = chars
            .peek()
            .copied()
            .or_else(|| text[before.len()..].chars().next());
        if is_unsafe(c) && !is_layout(c, next) {
            grown += c.escape_unicode().len() - c.len_utf8();
        }
    }
    offset + grown
}

/// A tab, a line feed, or the `\r` of a `\r\n`.
fn is_layout(c: char, next: Option<char>) -> bool {
    c == '\t' || c == '\n' || (c == '\r' && next == Some('\n'))
}

/// `text` with each unsafe character that `escaped(c, next char)` accepts escaped.
fn escape_where(text: &str, escaped: impl Fn(char, Option<char>) -> bool) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match is_unsafe(c) && escaped(c, chars.peek().copied()) {
            true => out.extend(c.escape_unicode()),
            false => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_characters_are_shown_escaped() {
        assert_eq!(escape("a\x1b]0;pwned\x07.py"), "a\\u{1b}]0;pwned\\u{7}.py");
        assert_eq!(
            escape("\u{9b}2J \u{202e}txt.exe"),
            "\\u{9b}2J \\u{202e}txt.exe"
        );
        assert_eq!(escape("tab\there\nnext"), "tab\\u{9}here\\u{a}next");
        assert!(matches!(escape("plain ünïcode ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn source_text_keeps_its_lines_and_offsets_follow() {
        let text = "a:\tb\r\nc\x1b[2Jd\re\n";
        let escaped = escape_source(text);
        assert_eq!(escaped, "a:\tb\r\nc\\u{1b}[2Jd\\u{d}e\n");
        let d = text.find('d').expect("d");
        assert_eq!(&escaped[source_offset(text, d)..][..1], "d");
        let e = text.find('e').expect("e");
        assert_eq!(&escaped[source_offset(text, e)..][..1], "e");
        assert_eq!(source_offset(text, 3), 3);
        assert_eq!(source_offset("é\x1b", 1), 0, "inside a character");
    }
}
