//! Page bodies: the document's Markdown as HTML and as written, and which of the template's
//! sections the body already has.

use super::escape;
use super::markdown::{self, BodyOptions};
use super::views::Ctx;
use crate::index::routes::Page;
use crate::index::template_anchors;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

/// A page's Markdown body, as HTML and as written.
#[derive(Debug, Serialize)]
pub struct BodyView<'a> {
    pub html: String,
    /// The body as the author wrote it (the `.md` rendition prints it unchanged but for NUL,
    /// which becomes U+FFFD as in the HTML).
    pub markdown: Cow<'a, str>,
    /// The body opens with an H1, so the `.md` rendition needs no title line of its own.
    pub has_title: bool,
    /// The anchor of the dropped leading H1, which the page's own `<h1>` takes over.
    pub title_anchor: Option<&'a str>,
    /// For each template section of the page (`template_anchors`), whether the body
    /// already has it: see [`covers`].
    pub covers: BTreeMap<&'static str, bool>,
    /// The anchors of the body's restated sections left out of the page (`## Sources`,
    /// `## Related notes`), by the template section that shows their facts instead
    /// (`sources`, `related`): that section keeps the anchor, so links to it still land.
    pub restated_anchors: BTreeMap<&'static str, &'a str>,
    /// The body's sections (H2 and H3), for a table of contents; empty on short bodies.
    pub toc: Vec<TocEntry<'a>>,
}

/// One heading of a body's table of contents.
#[derive(Debug, Serialize)]
pub struct TocEntry<'a> {
    pub level: u8,
    pub text: &'a str,
    pub anchor: &'a str,
}

/// A body gets a table of contents from this many H2 and H3 headings on.
const TOC_MIN_HEADINGS: usize = 3;

impl<'a> Ctx<'a> {
    /// The body of a page's document. The leading H1 is dropped: the template shows the
    /// title as the page's `<h1>`, which takes over the H1's anchor so links to it still land.
    /// What a note's body restates of its front matter (its title, metadata line, `## Sources`
    /// and `## Related notes` lists: [`crate::model::Restated`]) is left out of both the HTML
    /// and the Markdown: the template shows the front matter's version of each fact, once.
    pub fn body(&self, page: Page) -> BodyView<'a> {
        let Some(doc) = self.document(page) else {
            return BodyView {
                html: String::new(),
                markdown: Cow::Borrowed(""),
                has_title: false,
                title_anchor: None,
                covers: BTreeMap::new(),
                restated_anchors: BTreeMap::new(),
                toc: Vec::new(),
            };
        };
        let body = &doc.body;
        let markdown = self.markdown(page);
        let drop = body.leading_h1.is_some();
        let restated: Vec<Range<usize>> = (body.restated.blocks().iter())
            .map(|b| b.start - body.range.start..b.end - body.range.start)
            .collect();
        let options = BodyOptions {
            headings: &body.headings,
            drop_leading_h1: drop,
            unsafe_html: self.config().markdown.unsafe_html,
            drop: &restated,
            max_highlight_bytes: self.config().limits.max_highlight_bytes,
        };
        let targets = self.links_of(page);
        let html = markdown::body_html(markdown, &options, |i, dest| {
            self.rewrite(targets.get(i).copied(), dest)
        });
        let shown = |i: &usize| !body.restated.drops_heading(*i);
        let headings = || {
            (0..body.headings.len())
                .filter(shown)
                .map(|i| &body.headings[i])
        };
        let mut restated_anchors = BTreeMap::new();
        for (section, part) in [
            ("sources", &body.restated.sources),
            ("related", &body.restated.related),
        ] {
            if let Some(heading) = part.as_ref().and_then(|p| body.headings.get(p.heading)) {
                restated_anchors.insert(section, heading.anchor.as_str());
            }
        }
        BodyView {
            html,
            // Blank lines around the body go; an indented first line stays (it may be code).
            markdown: match without(markdown, &restated) {
                Cow::Borrowed(kept) => escape::markdown::without_nul(kept),
                Cow::Owned(kept) => Cow::Owned(escape::markdown::without_nul(&kept).into_owned()),
            },
            has_title: drop && body.restated.title.is_none(),
            title_anchor: drop
                .then(|| body.headings.first().map(|h| h.anchor.as_str()))
                .flatten(),
            covers: covers(page, headings().map(|h| h.anchor.as_str())),
            restated_anchors,
            toc: toc(headings()),
        }
    }
}

/// `markdown` without the byte ranges `cut` (sorted, not overlapping), blank lines around
/// it trimmed: a cut block leaves one blank line between its neighbours.
fn without<'m>(markdown: &'m str, cut: &[Range<usize>]) -> Cow<'m, str> {
    let trim = |s: &'m str| s.trim_start_matches(['\r', '\n']).trim_end();
    if cut.is_empty() {
        return Cow::Borrowed(trim(markdown));
    }
    let mut kept: Vec<&str> = Vec::new();
    let mut at = 0;
    for range in cut {
        kept.push(trim(&markdown[at..range.start.max(at)]));
        at = range.end.max(at);
    }
    kept.push(trim(&markdown[at..]));
    kept.retain(|part| !part.is_empty());
    Cow::Owned(kept.join("\n\n"))
}

/// The H2 and H3 headings of a body, when there are enough to need a table of contents.
fn toc<'h>(headings: impl Iterator<Item = &'h crate::model::Heading>) -> Vec<TocEntry<'h>> {
    let entries: Vec<TocEntry<'_>> = headings
        .filter(|h| matches!(h.level, 2 | 3))
        .map(|h| TocEntry {
            level: h.level,
            text: &h.text,
            anchor: &h.anchor,
        })
        .collect();
    if entries.len() >= TOC_MIN_HEADINGS {
        entries
    } else {
        Vec::new()
    }
}

/// Which template sections a body already has.
///
/// A page's template sections carry the ids of [`template_anchors`] (`sources`, `related`,
/// `backlinks`, …). A body heading keeps the anchor the index gave it, because that is the
/// anchor lint checks links against and the one the author's `.md` links use. When a body
/// heading's anchor is a section's anchor, or the slug of the section's title (`## Related
/// notes` → `related-notes` covers `related`), the body already has that section: the
/// template then leaves its own copy out, so no page shows two "Related notes" headings
/// or two elements with one id. Sources are the one exception in substance: their pinned
/// links are the point of a note page, so a note whose body has `## Sources` still gets
/// them, under "Pinned sources" (`#pinned-sources`) instead of a second "Sources".
pub fn covers<'h>(
    page: Page,
    anchors: impl Iterator<Item = &'h str> + Clone,
) -> BTreeMap<&'static str, bool> {
    template_anchors(page)
        .iter()
        .filter(|a| **a != "top")
        .map(|&a| {
            let title = section_title_slug(a);
            (a, anchors.clone().any(|h| h == a || h == title))
        })
        .collect()
}

/// The slug of the title the default theme gives each template section.
fn section_title_slug(anchor: &str) -> &'static str {
    match anchor {
        "sources" => "sources",
        "related" => "related-notes",
        "backlinks" => "linked-from",
        "support" => "support",
        "notes" => "research-notes",
        "capabilities" => "capabilities",
        "matrix" => "support-matrix",
        _ => "",
    }
}
