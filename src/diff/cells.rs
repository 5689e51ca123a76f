//! Support cells compared: every (client, capability) that either side's support map names,
//! its status as the matrix shows it and its evidence as pages derive it
//! ([`crate::index::evidence`]), keyed by ids so that a renamed key or a moved file changes
//! nothing.

use super::links::Preview;
use super::model::{CellChange, CellEvidence, Sides, Source};
use crate::index::evidence::Evidence;
use crate::index::SiteIndex;
use crate::model::{doc_id, text, SourceRef};
use crate::text_file::Section;
use std::collections::BTreeMap;

/// One side of a cell.
#[derive(Debug, Clone, PartialEq)]
struct Cell {
    status: &'static str,
    evidence: CellEvidence,
    notes: String,
    last_verified: String,
}

impl Cell {
    /// A cell the support map does not name.
    fn unknown() -> Cell {
        Cell {
            status: "unknown",
            evidence: CellEvidence {
                summary: Evidence::none(),
                sources: Vec::new(),
                research: Vec::new(),
                observations: Vec::new(),
            },
            notes: String::new(),
            last_verified: String::new(),
        }
    }
}

/// Titles shown for a client and a capability.
type Titles = (String, String);

/// Every named cell of `index`, by (client id, capability id), with their titles.
fn cells(index: &SiteIndex) -> BTreeMap<(String, String), (Cell, Titles)> {
    let content = &index.content;
    let mut out = BTreeMap::new();
    for (client, c) in content.clients.iter().enumerate() {
        for written in &c.support {
            let Some((cap, _)) = index.ids.capability(&written.capability.value) else {
                continue;
            };
            let Some(cell) = index.matrix.cell(content, client, cap) else {
                continue;
            };
            let capability = &content.capabilities[cap];
            let key = (
                doc_id(&c.id, &c.doc).to_string(),
                doc_id(&capability.id, &capability.doc).to_string(),
            );
            let side = Cell {
                status: index.matrix.status(content, client, cap),
                evidence: CellEvidence {
                    summary: index.evidence(client, cap),
                    sources: cell.sources.iter().map(source).collect(),
                    research: cell.research.iter().map(|r| r.value.clone()).collect(),
                    observations: cell.observations.iter().map(|o| o.value.clone()).collect(),
                },
                notes: text(&cell.notes).to_string(),
                last_verified: text(&cell.last_verified).to_string(),
            };
            let titles = (
                c.display_title().to_string(),
                capability.display_title().to_string(),
            );
            out.entry(key).or_insert((side, titles));
        }
    }
    out
}

/// A source as written.
pub(super) fn source(s: &SourceRef) -> Source {
    Source {
        url: text(&s.url).to_string(),
        commit: text(&s.commit).to_string(),
        path: text(&s.path).to_string(),
    }
}

/// The cells that differ between `before` and `after`.
pub(crate) fn changes(
    before: &SiteIndex,
    after: &SiteIndex,
    preview: Option<&Preview>,
) -> Vec<CellChange> {
    let mut old = cells(before);
    let new = cells(after);
    let mut keys: Vec<(String, String)> = old.keys().chain(new.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for key in keys {
        let (was, titles_before) = side(old.remove(&key));
        let (is, titles_after) = side(new.get(&key).cloned());
        let mut changed = Vec::new();
        for (name, differs) in [
            ("status", was.status != is.status),
            ("evidence", was.evidence != is.evidence),
            ("notes", was.notes != is.notes),
            ("lastVerified", was.last_verified != is.last_verified),
        ] {
            if differs {
                changed.push(name);
            }
        }
        if changed.is_empty() {
            continue;
        }
        let (client, capability) = key;
        let (client_title, capability_title) = titles_after.or(titles_before).unwrap_or_default();
        out.push(CellChange {
            url: preview.map(|p| p.cell(&client, &capability)),
            client_url: preview.map(|p| p.page(Section::Clients, &client)),
            capability_url: preview.map(|p| p.page(Section::Capabilities, &capability)),
            before: was.status,
            after: is.status,
            changed,
            evidence: Sides {
                before: was.evidence,
                after: is.evidence,
            },
            client,
            capability,
            client_title,
            capability_title,
        });
    }
    out
}

/// A side that may be missing: the cell, or an unknown one.
fn side(found: Option<(Cell, Titles)>) -> (Cell, Option<Titles>) {
    match found {
        Some((cell, titles)) => (cell, Some(titles)),
        None => (Cell::unknown(), None),
    }
}
