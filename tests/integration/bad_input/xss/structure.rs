//! Front-matter text stays text. The XSS site's front matter also carries Markdown payloads (a
//! title that closes a link and opens a comment, line breaks that start headings, list items,
//! quotes and code, raw HTML, a NUL). Every `.md` rendition and `llms.txt` is parsed as
//! Markdown, every page as HTML and every feed as XML and then as the HTML it carries: a link
//! to `evil.example`, raw HTML or a comment holding the mark, or a block (heading, list item,
//! quote, code block, paragraph, element) that opens with the mark is a hole. No payload opens
//! with the mark, so only text broken apart by a parser can start a block with it.

use super::{feed_html, tags, xss_site};
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::fs;
use std::path::Path;

/// What the structure payloads mark: a block or raw HTML that starts with it is injected.
const MARK: &str = "INJECTED";

/// Where the payloads' links lead: a link there is injected.
const EVIL: &str = "evil.example";

/// Markdown payloads: each would make structure if front-matter text were pasted as is.
pub(super) const MD_PAYLOADS: &[&str] = &[
    "Nice note](https://evil.example/phish) <!--",
    "[a link](https://evil.example/a) ![an image](https://evil.example/i.png) \
     <https://evil.example/auto> [r][r]",
    "x\n\n# INJECTED heading #",
    "x\n- INJECTED item",
    "x\r\n\r\n1. INJECTED numbered item",
    "x\n\n> INJECTED quote",
    "x\n\n    INJECTED indented code",
    "x\n\n```\nINJECTED fenced code\n```\n",
    "x\n\n<div>INJECTED block</div>\n",
    "x\n[r]: https://evil.example/reference\n",
    "x <!-- INJECTED comment --> <b>INJECTED bold</b> &lt;INJECTED&gt;",
    "x\n\n| INJECTED | cell |\n| --- | --- |\n",
    "x\u{2028}\u{2029}\u{85}\u{b}\u{c}and a NUL \u{0} and \u{1}",
];

#[test]
fn front_matter_text_makes_no_structure_in_any_output() {
    let site = xss_site(false);
    let report = site.build();
    assert!(report.written, "{:#?}", report.diagnostics);
    assert!(
        site.output("llms.txt").contains(MARK),
        "the payloads never reached llms.txt"
    );
    let mut holes = Vec::new();
    for entry in walkdir::WalkDir::new(site.out()).sort_by_file_name() {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let name = entry.path().strip_prefix(site.out()).expect("under out");
            for hole in scan(entry.path()) {
                holes.push(format!("{}: {hole}", name.display()));
            }
        }
    }
    assert!(
        holes.is_empty(),
        "front-matter text made structure:\n{}",
        holes.join("\n")
    );
}

/// The structure front-matter text made in one output file, read as its reader reads it.
fn scan(path: &Path) -> Vec<String> {
    let bytes = fs::read(path).expect("read output");
    let mut holes = Vec::new();
    if bytes.contains(&0) {
        holes.push("a NUL byte".to_string());
    }
    let text = String::from_utf8_lossy(&bytes);
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "md" | "txt" => holes.extend(markdown_holes(&text)),
        "html" => holes.extend(html_holes(&text)),
        "xml" => {
            if let Err(e) = roxmltree::Document::parse(&text) {
                holes.push(format!("not well-formed XML: {e}"));
            }
            holes.extend(html_holes(&text));
            for html in feed_html(&text) {
                holes.extend(html_holes(&html));
            }
        }
        _ => {}
    }
    holes
}

/// Links to [`EVIL`], raw HTML holding [`MARK`] or [`EVIL`], blocks opening with [`MARK`].
fn markdown_holes(markdown: &str) -> Vec<String> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut holes = Vec::new();
    // The block just opened, until its first text.
    let mut opened: Option<String> = None;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if dest_url.contains(EVIL) =>
            {
                holes.push(format!("a link to {dest_url}"));
            }
            Event::Start(tag) if is_block(&tag) => opened = Some(format!("{tag:?}")),
            Event::Html(html) | Event::InlineHtml(html)
                if html.contains(MARK) || html.contains(EVIL) =>
            {
                holes.push(format!("raw HTML {html:?}"));
            }
            Event::Text(text) | Event::Code(text) | Event::Html(text) | Event::InlineHtml(text) => {
                if let Some(block) = opened.take() {
                    if text.trim_start().starts_with(MARK) {
                        holes.push(format!("{block} opening with {text:?}"));
                    }
                }
            }
            _ => {}
        }
    }
    holes
}

fn is_block(tag: &Tag<'_>) -> bool {
    !matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Link { .. }
            | Tag::Image { .. }
            | Tag::Superscript
            | Tag::Subscript
    )
}

/// Elements whose text opens with [`MARK`], and comments holding it.
fn html_holes(html: &str) -> Vec<String> {
    let mut holes = Vec::new();
    for tag in tags(html) {
        if html[tag.end..].trim_start().starts_with(MARK) {
            holes.push(format!("<{}> opening with {MARK}", tag.name));
        }
    }
    for (at, _) in html.match_indices("<!--") {
        let comment = &html[at..];
        let comment = &comment[..comment.find("-->").unwrap_or(comment.len())];
        if comment.contains(MARK) {
            holes.push(format!("a comment holding {MARK}"));
        }
    }
    holes
}
