//! Clients and capabilities added and removed, by id.

use super::links::Preview;
use super::model::{Named, Roster};
use crate::index::SiteIndex;
use crate::model::doc_id;
use crate::text_file::Section;
use std::collections::BTreeMap;

/// Ids and titles of one kind of document.
type Titles = BTreeMap<String, String>;

/// `(id, title)` pairs as [`Titles`].
fn titles<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> Titles {
    pairs
        .map(|(id, title)| (id.to_string(), title.to_string()))
        .collect()
}

fn clients(index: &SiteIndex) -> Titles {
    titles(
        index
            .content
            .clients
            .iter()
            .map(|c| (doc_id(&c.id, &c.doc), c.display_title())),
    )
}

fn capabilities(index: &SiteIndex) -> Titles {
    let all = index.content.capabilities.iter();
    titles(all.map(|c| (doc_id(&c.id, &c.doc), c.display_title())))
}

/// The clients and the capabilities added and removed from `before` to `after`.
pub(crate) fn changes(
    before: &SiteIndex,
    after: &SiteIndex,
    preview: Option<&Preview>,
) -> (Roster, Roster) {
    let clients = roster(clients(before), clients(after), |id| {
        preview.map(|p| p.page(Section::Clients, id))
    });
    let capabilities = roster(capabilities(before), capabilities(after), |id| {
        preview.map(|p| p.page(Section::Capabilities, id))
    });
    (clients, capabilities)
}

fn roster(old: Titles, new: Titles, url: impl Fn(&str) -> Option<String>) -> Roster {
    let named = |(id, title): (&String, &String), url: Option<String>| Named {
        id: id.clone(),
        title: title.clone(),
        url,
    };
    Roster {
        added: (new.iter())
            .filter(|(id, _)| !old.contains_key(*id))
            .map(|entry| named(entry, url(entry.0)))
            .collect(),
        removed: (old.iter())
            .filter(|(id, _)| !new.contains_key(*id))
            .map(|entry| named(entry, None))
            .collect(),
    }
}
