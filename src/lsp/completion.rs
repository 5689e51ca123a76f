//! Completion: vocabulary values in front matter (clients, capabilities and their aliases,
//! spec revisions, kinds, statuses, note ids in `related` and `supersededBy`), front matter
//! keys for the object being written, and site routes with their anchors in Markdown links.

use super::cursor::{self, Place, Token};
use super::hover::link_page;
use super::text::LineIndex;
use crate::index::routes::{self, Page};
use crate::index::SiteIndex;
use crate::lint::vocab::Vocab;
use crate::model::{text, ObjectKind};
use crate::text_file::Section;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation, TextEdit,
};

/// At most this many items are offered at once (a site has 10k note ids): the list is marked
/// incomplete, so the editor asks again as the author types on.
const MAX_ITEMS: usize = 200;

/// The completions at `offset` of `text`, a document of `section`.
pub fn complete(index: &SiteIndex, section: Section, text: &str, offset: usize) -> CompletionList {
    let lines = LineIndex::new(text);
    let (token, candidates) = match cursor::place(text, offset, section) {
        Place::Value { vocab, token } => (token.clone(), values(index, vocab)),
        Place::Key { object, token } => (token, keys(object, section, text)),
        Place::Link { token } => {
            let candidates = link_targets(index, section, &token.text);
            (token, candidates)
        }
        Place::Other => return CompletionList::default(),
    };
    let typed = token_prefix(&token, text, offset).to_lowercase();
    let range = lines.range(token.start, token.end);
    let mut matching = candidates
        .into_iter()
        .filter(|c| c.label.to_lowercase().contains(&typed));
    let items: Vec<CompletionItem> = matching
        .by_ref()
        .take(MAX_ITEMS)
        .map(|c| CompletionItem {
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: c.insert.unwrap_or_else(|| c.label.clone()),
            })),
            filter_text: Some(c.label.clone()),
            label: c.label,
            kind: Some(c.kind),
            detail: c.detail,
            documentation: c.documentation.map(Documentation::String),
            ..CompletionItem::default()
        })
        .collect();
    CompletionList {
        is_incomplete: matching.next().is_some(),
        items,
    }
}

/// What was typed of `token` before the cursor.
fn token_prefix<'t>(token: &Token, text: &'t str, offset: usize) -> &'t str {
    let end = offset.clamp(token.start, token.end);
    text.get(token.start..end).unwrap_or("")
}

/// One completion, before it is placed.
struct Candidate {
    label: String,
    /// What to insert, when not the label.
    insert: Option<String>,
    kind: CompletionItemKind,
    detail: Option<String>,
    documentation: Option<String>,
}

impl Candidate {
    fn new(label: &str, kind: CompletionItemKind, detail: Option<String>) -> Candidate {
        Candidate {
            label: label.to_string(),
            insert: None,
            kind,
            detail,
            documentation: None,
        }
    }
}

/// Every value of `vocab`, with its title as detail.
fn values(index: &SiteIndex, vocab: Vocab) -> Vec<Candidate> {
    let c = &index.content;
    let value = CompletionItemKind::VALUE;
    let mut out: Vec<Candidate> = vocab
        .ids(index)
        .into_iter()
        .map(|id| {
            let title = match super::hover::page_of(index, vocab, id) {
                Some(Page::Note(i)) => Some(text(&c.notes[i].title).to_string()),
                Some(Page::Client(i)) => Some(text(&c.clients[i].title).to_string()),
                Some(Page::Capability(i)) => Some(text(&c.capabilities[i].title).to_string()),
                Some(Page::Spec(i)) => (index.config.spec_versions[i].date.clone())
                    .map(|date| format!("released {date}")),
                _ => match vocab {
                    Vocab::Kinds => index.config.kind(id).and_then(|k| k.title.clone()),
                    Vocab::Groups => index.config.group(id).map(|g| g.title.clone()),
                    _ => None,
                },
            };
            Candidate::new(id, value, title)
        })
        .collect();
    if vocab == Vocab::Capabilities {
        let mut aliases: Vec<(&String, &usize)> = index.ids.aliases.iter().collect();
        aliases.sort();
        for (alias, &at) in aliases {
            let capability = &c.capabilities[at];
            let canonical = crate::model::doc_id(&capability.id, &capability.doc);
            let detail = format!("alias of {canonical}");
            out.push(Candidate::new(alias, value, Some(detail)));
        }
    }
    out
}

/// The keys an object of `object` takes; for the document's own object (of `section`), those
/// `text` already has left out.
fn keys(object: ObjectKind, section: Section, text: &str) -> Vec<Candidate> {
    let present = |name: &str| {
        crate::parse::object_kind(section) == object
            && text
                .lines()
                .any(|l| l.strip_prefix(name).is_some_and(|r| r.starts_with(':')))
    };
    crate::field_table::fields(object)
        .iter()
        .filter(|f| !present(f.name))
        .map(|f| {
            let required = if f.required { "required" } else { "optional" };
            Candidate {
                label: f.name.to_string(),
                insert: Some(format!("{}: ", f.name)),
                kind: CompletionItemKind::FIELD,
                detail: Some(format!("{required} field")),
                documentation: Some(f.doc.to_string()),
            }
        })
        .collect()
}

/// Site routes (`/research/<id>.md`, …) or, after a `#`, the anchors of the page linked to.
fn link_targets(index: &SiteIndex, section: Section, dest: &str) -> Vec<Candidate> {
    if let Some((path, _)) = dest.split_once('#') {
        let page = match path {
            "" => None,
            path => link_page(index, section, path),
        };
        return page.map_or_else(Vec::new, |page| {
            (index.anchors(page).into_iter())
                .map(|anchor| {
                    let label = format!("{path}#{anchor}");
                    Candidate::new(&label, CompletionItemKind::REFERENCE, None)
                })
                .collect()
        });
    }
    let c = &index.content;
    let file = CompletionItemKind::FILE;
    let route = |dir: &str, id: &str| format!("{}.md", routes::route(dir, id));
    let mut out = Vec::new();
    let mut add = |dir: &str, id: &str, title: &str| {
        out.push(Candidate::new(
            &route(dir, id),
            file,
            Some(title.to_string()),
        ));
    };
    for client in &c.clients {
        add(
            "clients",
            crate::model::doc_id(&client.id, &client.doc),
            text(&client.title),
        );
    }
    for cap in &c.capabilities {
        add(
            "capabilities",
            crate::model::doc_id(&cap.id, &cap.doc),
            text(&cap.title),
        );
    }
    for spec in &index.config.spec_versions {
        add(
            routes::SPEC_DIR,
            &spec.id,
            spec.date.as_deref().unwrap_or(""),
        );
    }
    for guide in &c.guides {
        add("guides", &guide.doc.stem, text(&guide.title));
    }
    for note in &c.notes {
        add(
            "research",
            crate::model::doc_id(&note.id, &note.doc),
            text(&note.title),
        );
    }
    out
}
