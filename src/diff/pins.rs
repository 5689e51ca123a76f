//! Pins bumped: a pinned source ([`crate::provenance::pinned`]) whose commit changed while
//! it stayed the same source: the same holder (note, or client and capability), repository
//! and file, taken in order where several match.

use super::model::{Pin, PinBump};
use crate::index::SiteIndex;
use crate::model::doc_id;
use crate::provenance::{pinned, Holder};
use std::collections::BTreeMap;

/// What makes two pins the same source: the note or (client, capability) holding it, its
/// repository and its file.
type Key = (
    Option<String>,
    Option<(String, String)>,
    Option<String>,
    String,
);

/// Each side's pins by key, in order: (commit, path as pinned).
fn pins(index: &SiteIndex) -> BTreeMap<Key, Vec<(String, String)>> {
    let content = &index.content;
    let mut out: BTreeMap<Key, Vec<(String, String)>> = BTreeMap::new();
    for pin in pinned(index) {
        let (note, cell) = match pin.holder {
            Holder::Note(n) => (
                Some(doc_id(&content.notes[n].id, &content.notes[n].doc)),
                None,
            ),
            Holder::Report(_) => continue,
            Holder::Cell { client, cell } => {
                let holder = &content.clients[client];
                let written = &holder.support[cell].capability.value;
                let capability = match index.ids.capability(written) {
                    Some((cap, _)) => {
                        let cap = &content.capabilities[cap];
                        doc_id(&cap.id, &cap.doc).to_string()
                    }
                    None => written.clone(),
                };
                (
                    None,
                    Some((doc_id(&holder.id, &holder.doc).to_string(), capability)),
                )
            }
        };
        let key = (
            note.map(str::to_string),
            cell,
            pin.repository.clone(),
            pin.file.to_string(),
        );
        let commit = pin.commit.value.trim().to_ascii_lowercase();
        out.entry(key)
            .or_default()
            .push((commit, pin.pinned_path()));
    }
    out
}

/// Whether two commits written for one pin name the same commit (one may be a short hash).
fn same_commit(a: &str, b: &str) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The pins whose commit changed from `before` to `after`.
pub(crate) fn bumps(before: &SiteIndex, after: &SiteIndex) -> Vec<PinBump> {
    let old = pins(before);
    let mut out = Vec::new();
    for (key, now) in pins(after) {
        let Some(was) = old.get(&key) else {
            continue;
        };
        for ((from, from_path), (to, to_path)) in was.iter().zip(now) {
            if same_commit(from, &to) {
                continue;
            }
            let (note, cell, repository, _) = key.clone();
            let (client, capability) = cell.unzip();
            out.push(PinBump {
                note,
                client,
                capability,
                repository,
                before: Pin {
                    commit: from.clone(),
                    path: from_path.clone(),
                },
                after: Pin {
                    commit: to,
                    path: to_path,
                },
            });
        }
    }
    out
}
