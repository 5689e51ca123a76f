//! Scanning a Markdown body for what the index needs: links, headings and their anchors,
//! raw HTML, and whether it opens with an H1.

use crate::model::{Body, BodyLink, Heading};
use crate::text_file::{FileId, Span};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::ops::Range;

/// The Markdown extensions fieldnotes enables, for scanning and rendering alike.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// Scans the body at `range` of `text` (offsets in the result are file offsets).
pub fn scan(text: &str, file: FileId, range: Range<usize>) -> Body {
    let base = range.start;
    let markdown = &text[range.clone()];
    let mut body = Body {
        range,
        ..Body::default()
    };
    let mut anchors = Anchors::default();
    let mut heading: Option<(u8, usize, String)> = None;
    let mut first_block = true;
    for (event, r) in Parser::new_ext(markdown, options()).into_offset_iter() {
        let span = Span::new(file, base + r.start, base + r.end);
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((heading_level(level), span.start, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, text)) = heading.take() {
                    let text = text.trim().to_string();
                    if first_block && level == 1 && body.headings.is_empty() {
                        body.leading_h1 = Some(text.clone());
                    }
                    body.headings.push(Heading {
                        level,
                        anchor: anchors.unique(&text),
                        text,
                        span: Span::new(file, start, span.end),
                    });
                }
                first_block = false;
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, acc)) = heading.as_mut() {
                    acc.push_str(&t);
                }
            }
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                let is_image = markdown[r.clone()].starts_with('!');
                let dest = dest_url.to_string();
                let span = dest_span(markdown, r.clone(), &dest)
                    .map_or(span, |d| Span::new(file, base + d.start, base + d.end));
                body.links.push(BodyLink {
                    dest,
                    is_image,
                    span,
                });
            }
            Event::Html(_) | Event::InlineHtml(_) => body.raw_html.push(span),
            Event::End(TagEnd::Paragraph)
            | Event::End(TagEnd::CodeBlock)
            | Event::End(TagEnd::List(_))
            | Event::End(TagEnd::BlockQuote(_))
            | Event::End(TagEnd::Table)
            | Event::End(TagEnd::HtmlBlock) => first_block = false,
            _ => {}
        }
    }
    body
}

/// The range of `dest` inside the link's source text, when it is written there.
fn dest_span(markdown: &str, link: Range<usize>, dest: &str) -> Option<Range<usize>> {
    if dest.is_empty() {
        return None;
    }
    let source = &markdown[link.clone()];
    // Most links end `dest)`: that is the last place `dest` is written, unless `dest` itself
    // ends in `)` (then a later one may overlap the closing parenthesis).
    let last = match source.strip_suffix(')') {
        Some(inner) if inner.ends_with(dest) && !dest.ends_with(')') => inner.len() - dest.len(),
        _ => source.rfind(dest)?,
    };
    Some(link.start + last..link.start + last + dest.len())
}

fn heading_level(level: HeadingLevel) -> u8 {
    level as u8
}

/// Hands out heading anchors, GitHub style, numbering repeats (`intro`, `intro-1`).
#[derive(Default)]
pub struct Anchors {
    seen: HashMap<String, usize>,
}

impl Anchors {
    pub fn unique(&mut self, heading: &str) -> String {
        let base = slug(heading);
        let count = self.seen.entry(base.clone()).or_insert(0);
        let anchor = if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        };
        *count += 1;
        anchor
    }
}

/// A heading's anchor: lowercase, letters, digits, `-` and `_` kept, spaces to `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_headings_and_leading_h1() {
        let text = "\n# Title\n\nSee [x](/research/a.md#b) and ![i](p.png).\n\n## Sources\n\n## Sources\n<b>hi</b>\n";
        let body = scan(text, 0, 0..text.len());
        assert_eq!(body.leading_h1.as_deref(), Some("Title"));
        assert_eq!(body.links.len(), 2);
        assert_eq!(
            &text[body.links[0].span.start..body.links[0].span.end],
            "/research/a.md#b"
        );
        assert!(body.links[1].is_image);
        let anchors: Vec<_> = body.headings.iter().map(|h| h.anchor.as_str()).collect();
        assert_eq!(anchors, ["title", "sources", "sources-1"]);
        assert!(!body.raw_html.is_empty());
    }

    #[test]
    fn a_destination_is_found_where_it_is_written_last() {
        for (link, dest) in [
            ("[a](x.md)", "x.md"),
            ("[x.md](x.md)", "x.md"),
            ("[a](b(c))", "b(c)"),
            ("[a](b(c)c))", "b(c)c)"),
            ("[a](x.md \"x.md\")", "x.md"),
            ("[a](<x.md>)", "x.md"),
            ("[a]", "x"),
        ] {
            let found = dest_span(link, 0..link.len(), dest);
            let last = link.rfind(dest).map(|at| at..at + dest.len());
            assert_eq!(found, last, "{link}");
        }
    }

    #[test]
    fn slugs_like_github() {
        assert_eq!(slug("Streamable HTTP vs. SSE!"), "streamable-http-vs-sse");
        assert_eq!(slug("`a_b` c"), "a_b-c");
    }
}
