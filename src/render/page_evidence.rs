//! A client or capability page's evidence, each piece once: the observations, notes and
//! sources its support rows cite, numbered in the order the page first cites them, and each
//! row's references into that list (`3` in the row, `#evidence-3` on the page).

use super::citations::SourceView;
use super::evidence::{observation_item, ObservationItem};
use super::views::{Ctx, NoteCard};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;

/// One piece of evidence, listed once on its page.
#[derive(Debug, Serialize)]
pub struct EvidenceItem<'a> {
    pub number: usize,
    /// Its id on the page (`evidence-3`).
    pub anchor: String,
    /// `observed` (an observation), `note` (a research note) or `source` (a pinned source,
    /// or a page of docs when it pins no commit); a piece's own method, whatever the cell's.
    pub kind: &'static str,
    pub observation: Option<ObservationItem<'a>>,
    pub note: Option<NoteCard<'a>>,
    pub source: Option<SourceView<'a>>,
    /// The rows that cite it, in page order.
    pub cited_by: Vec<Citer<'a>>,
}

/// A row that cites a piece of evidence: its title and its anchor on the page.
#[derive(Debug, Serialize)]
pub struct Citer<'a> {
    pub title: Cow<'a, str>,
    pub anchor: String,
}

/// A row's reference to a piece of evidence on its page.
#[derive(Debug, Serialize)]
pub struct EvidenceRef {
    pub number: usize,
    pub anchor: String,
    pub kind: &'static str,
}

/// What identifies a piece of evidence on a page.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Observation(usize),
    Note(usize),
    /// A source by where it points (its pinned link, else its URL or title) and lines.
    Source(String),
}

fn source_key(s: &SourceView<'_>) -> Key {
    let at = s.href.as_deref().or(s.url).unwrap_or(s.title);
    let lines: Vec<&str> = s.ranges.iter().map(|r| r.href.as_str()).collect();
    Key::Source(format!("{at} {} {}", s.file.unwrap_or(""), lines.join(" ")))
}

/// What a support row cites, and where its references go.
pub struct Citing<'a, 'r> {
    pub refs: &'r mut Vec<EvidenceRef>,
    pub observations: &'r [usize],
    pub notes: &'r [usize],
    pub sources: &'r [SourceView<'a>],
    /// The row's title and anchor on the page.
    pub citer: Citer<'a>,
}

/// Numbers the evidence of `rows`, in order, fills each row's `refs`, and returns the page's
/// list.
pub fn number<'a, 'r>(
    ctx: &Ctx<'a>,
    rows: impl Iterator<Item = Citing<'a, 'r>>,
) -> Vec<EvidenceItem<'a>>
where
    'a: 'r,
{
    let mut items: Vec<EvidenceItem<'a>> = Vec::new();
    let mut seen: HashMap<Key, usize> = HashMap::new();
    for row in rows {
        let mut refs = Vec::new();
        let mut cite = |key: Key, make: &mut dyn FnMut() -> EvidenceItem<'a>| {
            let at = *seen.entry(key).or_insert_with(|| {
                let mut item = make();
                item.number = items.len() + 1;
                item.anchor = format!("evidence-{}", item.number);
                items.push(item);
                items.len() - 1
            });
            let item = &mut items[at];
            if !refs.iter().any(|r: &EvidenceRef| r.number == item.number) {
                item.cited_by.push(Citer {
                    title: row.citer.title.clone(),
                    anchor: row.citer.anchor.clone(),
                });
                refs.push(EvidenceRef {
                    number: item.number,
                    anchor: item.anchor.clone(),
                    kind: item.kind,
                });
            }
        };
        for &o in row.observations {
            cite(Key::Observation(o), &mut || EvidenceItem {
                kind: "observed",
                observation: Some(observation_item(ctx, o)),
                ..blank()
            });
        }
        for &n in row.notes {
            cite(Key::Note(n), &mut || EvidenceItem {
                kind: "note",
                note: Some(ctx.note_card(n)),
                ..blank()
            });
        }
        for s in row.sources {
            cite(source_key(s), &mut || EvidenceItem {
                kind: if s.commit.is_some() { "source" } else { "docs" },
                source: Some(s.clone()),
                ..blank()
            });
        }
        *row.refs = refs;
    }
    items
}

fn blank<'a>() -> EvidenceItem<'a> {
    EvidenceItem {
        number: 0,
        anchor: String::new(),
        kind: "",
        observation: None,
        note: None,
        source: None,
        cited_by: Vec::new(),
    }
}
