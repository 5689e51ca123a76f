//! What a research note's body restates of its front matter ([`Restated`]): a leading
//! `# title`, a metadata line right after it, and `## Sources` and `## Related notes`
//! sections that hold one list and nothing else. Found from the headings the body scan
//! recorded, parsing only those few blocks again.

use crate::model::{Body, MetadataField, Restated, RestatedBlock, RestatedSection, Spanned};
use crate::parse::markdown::options;
use crate::text_file::{FileId, Span};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// The keys a metadata line may hold, as the seed writes them (matched case-insensitively).
pub const METADATA_KEYS: &[&str] = &[
    "Kind",
    "Status",
    "Last verified",
    "Last updated",
    "Clients",
    "Capabilities",
    "Revisions",
    "Spec revisions",
    "Spec versions",
];

/// The separator between a metadata line's fields.
const FIELD_SEPARATOR: char = '·';

/// The restated parts of `body` (offsets are file offsets into `text`).
pub fn find(text: &str, file: FileId, body: &Body) -> Restated {
    let end = body.range.end;
    let mut restated = Restated::default();
    let mut after = body.range.start;
    if body.leading_h1.is_some() {
        if let Some(heading) = body.headings.first() {
            let block = Span::new(file, heading.span.start, heading.span.end);
            restated.title = Some(RestatedBlock {
                value: heading_text(text, block),
                block,
            });
            after = heading.span.end;
        }
    }
    restated.metadata = metadata_line(text, file, after, end);
    for (i, heading) in body.headings.iter().enumerate() {
        if heading.level != 2 {
            continue;
        }
        let slot = match heading.anchor.as_str() {
            "sources" => &mut restated.sources,
            "related-notes" | "related" => &mut restated.related,
            _ => continue,
        };
        if slot.is_some() {
            continue;
        }
        let section_end = body.headings[i + 1..]
            .iter()
            .find(|h| h.level <= 2)
            .map_or(end, |h| h.span.start);
        *slot = list_section(text, file, i, heading.span, section_end);
    }
    restated
}

/// An ATX or setext heading's text as written, with its span (markers and spaces left out).
fn heading_text(text: &str, heading: Span) -> Spanned<String> {
    let raw = &text[heading.start..heading.end];
    let line_end = raw.find(['\r', '\n']).unwrap_or(raw.len());
    let line = &raw[..line_end];
    let (start, content) = match line.trim_start().strip_prefix('#') {
        Some(_) => {
            let body = line.trim_start().trim_start_matches('#');
            let body = body.trim_end().trim_end_matches('#');
            let lead = body.len() - body.trim_start().len();
            let offset = line.len() - line.trim_start().trim_start_matches('#').len();
            (offset + lead, body.trim())
        }
        None => (line.len() - line.trim_start().len(), line.trim()),
    };
    let start = heading.start + start;
    Spanned::new(
        content.to_string(),
        Span::new(heading.file, start, start + content.len()),
    )
}

/// The paragraph starting at the first non-blank line from `from`, when every field of it is
/// a known `Key: value` and it has two or more.
fn metadata_line(
    text: &str,
    file: FileId,
    from: usize,
    end: usize,
) -> Option<RestatedBlock<Vec<MetadataField>>> {
    let rest = &text[from..end];
    let start = from + (rest.len() - rest.trim_start_matches(['\r', '\n', ' ', '\t']).len());
    // Back to the start of that line, so an indented line counts as its own block.
    let start = text[..start]
        .rfind('\n')
        .map_or(from, |n| (n + 1).max(from));
    let mut stop = start;
    for line in text[start..end].split_inclusive('\n') {
        if line.trim().is_empty() {
            break;
        }
        stop += line.len();
    }
    let paragraph = &text[start..stop];
    if paragraph.starts_with([' ', '\t']) {
        return None;
    }
    let mut fields = Vec::new();
    let mut offset = start;
    for part in paragraph.split(FIELD_SEPARATOR) {
        let part_start = offset;
        offset += part.len() + FIELD_SEPARATOR.len_utf8();
        let lead = part.len() - part.trim_start().len();
        let part = part.trim();
        let (key, value) = part.split_once(':')?;
        if !METADATA_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key)) {
            return None;
        }
        let value_lead = value.len() - value.trim_start().len();
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let key_start = part_start + lead;
        let value_start = key_start + key.len() + 1 + value_lead;
        fields.push(MetadataField {
            key: Spanned::new(
                key.to_string(),
                Span::new(file, key_start, key_start + key.len()),
            ),
            value: Spanned::new(
                value.to_string(),
                Span::new(file, value_start, value_start + value.len()),
            ),
        });
    }
    (fields.len() >= 2).then(|| RestatedBlock {
        value: fields,
        block: Span::new(file, start, stop),
    })
}

/// The section from heading `heading` (at `heading_span`) to `end`, when all it holds after
/// the heading is one list: its items as written, markers left out.
fn list_section(
    text: &str,
    file: FileId,
    heading: usize,
    heading_span: Span,
    end: usize,
) -> Option<RestatedSection> {
    let base = heading_span.end;
    let slice = &text[base..end];
    let mut depth = 0usize;
    let mut lists = 0;
    let mut list_end = base;
    let mut items = Vec::new();
    for (event, range) in Parser::new_ext(slice, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::List(_)) if depth == 0 => lists += 1,
            Event::Start(Tag::Item) if depth == 1 => {
                let raw = &slice[range.clone()];
                let marker = item_marker(raw);
                let item = raw[marker..].trim_end();
                let start = base + range.start + marker;
                items.push(Spanned::new(
                    item.to_string(),
                    Span::new(file, start, start + item.len()),
                ));
            }
            Event::End(TagEnd::List(_)) if depth == 1 => {
                list_end = base + range.end;
            }
            Event::Start(_) if depth == 0 => return None,
            Event::Html(_) | Event::Text(_) | Event::Rule if depth == 0 => return None,
            _ => {}
        }
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (lists == 1).then(|| RestatedSection {
        heading,
        items,
        block: Span::new(file, heading_span.start, list_end),
    })
}

/// The length of a list item's marker and the spaces after it (`- `, `* `, `12. `).
fn item_marker(item: &str) -> usize {
    let bullet = item.len() - item.trim_start_matches(['-', '*', '+']).len();
    let ordered = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let marker = match (bullet, ordered) {
        (1, _) => 1,
        (0, n) if n > 0 && item[n..].starts_with(['.', ')']) => n + 1,
        _ => 0,
    };
    let rest = &item[marker..];
    marker + (rest.len() - rest.trim_start_matches([' ', '\t']).len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::markdown::scan;

    const NOTE: &str = "\n# The `x` title\n\nKind: compliance · Status: current · Last verified: 2026-11-09\n\nProse.\n\n## Sources\n\n- [a](https://x.io), commit `abc1234`\n- [b](https://y.io)\n\n## Related notes\n\n1. [n](/research/n.md)\n\n## After\n\nMore.\n";

    fn found(text: &str) -> Restated {
        find(text, 0, &scan(text, 0, 0..text.len()))
    }

    fn at(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    #[test]
    fn finds_the_title_metadata_line_sources_and_related() {
        let r = found(NOTE);
        let title = r.title.expect("title");
        assert_eq!(title.value.value, "The `x` title");
        assert_eq!(at(NOTE, title.value.span), "The `x` title");
        let meta = r.metadata.expect("metadata");
        let fields: Vec<(&str, &str)> = (meta.value.iter())
            .map(|f| (at(NOTE, f.key.span), at(NOTE, f.value.span)))
            .collect();
        assert_eq!(
            fields,
            [
                ("Kind", "compliance"),
                ("Status", "current"),
                ("Last verified", "2026-11-09")
            ]
        );
        assert!(at(NOTE, meta.block).starts_with("Kind:"));
        let sources = r.sources.expect("sources");
        let items: Vec<&str> = sources.items.iter().map(|i| at(NOTE, i.span)).collect();
        assert_eq!(
            items,
            ["[a](https://x.io), commit `abc1234`", "[b](https://y.io)"]
        );
        assert!(at(NOTE, sources.block).starts_with("## Sources"));
        assert!(at(NOTE, sources.block)
            .trim_end()
            .ends_with("[b](https://y.io)"));
        let related = r.related.expect("related");
        assert_eq!(related.items[0].value, "[n](/research/n.md)");
        assert!(!at(NOTE, related.block).contains("After"));
    }

    #[test]
    fn prose_is_never_a_restatement() {
        let text = "# T\n\nKind of odd: this · that\n\n## Sources\n\nRead the code.\n\n- [a](https://x.io)\n\n## Related notes\n\n- [n](/research/n.md)\n\n### Why\n";
        let r = found(text);
        assert!(r.title.is_some());
        assert!(r.metadata.is_none(), "an unknown key");
        assert!(r.sources.is_none(), "a paragraph beside the list");
        assert!(r.related.is_none(), "a sub-heading beside the list");
        assert!(found("Intro.\n\nKind: a · Status: b\n").metadata.is_none());
        assert!(found("Kind: a\n").metadata.is_none(), "one field");
    }
}
