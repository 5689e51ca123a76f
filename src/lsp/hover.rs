//! Hover: what an id or link names: a client's, capability's or note's title and summary, a
//! spec revision's date, a kind's description.

use super::cursor::{self, Place};
use crate::index::links::{self, LinkTarget};
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::lint::vocab::Vocab;
use crate::model::{text, Document};
use crate::text_file::Section;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The hover for position `offset` of `text`, a document of `section`.
pub fn hover(index: &SiteIndex, section: Section, text: &str, offset: usize) -> Option<Hover> {
    let (markdown, token) = match cursor::place(text, offset, section) {
        Place::Value { vocab, token } => (describe(index, vocab, &token.text)?, token),
        Place::Link { token } => {
            let page = link_page(index, section, &token.text)?;
            (describe_page(index, page)?, token)
        }
        _ => return None,
    };
    let lines = super::text::LineIndex::new(text);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(lines.range(token.start, token.end)),
    })
}

/// The page a link destination, written in a document of `section`, names.
pub fn link_page(index: &SiteIndex, section: Section, dest: &str) -> Option<Page> {
    match links::resolve(dest, section, Page::Home, &index.ids) {
        LinkTarget::Page { page, .. } if page != Page::Home || dest.starts_with('/') => Some(page),
        _ => None,
    }
}

/// The page `id` of `vocab` is (or is about), if it has one.
pub fn page_of(index: &SiteIndex, vocab: Vocab, id: &str) -> Option<Page> {
    let ids = &index.ids;
    match vocab {
        Vocab::Notes => ids.note(id).map(Page::Note),
        Vocab::Clients => ids.client(id).map(Page::Client),
        Vocab::Capabilities => ids.capability(id).map(|(i, _)| Page::Capability(i)),
        Vocab::Guides => ids.guides.get(id).map(|&i| Page::Guide(i)),
        Vocab::SpecVersions => ids.spec(id).map(Page::Spec),
        _ => None,
    }
}

/// What `id` of `vocab` is, in Markdown.
pub fn describe(index: &SiteIndex, vocab: Vocab, id: &str) -> Option<String> {
    if let Some(page) = page_of(index, vocab, id) {
        let mut out = describe_page(index, page)?;
        if let (Vocab::Capabilities, Some((at, true))) = (vocab, index.ids.capability(id)) {
            let capability = &index.content.capabilities[at];
            let canonical = crate::model::doc_id(&capability.id, &capability.doc);
            out.push_str(&format!("\n\n`{id}` is an alias of `{canonical}`."));
        }
        return Some(out);
    }
    let config = &index.config;
    match vocab {
        Vocab::Kinds => config.kind(id).map(|kind| {
            let title = kind.display_title();
            join(
                &format!("**{title}** (kind `{id}`)"),
                kind.description.as_deref(),
            )
        }),
        Vocab::Groups => config
            .group(id)
            .map(|group| format!("**{}** (capability group `{id}`)", group.title)),
        _ => None,
    }
}

/// What a page is, in Markdown: its title and summary (a note's `summary`, else the first
/// paragraph of its body); a spec revision's date.
pub fn describe_page(index: &SiteIndex, page: Page) -> Option<String> {
    let c = &index.content;
    let heading = |title: &str, what: &str, id: &str| format!("**{title}** ({what} `{id}`)");
    Some(match page {
        Page::Note(i) => {
            let note = &c.notes[i];
            let id = crate::model::doc_id(&note.id, &note.doc);
            let mut out = heading(note.display_title(), "research note", id);
            if let Some(status) = &note.status {
                out.push_str(&format!(", {}", status.value));
            }
            join(&out, Some(text(&note.summary)).filter(|s| !s.is_empty()))
        }
        Page::Client(i) => {
            let client = &c.clients[i];
            let id = crate::model::doc_id(&client.id, &client.doc);
            let mut out = heading(client.display_title(), "client", id);
            if let Some(vendor) = &client.vendor {
                out.push_str(&format!(" by {}", vendor.value));
            }
            join(&out, first_paragraph(index, &client.doc).as_deref())
        }
        Page::Capability(i) => {
            let cap = &c.capabilities[i];
            let id = crate::model::doc_id(&cap.id, &cap.doc);
            let out = heading(cap.display_title(), "capability", id);
            join(&out, first_paragraph(index, &cap.doc).as_deref())
        }
        Page::Guide(i) => {
            let guide = &c.guides[i];
            let out = heading(guide.display_title(), "guide", &guide.doc.stem);
            join(&out, Some(text(&guide.summary)).filter(|s| !s.is_empty()))
        }
        Page::Observation(i) => {
            let o = &c.observations[i];
            let id = crate::model::doc_id(&o.id, &o.doc);
            heading(&o.display_title(), "observation", id)
        }
        Page::Spec(i) => {
            let spec = index.config.spec_versions.get(i)?;
            let mut out = format!("**Spec revision {}**", spec.id);
            if let Some(title) = &spec.title {
                out.push_str(&format!(": {title}"));
            }
            if let Some(date) = &spec.date {
                out.push_str(&format!("\n\nReleased {date}."));
            }
            out
        }
        Page::Home | Page::Index(_) | Page::SpecIndex => index.route(page),
    })
}

fn join(head: &str, body: Option<&str>) -> String {
    match body {
        Some(body) => format!("{head}\n\n{body}"),
        None => head.to_string(),
    }
}

/// The first paragraph of a document's body (no heading), at most about 400 bytes.
fn first_paragraph(index: &SiteIndex, doc: &Document) -> Option<String> {
    let file = index.files.get(doc.file)?;
    let body = file.text.get(doc.body.range.clone())?;
    let paragraph: Vec<&str> = body
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty() || l.starts_with('#'))
        .take_while(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut text = paragraph.join(" ");
    if text.len() > 400 {
        let mut cut = 400;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    (!text.is_empty()).then_some(text)
}
