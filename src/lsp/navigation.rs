//! Navigation: go to the definition of an id or link, and find the references of a note (who
//! lists it in `related`, `supersededBy` or a support cell's `research`, who links to it).

use super::cursor::{self, Place};
use super::hover::{link_page, page_of};
use super::text::{uri_of, LineIndex};
use crate::index::links::LinkTarget;
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::lint::vocab::Vocab;
use crate::model::Spanned;
use crate::text_file::{FileId, Section};
use lsp_types::{Location, Range};
use std::path::Path;

/// Where the id or link at `offset` of `text` (the document `file` of `section`) is defined.
pub fn definition(
    index: &SiteIndex,
    file: FileId,
    section: Section,
    offset: usize,
) -> Option<Location> {
    let text = &index.files.get(file)?.text;
    match cursor::place(text, offset, section) {
        Place::Value { vocab, token } => match page_of(index, vocab, &token.text)? {
            Page::Spec(i) => spec_location(index, &index.config.spec_versions[i].id),
            page => page_location(index, page, None),
        },
        Place::Link { token } => {
            let anchor = token.text.split_once('#').map(|(_, a)| a.to_string());
            let page = match token.text.split_once('#') {
                Some(("", _)) => crate::index::page_of(section, position_in_section(index, file)?),
                _ => link_page(index, section, &token.text)?,
            };
            match page {
                Page::Spec(i) => spec_location(index, &index.config.spec_versions[i].id),
                page => page_location(index, page, anchor.as_deref()),
            }
        }
        _ => None,
    }
}

/// The position of document `file` among its section's documents.
fn position_in_section(index: &SiteIndex, file: FileId) -> Option<usize> {
    let section = index.content.documents().find(|d| d.file == file)?.section;
    (index.content.documents())
        .filter(|d| d.section == section)
        .position(|d| d.file == file)
}

/// The start of a page's file, or the heading an anchor names on it.
fn page_location(index: &SiteIndex, page: Page, anchor: Option<&str>) -> Option<Location> {
    let doc = index.document(page)?;
    let source = index.files.get(doc.file)?;
    let lines = LineIndex::new(&source.text);
    let heading = anchor.and_then(|a| doc.body.headings.iter().find(|h| h.anchor == a));
    let range = heading.map_or(Range::default(), |h| lines.range(h.span.start, h.span.end));
    Some(Location::new(uri_of(&index.root.join(&source.path)), range))
}

/// The `id: <revision>` line of a spec revision in `site.yaml`.
fn spec_location(index: &SiteIndex, revision: &str) -> Option<Location> {
    let path = index.root.join(crate::config::CONFIG_FILE);
    let text = std::fs::read_to_string(&path).ok()?;
    let lines = LineIndex::new(&text);
    let at = text.match_indices(revision).map(|(at, _)| at).find(|&at| {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = text[line_start..at].trim_start_matches([' ', '-']);
        before.starts_with("id:") && text[at + revision.len()..].starts_with(['\n', '\r', ' '])
    })?;
    Some(Location::new(
        uri_of(&path),
        lines.range(at, at + revision.len()),
    ))
}

/// The research note the position is about: the note id or link under it, else the note
/// being edited.
pub fn note_at(index: &SiteIndex, file: FileId, section: Section, offset: usize) -> Option<usize> {
    let text = &index.files.get(file)?.text;
    match cursor::place(text, offset, section) {
        Place::Value {
            vocab: Vocab::Notes,
            token,
        } => index.ids.note(&token.text),
        Place::Link { token } => match link_page(index, section, &token.text) {
            Some(Page::Note(n)) => Some(n),
            _ => None,
        },
        _ => (index.content.notes.iter()).position(|n| n.doc.file == file),
    }
}

/// A place that names a note: a value (byte range of the id in its file) or a body link (byte
/// range of the id within the link's destination, if it can be found).
pub(super) struct Mention {
    pub(super) file: FileId,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Every place that names note `n` by id: `related`, `supersededBy`, support cells' `research`
/// and body links.
pub(super) fn mentions(index: &SiteIndex, n: usize) -> Vec<Mention> {
    let c = &index.content;
    let note = &c.notes[n];
    let id = crate::model::doc_id(&note.id, &note.doc);
    let mut out = Vec::new();
    let mut value = |value: &Spanned<String>| {
        if value.value == id {
            let text = index
                .files
                .get(value.span.file)
                .map_or("", |f| f.text.as_str());
            let (start, end) = unquoted(text, value.span.start, value.span.end);
            out.push(Mention {
                file: value.span.file,
                start,
                end,
            });
        }
    };
    for other in &c.notes {
        other.related.iter().for_each(&mut value);
        other.superseded_by.iter().for_each(&mut value);
    }
    for client in &c.clients {
        for cell in &client.support {
            cell.research.iter().for_each(&mut value);
        }
    }
    for link in &index.links {
        if !matches!(link.target, LinkTarget::Page { page: Page::Note(to), .. } if to == n) {
            continue;
        }
        let Some(doc) = index.document(link.from) else {
            continue;
        };
        let body_link = &doc.body.links[link.link];
        let text = index.files.get(doc.file).map_or("", |f| f.text.as_str());
        let (start, end) = id_in_link(
            text,
            body_link.span.start,
            body_link.span.end,
            &body_link.dest,
            id,
        )
        .unwrap_or((body_link.span.start, body_link.span.end));
        out.push(Mention {
            file: doc.file,
            start,
            end,
        });
    }
    out
}

/// A value's range without the quotes around it.
pub(super) fn unquoted(text: &str, start: usize, end: usize) -> (usize, usize) {
    let value = text.get(start..end).unwrap_or("");
    let quoted = value.len() >= 2
        && (value.starts_with('"') && value.ends_with('"')
            || value.starts_with('\'') && value.ends_with('\''));
    if quoted {
        (start + 1, end - 1)
    } else {
        (start, end)
    }
}

/// The byte range of `id` as a path segment of `dest`, the destination of the link written at
/// `start..end` of `text`.
fn id_in_link(
    text: &str,
    start: usize,
    end: usize,
    dest: &str,
    id: &str,
) -> Option<(usize, usize)> {
    let written = text.get(start..end)?;
    let dest_at = start + written.rfind(dest)?;
    let at = dest_at + id_in_dest(dest, id)?;
    Some((at, at + id.len()))
}

/// Where `id` starts in link destination `dest` as its last path segment's stem
/// (`/research/<id>.md#x`, `<id>.md`, `../research/<id>`).
pub(super) fn id_in_dest(dest: &str, id: &str) -> Option<usize> {
    let path = dest.split(['#', '?']).next().unwrap_or(dest);
    path.rmatch_indices(id).map(|(at, _)| at).find(|&at| {
        let before_ok = at == 0 || path[..at].ends_with('/');
        let after = &path[at + id.len()..];
        before_ok && (after.is_empty() || after.starts_with(['.', '/']))
    })
}

/// The references of the note at the position; with `declaration`, its own id too.
pub fn references(
    index: &SiteIndex,
    file: FileId,
    section: Section,
    offset: usize,
    declaration: bool,
) -> Vec<Location> {
    let Some(n) = note_at(index, file, section, offset) else {
        return Vec::new();
    };
    let mut found = mentions(index, n);
    if declaration {
        found.extend(declaration_of(index, n));
    }
    found
        .iter()
        .filter_map(|m| location(index, m.file, m.start, m.end))
        .collect()
}

/// Where note `n` says its id (its `id` field's value).
pub(super) fn declaration_of(index: &SiteIndex, n: usize) -> Option<Mention> {
    let note = &index.content.notes[n];
    let id = note.id.as_ref()?;
    let text = &index.files.get(id.span.file)?.text;
    let (start, end) = unquoted(text, id.span.start, id.span.end);
    Some(Mention {
        file: id.span.file,
        start,
        end,
    })
}

fn location(index: &SiteIndex, file: FileId, start: usize, end: usize) -> Option<Location> {
    let source = index.files.get(file)?;
    let range = LineIndex::new(&source.text).range(start, end);
    Some(Location::new(uri_of(&index.root.join(&source.path)), range))
}

/// The section of the document at `relative`.
pub fn section_of(relative: &Path) -> Option<Section> {
    crate::serve::rebuild::section_of(relative)
}
