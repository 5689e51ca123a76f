//! Reading a snippet of inline Markdown (a title, a metadata value, a list item) the way
//! pulldown-cmark reads it as a document of its own: the text a reader sees, the link
//! destinations, the ids a list names. Snippets that are plain words, or one plain link and
//! nothing else, are read without a parser (one costs about 20 KB of allocations, and FN706
//! reads several per note); the answer is the parser's (`tests` compare the two).

use crate::parse::markdown::options;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// Inline Markdown as the text a reader sees: code spans and link texts kept, markers gone,
/// whitespace collapsed.
pub fn plain(markdown: &str) -> String {
    if is_plain(markdown) {
        return collapse(markdown);
    }
    let mut text = String::new();
    for event in Parser::new_ext(markdown, options()) {
        if let Event::Text(t) | Event::Code(t) = event {
            text.push_str(&t);
        }
    }
    collapse(&text)
}

/// The link destinations in inline Markdown.
pub fn links(markdown: &str) -> Vec<String> {
    if is_plain(markdown) {
        return Vec::new();
    }
    if let Some(dest) = lone_link(markdown) {
        return vec![dest.to_string()];
    }
    Parser::new_ext(markdown, options())
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// The ids a list in inline Markdown names: a link's page (`/clients/cline.md` → `cline`),
/// a code span, or plain text between commas.
pub fn inline_items(markdown: &str) -> Vec<String> {
    if let Some(dest) = lone_link(markdown) {
        return vec![linked_id(dest)];
    }
    if is_plain(markdown) {
        return text_items(markdown.trim()).collect();
    }
    let mut items = Vec::new();
    let mut in_link = false;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                in_link = true;
                items.push(linked_id(&dest_url));
            }
            Event::End(TagEnd::Link) => in_link = false,
            Event::Code(code) if !in_link => items.push(code.trim().to_string()),
            Event::Text(text) if !in_link => items.extend(text_items(&text)),
            _ => {}
        }
    }
    items
}

/// The items of plain text in a list: split at commas and ` and `.
fn text_items(text: &str) -> impl Iterator<Item = String> + '_ {
    (text.split(',').flat_map(|t| t.split(" and ")))
        .map(|t| t.trim().trim_end_matches('.').trim())
        .filter(|t| !t.is_empty() && *t != "and")
        .map(str::to_string)
}

/// The id of the page a site link points to: its file name without `.md` or an anchor.
fn linked_id(dest: &str) -> String {
    let path = dest.split(['#', '?']).next().unwrap_or("");
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    name.strip_suffix(".md").unwrap_or(name).to_string()
}

/// Whitespace runs as one space, none at either end.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `markdown` is one line that the parser reads as a paragraph of one run of text,
/// exactly as written: it opens with a letter, or with digits that do not make a list marker
/// (`1.`, `2)`), and holds only letters, digits, spaces and punctuation that is never markup
/// (the markup characters, `*_`[]!<>&\~|{}^`, tabs, line breaks and non-ASCII send it to the
/// parser).
fn is_plain(markdown: &str) -> bool {
    let bytes = markdown.as_bytes();
    let Some(&first) = bytes.first() else {
        return false;
    };
    if !first.is_ascii_alphanumeric() {
        return false;
    }
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if matches!(bytes.get(digits), Some(b'.' | b')')) {
        return false;
    }
    bytes.iter().all(|&b| is_plain_byte(b))
}

/// A byte that is text wherever it stands after a line's first character.
fn is_plain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b" -.,:;?/()'\"=+%@#$".contains(&b)
}

/// The destination of `markdown` when it is one link and nothing else, `[text](dest)`, with
/// plain text and a destination of letters, digits and `-./:#?=%+@,;` only (no escapes,
/// entities, spaces, parentheses or title).
fn lone_link(markdown: &str) -> Option<&str> {
    let inner = markdown.strip_prefix('[')?.strip_suffix(')')?;
    let (text, dest) = inner.split_once("](")?;
    let plain_text = !text.is_empty() && text.bytes().all(is_plain_byte);
    let plain_dest = !dest.is_empty()
        && (dest.bytes()).all(|b| b.is_ascii_alphanumeric() || b"-./:#?=%+@,;".contains(&b));
    (plain_text && plain_dest).then_some(dest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the parser reads, for comparison with the shortcuts.
    fn parsed(markdown: &str) -> (String, Vec<String>, Vec<String>) {
        let mut text = String::new();
        let (mut links, mut items, mut in_link) = (Vec::new(), Vec::new(), false);
        for event in Parser::new_ext(markdown, options()) {
            match event {
                Event::Start(Tag::Link { dest_url, .. }) => {
                    in_link = true;
                    links.push(dest_url.to_string());
                    items.push(linked_id(&dest_url));
                }
                Event::End(TagEnd::Link) => in_link = false,
                Event::Code(t) => {
                    text.push_str(&t);
                    if !in_link {
                        items.push(t.trim().to_string());
                    }
                }
                Event::Text(t) => {
                    text.push_str(&t);
                    if !in_link {
                        items.extend(text_items(&t));
                    }
                }
                _ => {}
            }
        }
        (collapse(&text), links, items)
    }

    fn read(markdown: &str) -> (String, Vec<String>, Vec<String>) {
        (plain(markdown), links(markdown), inline_items(markdown))
    }

    #[test]
    fn reads_lists_as_written() {
        assert_eq!(
            inline_items("[cline](/clients/cline.md), [Hermes](../clients/hermes-agent.md#x)"),
            ["cline", "hermes-agent"]
        );
        assert_eq!(
            inline_items("`2024-11-05`, `2025-03-26`"),
            ["2024-11-05", "2025-03-26"]
        );
        assert_eq!(
            inline_items("cline, zed and goose."),
            ["cline", "zed", "goose"]
        );
        assert_eq!(inline_items("[note-1](/research/note-1.md)"), ["note-1"]);
        assert_eq!(plain("The `x` *title*"), "The x title");
        assert_eq!(
            plain("Client 10  handles (it) 109 "),
            "Client 10 handles (it) 109"
        );
    }

    #[test]
    fn shortcuts_leave_markup_to_the_parser() {
        for markdown in [
            "2025. A list",
            "1) item",
            "- item",
            "# Heading",
            "a *b* c",
            "x_y_",
            "a [^1] b",
            "[^1](x)",
            "[a](b c)",
            "[a](<b>)",
            "[a](b&amp;c)",
            "[a](b)(c)",
            "[a]: /x",
            "a\nb",
            "a\tb",
            "    code",
            "café",
            "",
        ] {
            assert_eq!(read(markdown), parsed(markdown), "{markdown:?}");
        }
        assert!(!is_plain("2025. A list") && is_plain("2025 was a year"));
        assert_eq!(lone_link("[a](b c)"), None);
    }

    proptest! {
        // Plain-looking snippets, links among them: the shortcuts answer as the parser does.
        #[test]
        fn shortcuts_answer_as_the_parser_does(
            text in "[a-zA-Z0-9][a-zA-Z0-9 .,:;?/()'\"=+%@#$-]{0,30}",
            dest in "[a-zA-Z0-9./:#?=%+@,;-]{1,20}",
            tail in "[a-zA-Z0-9 .,:;?/()'\"=+%@#$-]{0,10}",
        ) {
            for markdown in [
                text.clone(),
                format!("[{text}]({dest})"),
                format!("[{text}]({dest}){tail}"),
                format!("{tail}[{text}]({dest})"),
                format!("{text}, and {tail}"),
            ] {
                prop_assert_eq!(read(&markdown), parsed(&markdown), "{:?}", markdown);
            }
        }
    }
}
