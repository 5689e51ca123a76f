//! Research notes compared by id: added, removed, and changed (which front-matter fields,
//! the body, and whether the note was retired: superseded or retracted).

use super::cells::source;
use super::links::Preview;
use super::model::{NoteChange, NoteChanges, NoteEntry, Sides};
use crate::index::SiteIndex;
use crate::model::{doc_id, text, Note, Spanned};
use crate::text_file::Section;
use std::collections::BTreeMap;

/// Statuses that retire a note.
const RETIRED: [&str; 2] = ["superseded", "retracted"];

/// Each note of `index` by id (the first, when two share one).
fn by_id(index: &SiteIndex) -> BTreeMap<&str, &Note> {
    let mut out = BTreeMap::new();
    for note in &index.content.notes {
        out.entry(doc_id(&note.id, &note.doc)).or_insert(note);
    }
    out
}

/// The notes added, removed and changed from `before` to `after`.
pub(crate) fn changes(
    before: &SiteIndex,
    after: &SiteIndex,
    preview: Option<&Preview>,
) -> NoteChanges {
    let old = by_id(before);
    let new = by_id(after);
    let url = |id: &str| preview.map(|p| p.page(Section::Research, id));
    let entry = |id: &str, note: &Note, url: Option<String>| NoteEntry {
        id: id.to_string(),
        title: note.display_title().to_string(),
        status: status(note).to_string(),
        url,
    };
    let mut changes = NoteChanges::default();
    for (&id, &note) in &new {
        match old.get(id) {
            None => changes.added.push(entry(id, note, url(id))),
            Some(&was) => {
                let fields = changed_fields(before, was, after, note);
                if fields.is_empty() {
                    continue;
                }
                let (from, to) = (status(was), status(note));
                let superseded_by = text(&note.superseded_by);
                changes.changed.push(NoteChange {
                    id: id.to_string(),
                    title: note.display_title().to_string(),
                    status: (from != to).then(|| Sides {
                        before: from.to_string(),
                        after: to.to_string(),
                    }),
                    retired: RETIRED.contains(&to) && !RETIRED.contains(&from),
                    superseded_by: (fields.contains(&"supersededBy") && !superseded_by.is_empty())
                        .then(|| superseded_by.to_string()),
                    fields,
                    url: url(id),
                });
            }
        }
    }
    for (&id, &note) in &old {
        if !new.contains_key(id) {
            changes.removed.push(entry(id, note, None));
        }
    }
    changes
}

/// A note's status as written (`current` when it has none).
fn status(note: &Note) -> &str {
    match text(&note.status) {
        "" => "current",
        status => status,
    }
}

/// The fields of a note that differ between its two sides, in front-matter order, then
/// `body`.
fn changed_fields(
    before: &SiteIndex,
    was: &Note,
    after: &SiteIndex,
    is: &Note,
) -> Vec<&'static str> {
    let one = |get: fn(&Note) -> &Option<Spanned<String>>| text(get(was)) != text(get(is));
    let list = |get: fn(&Note) -> &Vec<Spanned<String>>| {
        let values = |n: &Note| get(n).iter().map(|v| v.value.clone()).collect::<Vec<_>>();
        values(was) != values(is)
    };
    let sources = |n: &Note| {
        (n.sources.iter())
            .map(|s| {
                (
                    source(s),
                    text(&s.title).to_string(),
                    text(&s.date).to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let body = |index: &SiteIndex, n: &Note| {
        let file = &index.files[n.doc.file].text;
        file.get(n.doc.body.range.clone())
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let checks = [
        ("title", one(|n| &n.title)),
        ("kind", one(|n| &n.kind)),
        ("summary", one(|n| &n.summary)),
        ("capabilities", list(|n| &n.capabilities)),
        ("clients", list(|n| &n.clients)),
        ("specVersions", list(|n| &n.spec_versions)),
        ("sources", sources(was) != sources(is)),
        ("status", status(was) != status(is)),
        ("supersededBy", one(|n| &n.superseded_by)),
        ("lastVerified", one(|n| &n.last_verified)),
        ("related", list(|n| &n.related)),
        ("canonical", one(|n| &n.canonical)),
        ("last-updated", one(|n| &n.last_updated)),
        ("body", body(before, was) != body(after, is)),
    ];
    checks
        .into_iter()
        .filter_map(|(name, differs)| differs.then_some(name))
        .collect()
}
