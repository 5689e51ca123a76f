//! Vocabularies a value must come from (kinds, statuses, note, client and capability ids, spec
//! revisions, groups) and the one check every "unknown X" rule makes with them.

use crate::index::SiteIndex;
use crate::lint::{suggest, RuleMeta, Sink};
use crate::model::{Spanned, NOTE_STATUSES, SUPPORT_STATUSES};

/// A list of known ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vocab {
    /// `site.yaml`'s `kinds`.
    Kinds,
    NoteStatuses,
    /// Research note ids.
    Notes,
    Clients,
    /// Capability ids; aliases count as known (FN206 asks for the id).
    Capabilities,
    Guides,
    Observations,
    /// `site.yaml`'s `specVersions`.
    SpecVersions,
    /// `site.yaml`'s `capabilityGroups`.
    Groups,
    SupportStatuses,
    /// `site.yaml`'s `unknownReasons`.
    UnknownReasons,
}

impl Vocab {
    /// Whether `id` is in the vocabulary.
    pub fn contains(self, index: &SiteIndex, id: &str) -> bool {
        let ids = &index.ids;
        match self {
            Vocab::Kinds => index.config.kind(id).is_some(),
            Vocab::NoteStatuses => NOTE_STATUSES.contains(&id),
            Vocab::Notes => ids.notes.contains_key(id),
            Vocab::Clients => ids.clients.contains_key(id),
            Vocab::Capabilities => ids.capability(id).is_some(),
            Vocab::Guides => ids.guides.contains_key(id),
            Vocab::Observations => ids.observations.contains_key(id),
            Vocab::SpecVersions => ids.specs.contains_key(id),
            Vocab::Groups => index.config.group(id).is_some(),
            Vocab::SupportStatuses => SUPPORT_STATUSES.contains(&id),
            Vocab::UnknownReasons => index.config.unknown_reason(id).is_some(),
        }
    }

    /// Every id: `site.yaml`'s lists in their order, content ids sorted.
    pub fn ids(self, index: &SiteIndex) -> Vec<&str> {
        let config = &index.config;
        match self {
            Vocab::Kinds => config.kinds.iter().map(|k| k.id.as_str()).collect(),
            Vocab::SpecVersions => config.spec_versions.iter().map(|v| v.id.as_str()).collect(),
            Vocab::Groups => config
                .capability_groups
                .iter()
                .map(|g| g.id.as_str())
                .collect(),
            Vocab::UnknownReasons => (config.unknown_reasons.iter())
                .map(|r| r.id.as_str())
                .collect(),
            Vocab::NoteStatuses => NOTE_STATUSES.to_vec(),
            Vocab::SupportStatuses => SUPPORT_STATUSES.to_vec(),
            Vocab::Notes
            | Vocab::Clients
            | Vocab::Capabilities
            | Vocab::Guides
            | Vocab::Observations => {
                let mut ids: Vec<&str> = self.candidates(index).collect();
                ids.sort_unstable();
                ids
            }
        }
    }

    /// Every id, in no particular order (for suggestions).
    fn candidates(self, index: &SiteIndex) -> Box<dyn Iterator<Item = &str> + '_> {
        let ids = &index.ids;
        let map = match self {
            Vocab::Notes => &ids.notes,
            Vocab::Clients => &ids.clients,
            Vocab::Capabilities => &ids.capabilities,
            Vocab::Guides => &ids.guides,
            Vocab::Observations => &ids.observations,
            other => return Box::new(other.ids(index).into_iter()),
        };
        Box::new(map.keys().map(String::as_str))
    }

    /// How a message ends when `id` is not in the vocabulary.
    fn absent(self) -> &'static str {
        match self {
            Vocab::Kinds => "is not one of site.yaml's kinds",
            Vocab::NoteStatuses => "is not a note status",
            Vocab::SpecVersions => "is not one of site.yaml's specVersions",
            Vocab::Groups => "is not one of site.yaml's capabilityGroups",
            Vocab::SupportStatuses => "is not a support status",
            Vocab::UnknownReasons => "is not one of site.yaml's unknownReasons",
            Vocab::Notes
            | Vocab::Clients
            | Vocab::Capabilities
            | Vocab::Guides
            | Vocab::Observations => "does not exist",
        }
    }

    /// What to do when no known id is close to `id`.
    fn fix(self, index: &SiteIndex, id: &str) -> String {
        let one_of = || format!("use one of: {}", self.ids(index).join(", "));
        match self {
            Vocab::Notes => "use the id of an existing note, or remove the entry".to_string(),
            Vocab::Clients => format!("add content/clients/{id}.md, or fix the id"),
            Vocab::Capabilities => format!("add content/capabilities/{id}.md, or fix the id"),
            Vocab::Guides => format!("add content/guides/{id}.md, or fix the slug"),
            Vocab::Observations => {
                format!("record it with `fieldnotes probe` (content/observations/{id}.md), or fix the id")
            }
            Vocab::UnknownReasons if self.ids(index).is_empty() => format!(
                "add `unknownReasons:` to site.yaml with an entry `- id: {id}` (and a `title`)"
            ),
            Vocab::Kinds | Vocab::SpecVersions | Vocab::Groups | Vocab::UnknownReasons => {
                format!("{}; or add `{id}` to site.yaml", one_of())
            }
            Vocab::NoteStatuses | Vocab::SupportStatuses => one_of(),
        }
    }

    /// "did you mean `x`?" when a known id is close to `id`, else what to do.
    pub fn help(self, index: &SiteIndex, id: &str) -> String {
        self.suggest(index, id, || self.fix(index, id))
    }

    /// "did you mean `x`?" when a known id is close to `id`, else `fallback`.
    pub fn suggest(self, index: &SiteIndex, id: &str, fallback: impl FnOnce() -> String) -> String {
        suggest::did_you_mean(id, self.candidates(index), fallback)
    }
}

/// Reports each of `values` that is not in `vocab` as a finding of `rule`: "`role` `value`
/// does not exist" (or "is not one of site.yaml's …"), with a "did you mean" help.
pub fn check<'v>(
    index: &SiteIndex,
    sink: &mut Sink<'_>,
    rule: &RuleMeta,
    (vocab, role): (Vocab, &str),
    values: impl IntoIterator<Item = &'v Spanned<String>>,
) {
    for value in values {
        if !vocab.contains(index, &value.value) {
            let help = if sink.may_suggest() {
                vocab.help(index, &value.value)
            } else {
                vocab.fix(index, &value.value)
            };
            sink.report(
                rule,
                value.span,
                format!("{role} `{}` {}", value.value, vocab.absent()),
                Some(help),
            );
        }
    }
}
