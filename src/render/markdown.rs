//! Markdown to HTML: site links rewritten to routes, headings given their index anchors, a
//! leading H1 dropped, raw HTML shown as text rather than passed through, NUL replaced.
//! Front-matter Markdown (summaries, support notes) renders as inline content only.

use super::{escape, highlight};
use crate::model::Heading;
use crate::parse::markdown::options;
use pulldown_cmark::{CodeBlockKind, CowStr, Event, Parser, Tag, TagEnd};
use std::ops::Range;

/// How a body is turned into HTML.
pub struct BodyOptions<'a> {
    /// The anchors of the body's headings, in order (from the index, already unique).
    pub headings: &'a [Heading],
    /// Leave out the body's opening H1 (the template shows the title).
    pub drop_leading_h1: bool,
    /// Pass raw HTML through (`markdown.unsafeHtml` in `site.yaml`); otherwise it shows as text.
    pub unsafe_html: bool,
    /// Byte ranges of `markdown` to leave out (what a note's body restates of its front
    /// matter); their headings and links are still counted.
    pub drop: &'a [Range<usize>],
    /// Fenced blocks longer than this are not highlighted (`limits.maxHighlightBytes`).
    pub max_highlight_bytes: usize,
}

/// Renders a body. `link(i, dest)` gives the HTML destination of the `i`-th link or image
/// (counted in the same order as [`crate::parse::markdown::scan`] records them). Headings
/// get their index anchor and a `#` link to it; fenced code is highlighted.
pub fn body_html(
    markdown: &str,
    options: &BodyOptions<'_>,
    mut link: impl FnMut(usize, &str) -> String,
) -> String {
    let mut heading = 0;
    let mut links = 0;
    let mut skipping = false;
    let mut anchor: Option<String> = None;
    // A fenced block being collected: its language and text.
    let mut code: Option<(String, String)> = None;
    let mut events: Vec<Event<'_>> = Vec::new();
    let drop = shifted_by_nul(markdown, options.drop);
    let markdown = escape::markdown::without_nul(markdown);
    for (event, range) in Parser::new_ext(&markdown, self::options()).into_offset_iter() {
        if drop.iter().any(|d| d.contains(&range.start)) {
            match event {
                Event::Start(Tag::Heading { .. }) => heading += 1,
                Event::Start(Tag::Link { .. } | Tag::Image { .. }) => links += 1,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let i = heading;
                heading += 1;
                if i == 0 && options.drop_leading_h1 && level == pulldown_cmark::HeadingLevel::H1 {
                    skipping = true;
                    continue;
                }
                anchor = options.headings.get(i).map(|h| h.anchor.clone());
                events.push(Event::Start(Tag::Heading {
                    level,
                    id: anchor.clone().map(CowStr::from),
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(_)) if skipping => skipping = false,
            Event::End(end @ TagEnd::Heading(_)) => {
                if let Some(id) = anchor.take() {
                    events.push(Event::InlineHtml(self_link(&id).into()));
                }
                events.push(Event::End(end));
            }
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) if skipping => links += 1,
            _ if skipping => {}
            Event::Start(mut tag @ (Tag::Link { .. } | Tag::Image { .. })) => {
                if let Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } = &mut tag {
                    *dest_url = link(links, dest_url).into();
                }
                links += 1;
                events.push(Event::Start(tag));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                code = Some((highlight::language(&info).to_string(), String::new()));
            }
            Event::Text(text) if code.is_some() => {
                if let Some((_, buffer)) = code.as_mut() {
                    buffer.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) if code.is_some() => {
                if let Some((lang, text)) = code.take() {
                    events.push(Event::Html(highlight::code_block(&lang, &text, options.max_highlight_bytes).into()));
                }
            }
            other if options.unsafe_html => events.push(other),
            other => events.push(escape_raw_html(other)),
        }
    }
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// `ranges` of `markdown` moved to where they fall once each NUL has become U+FFFD (two
/// bytes longer).
fn shifted_by_nul(markdown: &str, ranges: &[Range<usize>]) -> Vec<Range<usize>> {
    if !markdown.contains('\0') {
        return ranges.to_vec();
    }
    let shift = |at: usize| {
        at + 2 * markdown.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == 0)
            .count()
    };
    ranges
        .iter()
        .map(|r| shift(r.start)..shift(r.end))
        .collect()
}

/// The `#` link a heading ends with: the section's address, to copy (site.js copies it on a
/// click) or open. It can be focused and is named for screen readers; it shows on hover and
/// focus, and always on touch screens.
fn self_link(anchor: &str) -> String {
    let mut html = String::from(" <a class=\"anchor\" href=\"#");
    escape::html(anchor, &mut html);
    html.push_str("\" aria-label=\"Link to this section\">#</a>");
    html
}

/// Renders front-matter Markdown (a summary, a support cell's notes) as inline HTML, without
/// a `<p>`. It is read as one paragraph ([`escape::markdown::md_paragraph`]), so a line break
/// cannot start a heading, list, quote or code block; should anything but one paragraph come
/// out all the same, the text is shown escaped instead.
pub fn inline_html(markdown: &str, mut link: impl FnMut(&str) -> String) -> String {
    let none = BodyOptions {
        headings: &[],
        drop_leading_h1: false,
        unsafe_html: false,
        drop: &[],
        // Front matter is capped far below this (`limits.maxFrontMatterBytes`).
        max_highlight_bytes: crate::config::Limits::default().max_highlight_bytes,
    };
    let html = body_html(
        &escape::markdown::md_paragraph(markdown),
        &none,
        |_, dest| link(dest),
    );
    let inner = html
        .trim_end()
        .strip_prefix("<p>")
        .and_then(|s| s.strip_suffix("</p>"));
    match inner {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        None if html.is_empty() => html,
        _ => {
            let mut text = String::new();
            escape::html(markdown, &mut text);
            text
        }
    }
}

/// Front-matter Markdown (a summary) as the plain text a reader sees: code spans and link
/// texts kept, their markers, link targets and raw HTML tags gone, whitespace collapsed. For
/// what is not HTML: search excerpts, `<meta name="description">`.
pub fn plain_text(markdown: &str) -> String {
    let mut text = String::with_capacity(markdown.len());
    let paragraph = escape::markdown::md_paragraph(markdown);
    for event in Parser::new_ext(&paragraph, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ")
}

/// Raw HTML becomes text: inline HTML is escaped in place, an HTML block is shown as code.
fn escape_raw_html(event: Event<'_>) -> Event<'_> {
    match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::HtmlBlock) => Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)),
        Event::End(TagEnd::HtmlBlock) => Event::End(TagEnd::CodeBlock),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::markdown::scan;

    fn render_with(text: &str, drop: bool, unsafe_html: bool) -> String {
        let body = scan(text, 0, 0..text.len());
        let options = BodyOptions {
            headings: &body.headings,
            drop_leading_h1: drop,
            unsafe_html,
            drop: &[],
            max_highlight_bytes: usize::MAX,
        };
        body_html(text, &options, |i, dest| format!("{i}:{dest}"))
    }

    fn render(text: &str, drop: bool) -> String {
        render_with(text, drop, false)
    }

    #[test]
    fn raw_html_passes_only_when_the_site_allows_it() {
        let html = render_with("Hi <b>there</b>\n", false, true);
        assert!(html.contains("<b>there</b>"), "{html}");
    }

    #[test]
    fn headings_get_index_anchors_and_links_are_counted() {
        let html = render(
            "# T [a](/x.md)\n\n## Sources\n\n## Sources\n\n[b](/y.md) ![c](z.png)\n",
            true,
        );
        assert!(!html.contains("<h1"), "{html}");
        assert!(
            html.contains("<h2 id=\"sources\">Sources <a class=\"anchor\" href=\"#sources\""),
            "{html}"
        );
        assert!(html.contains("<h2 id=\"sources-1\">"), "{html}");
        assert!(html.contains("href=\"1:/y.md\""), "{html}");
        assert!(html.contains("src=\"2:z.png\""), "{html}");
    }

    #[test]
    fn keeps_the_h1_when_asked_and_escapes_raw_html() {
        let html = render("# T\n\n<script>x()</script>\n\nHi <b>there</b>\n", false);
        assert!(
            html.contains("<h1 id=\"t\">T <a class=\"anchor\""),
            "{html}"
        );
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(
            html.contains("&lt;script&gt;") && html.contains("&lt;b&gt;"),
            "{html}"
        );
    }

    #[test]
    fn front_matter_markdown_makes_no_block() {
        let link = |d: &str| d.to_string();
        assert_eq!(
            inline_html("x\n\n# Heading\n- item\n\n    code", link),
            "x # Heading - item code"
        );
        assert_eq!(inline_html("# Heading", link), "# Heading");
        assert_eq!(inline_html("1. first", link), "1. first");
        assert_eq!(
            inline_html("<div>x</div>", link),
            "&lt;div&gt;x&lt;/div&gt;"
        );
        assert_eq!(inline_html("", link), "");
    }

    #[test]
    fn nul_becomes_the_replacement_character() {
        let html = render("a\0b `c\0`\n\n```\nd\0\n```\n", false);
        assert!(!html.contains('\0'), "{html:?}");
        assert_eq!(html.matches('\u{fffd}').count(), 3, "{html}");
    }

    #[test]
    fn plain_text_drops_markup_but_keeps_what_it_says() {
        assert_eq!(
            plain_text("Uses `x_y` [here](/a.md) and *so*\non <b>bold</b>."),
            "Uses x_y here and so on bold."
        );
    }

    #[test]
    fn inline_text_loses_its_paragraph() {
        assert_eq!(
            inline_html("Uses `x` [here](/a.md)", |d| d.replace(".md", "")),
            "Uses <code>x</code> <a href=\"/a\">here</a>"
        );
    }
}
