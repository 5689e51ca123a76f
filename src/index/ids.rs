//! Every id of the site resolved to its position in [`Content`], and the ids that clash: one id
//! in two files, two ids equal but for case, a capability alias that names two capabilities.

use super::routes::Page;
use crate::config::SiteConfig;
use crate::model::{doc_id, Content};
use crate::text_file::Section;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

/// Every id of the site, resolved to its position in [`Content`].
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ids {
    pub notes: HashMap<String, usize>,
    pub clients: HashMap<String, usize>,
    pub capabilities: HashMap<String, usize>,
    /// Capability aliases (other spellings) to the capability they name: the first to claim
    /// an alias, and never one that is a capability's id ([`Ids::alias_clashes`] lists the
    /// rest).
    pub aliases: HashMap<String, usize>,
    pub guides: HashMap<String, usize>,
    pub observations: HashMap<String, usize>,
    pub specs: HashMap<String, usize>,
    /// Ids used by more than one file, per section: id → every index holding it.
    pub duplicates: BTreeMap<(Section, String), Vec<usize>>,
    /// Ids equal to an earlier id of their section but for case, in index order: their files
    /// are one file on case-insensitive file systems (macOS, Windows).
    pub case_clashes: Vec<CaseClash>,
    /// Capability aliases that another capability answers to as well, in index order.
    pub alias_clashes: Vec<AliasClash>,
}

/// An id equal to an earlier one of its section but for case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseClash {
    pub section: Section,
    /// The document whose id clashes.
    pub index: usize,
    /// The first document of the section whose id is the same but for case.
    pub first: usize,
}

/// A capability alias that another capability answers to as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AliasClash {
    /// The capability that lists the alias.
    pub capability: usize,
    /// The alias's position in that capability's `aliases`.
    pub alias: usize,
    /// The capability that answers to it too.
    pub other: usize,
    /// How it does: `None` when the alias is its id, else the position in its `aliases`.
    pub other_alias: Option<usize>,
}

impl Ids {
    pub fn note(&self, id: &str) -> Option<usize> {
        self.notes.get(id).copied()
    }
    pub fn client(&self, id: &str) -> Option<usize> {
        self.clients.get(id).copied()
    }
    /// A capability by id, or by alias; the flag says whether an alias was used.
    pub fn capability(&self, id: &str) -> Option<(usize, bool)> {
        self.capabilities
            .get(id)
            .map(|&i| (i, false))
            .or_else(|| self.aliases.get(id).map(|&i| (i, true)))
    }
    pub fn observation(&self, id: &str) -> Option<usize> {
        self.observations.get(id).copied()
    }
    pub fn spec(&self, id: &str) -> Option<usize> {
        self.specs.get(id).copied()
    }
    /// The page of `id` in `section`.
    pub fn page(&self, section: Section, id: &str) -> Option<Page> {
        match section {
            Section::Research => self.note(id).map(Page::Note),
            Section::Clients => self.client(id).map(Page::Client),
            Section::Capabilities => self.capability(id).map(|(i, _)| Page::Capability(i)),
            Section::Guides => self.guides.get(id).map(|&i| Page::Guide(i)),
            Section::Observations => self.observation(id).map(Page::Observation),
        }
    }
}

/// Resolves every id of `content` and `config`, noting the ids that clash.
pub(super) fn collect(content: &Content, config: &SiteConfig) -> Ids {
    let mut ids = Ids::default();
    let notes = content.notes.iter().map(|n| doc_id(&n.id, &n.doc));
    ids.notes = ids.section(Section::Research, notes);
    let clients = content.clients.iter().map(|c| doc_id(&c.id, &c.doc));
    ids.clients = ids.section(Section::Clients, clients);
    let capabilities = content.capabilities.iter().map(|c| doc_id(&c.id, &c.doc));
    ids.capabilities = ids.section(Section::Capabilities, capabilities);
    let guides = content.guides.iter().map(|g| g.doc.stem.as_str());
    ids.guides = ids.section(Section::Guides, guides);
    let observations = content.observations.iter().map(|o| doc_id(&o.id, &o.doc));
    ids.observations = ids.section(Section::Observations, observations);
    for (i, c) in content.capabilities.iter().enumerate() {
        for (a, alias) in c.aliases.iter().enumerate() {
            ids.claim_alias(content, i, a, &alias.value);
        }
    }
    ids.specs = config
        .spec_versions
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id.clone(), i))
        .collect();
    ids
}

impl Ids {
    /// The ids of one section, id → first index holding it; repeats go to `duplicates`, ids
    /// equal to an earlier one but for case to `case_clashes`.
    fn section<'a>(
        &mut self,
        section: Section,
        ids: impl Iterator<Item = &'a str>,
    ) -> HashMap<String, usize> {
        let mut exact: HashMap<String, usize> = HashMap::new();
        let mut folded: HashMap<String, usize> = HashMap::new();
        for (index, id) in ids.enumerate() {
            if let Some(&first) = exact.get(id) {
                self.duplicates
                    .entry((section, id.to_string()))
                    .or_insert_with(|| vec![first])
                    .push(index);
                continue;
            }
            exact.insert(id.to_string(), index);
            match folded.entry(id.to_lowercase()) {
                Entry::Occupied(first) => self.case_clashes.push(CaseClash {
                    section,
                    index,
                    first: *first.get(),
                }),
                Entry::Vacant(slot) => {
                    slot.insert(index);
                }
            }
        }
        exact
    }

    /// Capability `capability`'s alias number `alias`, `name`: it names the capability unless
    /// it is another capability's id or an alias another claimed first (a clash, then).
    fn claim_alias(&mut self, content: &Content, capability: usize, alias: usize, name: &str) {
        let other = match self.capabilities.get(name) {
            Some(&other) => (other, None),
            None => match self.aliases.entry(name.to_string()) {
                Entry::Vacant(slot) => {
                    slot.insert(capability);
                    return;
                }
                Entry::Occupied(slot) => {
                    let other = *slot.get();
                    let position = content.capabilities[other]
                        .aliases
                        .iter()
                        .position(|a| a.value == name);
                    (other, position)
                }
            },
        };
        // Its own id, or an alias it lists twice, names nothing else.
        if other.0 != capability {
            self.alias_clashes.push(AliasClash {
                capability,
                alias,
                other: other.0,
                other_alias: other.1,
            });
        }
    }
}
