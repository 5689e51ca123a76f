//! Research note and guide pages.

use super::body::BodyView;
use super::citations::{source_view_with, SourceView};
use super::views::{Ctx, DateView, LinkView, NoteCard};
use crate::index::routes::Page;
use crate::model::{doc_id, text};
use crate::text_file::Section;
use serde::Serialize;

/// A research note page.
#[derive(Debug, Serialize)]
pub struct NoteView<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
    pub summary_html: String,
    pub kind: &'a str,
    pub kind_id: &'a str,
    pub status: &'a str,
    pub superseded_by: Option<LinkView<'a>>,
    pub verified: Option<DateView<'a>>,
    pub updated: Option<DateView<'a>>,
    pub clients: Vec<LinkView<'a>>,
    pub capabilities: Vec<LinkView<'a>>,
    /// Spec revisions, titled by their id.
    pub specs: Vec<LinkView<'a>>,
    pub sources: Vec<SourceView<'a>>,
    pub related: Vec<NoteCard<'a>>,
    pub backlinks: Vec<LinkView<'a>>,
    pub body: BodyView<'a>,
    /// The sections the template adds after the body, as (anchor, title), for the table
    /// of contents.
    pub sections: Vec<[&'static str; 2]>,
}

/// A guide page.
#[derive(Debug, Serialize)]
pub struct GuideView<'a> {
    pub title: &'a str,
    pub summary: &'a str,
    pub summary_html: String,
    pub updated: Option<DateView<'a>>,
    pub backlinks: Vec<LinkView<'a>>,
    pub body: BodyView<'a>,
    /// The sections the template adds after the body, as (anchor, title).
    pub sections: Vec<[&'static str; 2]>,
}

pub fn note_view<'a>(ctx: &Ctx<'a>, i: usize) -> NoteView<'a> {
    let note = ctx.note(i);
    let page = Page::Note(i);
    let id = doc_id(&note.id, &note.doc);
    let summary = text(&note.summary);
    let body = ctx.body(page);
    let related: Vec<NoteCard<'a>> = ctx.related(i).iter().map(|&n| ctx.note_card(n)).collect();
    let backlinks = ctx.backlinks(page);
    let covers = |section: &str| body.covers.get(section).copied().unwrap_or(false);
    let mut sections = Vec::new();
    if !note.sources.is_empty() {
        sections.push(match covers("sources") {
            true => ["pinned-sources", "Pinned sources"],
            false => ["sources", "Sources"],
        });
    }
    if !related.is_empty() && !covers("related") {
        sections.push(["related", "Related notes"]);
    }
    if !backlinks.is_empty() && !covers("backlinks") {
        sections.push(["backlinks", "Linked from"]);
    }
    NoteView {
        id,
        title: note.display_title(),
        summary,
        summary_html: ctx.inline(summary, Section::Research, page),
        kind: ctx.kind_title(text(&note.kind)),
        kind_id: text(&note.kind),
        status: text(&note.status),
        superseded_by: note
            .superseded_by
            .as_ref()
            .and_then(|s| ctx.find_note(&s.value))
            .map(|n| ctx.link(Page::Note(n))),
        verified: ctx.maybe_date(&note.last_verified),
        updated: ctx.maybe_date(&note.last_updated),
        clients: note
            .clients
            .iter()
            .filter_map(|c| ctx.find_client(&c.value))
            .map(|c| ctx.link(Page::Client(c)))
            .collect(),
        capabilities: note
            .capabilities
            .iter()
            .filter_map(|c| ctx.find_capability(&c.value))
            .map(|(c, _)| ctx.link(Page::Capability(c)))
            .collect(),
        specs: note
            .spec_versions
            .iter()
            .filter_map(|s| {
                ctx.find_spec(&s.value)
                    .map(|i| ctx.link_as(Page::Spec(i), &s.value))
            })
            .collect(),
        sources: note
            .sources
            .iter()
            .map(|s| {
                let max_highlight = ctx.config().limits.max_highlight_bytes;
                source_view_with(s, ctx.excerpts(), max_highlight, ctx.shown())
            })
            .collect(),
        related,
        backlinks,
        body,
        sections,
    }
}

pub fn guide_view<'a>(ctx: &Ctx<'a>, i: usize) -> GuideView<'a> {
    let guide = ctx.guide(i);
    let page = Page::Guide(i);
    let summary = text(&guide.summary);
    let backlinks = ctx.backlinks(page);
    let sections = match backlinks.is_empty() {
        true => Vec::new(),
        false => vec![["backlinks", "Linked from"]],
    };
    GuideView {
        title: guide.display_title(),
        summary,
        summary_html: ctx.inline(summary, Section::Guides, page),
        updated: ctx.maybe_date(&guide.last_updated),
        backlinks,
        body: ctx.body(page),
        sections,
    }
}
