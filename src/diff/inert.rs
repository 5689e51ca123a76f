//! Review output on GitHub (a job summary, a pull-request or issue comment) from text a pull
//! request wrote: inert, and sized to GitHub's limits. Used by the diff's Markdown and by
//! lint's Markdown format (the job summary).
//!
//! Inert: such text is shown as a GitHub-flavoured Markdown code span ([`span`], [`cell`]),
//! in which GitHub renders no image, link, autolink (`www.`, `https://`), `@mention`, issue
//! reference, emoji, entity or HTML; its controls made visible by the one sanitizer for
//! outside text (`render::escape::visible_controls`: bidi controls as `<U+202E>`), its line
//! breaks folded (`render::escape::markdown::md_code`), and cut at a number of characters.
//! Backslash escapes are not enough on GitHub: `\@team` still mentions the team and
//! `www.x.io` needs no character that could be escaped.
//!
//! Sized: a [`Budget`] takes pieces while they fit under a byte cap and counts the rest, so
//! that a comment never needs cutting (a cut could leave `<details>` open) and a job summary
//! stays far under GitHub's 1 MiB.

use crate::render::escape::{markdown::md_code, visible_controls};

/// The bytes a pull-request comment may take here: GitHub refuses one past 65,536
/// characters, and a wrapper (a marker, a footer) goes around it.
pub(crate) const COMMENT_BYTES: usize = 60_000;

/// Bytes kept free by [`Budget::push`] for what must follow (closing tags, "more" lines).
const RESERVE: usize = 2_000;

/// `text` as a code span on one line, its controls visible, at most `max_chars` characters
/// of it (then `…`). Empty text is an empty string.
pub(crate) fn span(text: &str, max_chars: usize) -> String {
    let visible = visible_controls(text);
    let cut: String = match visible.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &visible[..at]),
        None => visible.into_owned(),
    };
    md_code(&cut)
}

/// [`span`] for a table cell: each `|` escaped, which GitHub reads back as `|` inside a
/// code span in a table, so that nothing ends the cell.
pub(crate) fn cell(text: &str, max_chars: usize) -> String {
    span(text, max_chars).replace('|', "\\|")
}

/// Markdown built piece by piece within a byte cap.
#[derive(Debug)]
pub(crate) struct Budget {
    out: String,
    cap: usize,
    left_out: usize,
}

impl Budget {
    /// An empty text that [`Budget::push`] keeps within `cap` bytes ([`RESERVE`] of them
    /// for [`Budget::close`]).
    pub(crate) fn new(cap: usize) -> Budget {
        Budget {
            out: String::new(),
            cap: cap.max(2 * RESERVE),
            left_out: 0,
        }
    }

    /// Appends `piece` when it fits with the reserve free after it; otherwise counts it
    /// left out. Whether it was appended.
    pub(crate) fn push(&mut self, piece: &str) -> bool {
        if self.out.len() + piece.len() + RESERVE > self.cap {
            self.left_out += 1;
            return false;
        }
        self.out.push_str(piece);
        true
    }

    /// Appends what must follow whatever was left out: a closing tag, a "more" line. Short
    /// pieces only, within the reserve.
    pub(crate) fn close(&mut self, piece: &str) {
        debug_assert!(piece.len() < RESERVE / 4, "a closing piece is short");
        self.out.push_str(piece);
    }

    /// The text, with a line saying how many pieces (`what`, plural) were left out when some
    /// were, and where the whole is.
    pub(crate) fn finish(mut self, what: &str, whole: &str) -> String {
        if self.left_out > 0 {
            let line = format!(
                "\n…and {} more {what} left out to keep this under {} bytes: {whole}.\n",
                self.left_out, self.cap
            );
            self.out.push_str(&line);
        }
        self.out
    }
}

/// What GitHub would render active in `markdown`, one line each (empty: nothing): a link,
/// an image, HTML other than the renderer's own balanced `<details><summary>…</summary>` and
/// `</details>`, and outside code spans an autolink (`www.`, `://`), an `@mention` or a bidi
/// control. Read with GitHub's extensions (tables, strikethrough, footnotes, task lists).
/// The tests of every review format run their output through it.
pub fn problems(markdown: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS;
    let mut found = Vec::new();
    let mut details = 0i64;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => found.push(format!("a link to {dest_url}")),
            Event::Start(Tag::Image { dest_url, .. }) => {
                found.push(format!("an image from {dest_url}"))
            }
            Event::Html(html) | Event::InlineHtml(html) => match html.trim() {
                h if h.starts_with("<details><summary>") && h.ends_with("</summary>") => {
                    details += 1
                }
                "</details>" => details -= 1,
                other => found.push(format!("HTML `{other}`")),
            },
            Event::Text(text) => {
                let lower = text.to_lowercase();
                let mention = (lower.match_indices('@'))
                    .any(|(at, _)| lower[at + 1..].starts_with(|c: char| c.is_alphanumeric()));
                if mention || lower.contains("www.") || lower.contains("://") {
                    found.push(format!("an autolink or mention in `{text}`"));
                }
            }
            _ => {}
        }
    }
    if details != 0 {
        found.push(format!("{details} <details> left open"));
    }
    if markdown.contains(['\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}'])
        || markdown.contains(['\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}'])
    {
        found.push("a bidi control".to_string());
    }
    found
}

/// Panics with [`problems`] when there are any.
#[cfg(test)]
pub(crate) fn assert_inert(markdown: &str) {
    let found = problems(markdown);
    assert!(found.is_empty(), "{}\nin:\n{markdown}", found.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "![t](https://t.example/p.png) [x](javascript:y) <img src=x> \
                           @org/team www.evil.example https://a.example #12 &amp; \u{202e}cba \
                           `a|b` ```` x\ny\r\u{85}z";

    #[test]
    fn pull_request_text_becomes_an_inert_span() {
        let shown = span(HOSTILE, 500);
        assert!(!shown.contains('\n') && !shown.contains('\r'));
        assert!(shown.contains("<U+202E>cba"), "{shown}");
        assert_inert(&format!("text {shown} text\n"));
        let row = format!("| a | b |\n| --- | --- |\n| {} | x |\n", cell(HOSTILE, 500));
        assert_inert(&row);
        // Still one row of two cells.
        let parsed = pulldown_cmark::Parser::new_ext(&row, pulldown_cmark::Options::ENABLE_TABLES);
        let cells = parsed
            .filter(|e| {
                matches!(
                    e,
                    pulldown_cmark::Event::Start(pulldown_cmark::Tag::TableCell)
                )
            })
            .count();
        assert_eq!(cells, 4);
        assert_eq!(span(&"é".repeat(50), 10), format!("`{}…`", "é".repeat(10)));
    }

    #[test]
    fn a_budget_keeps_its_cap_and_counts_what_it_left_out() {
        let mut budget = Budget::new(10_000);
        budget.push("<details><summary>x</summary>\n");
        for _ in 0..1000 {
            budget.push(&"y".repeat(99));
        }
        budget.close("\n</details>\n");
        let text = budget.finish("rows", "the JSON has them all");
        let left_out: usize = (text.rsplit("…and ").next())
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("an N more line");
        assert!(left_out > 900, "{left_out}");
        assert!(text.len() <= 10_000, "{}", text.len());
        assert!(text.ends_with("the JSON has them all.\n"));
        assert!(text.contains("</details>"));
    }
}
