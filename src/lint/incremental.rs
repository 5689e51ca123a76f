//! Incremental lint after edits to research notes (`fieldnotes serve`): the rules whose findings
//! on a note depend on that note alone run again over the edited notes only; the rest run over
//! the whole site.
//!
//! Each rule says which kind it is in its [`scope`](super::RuleMeta::scope). A
//! [`Scope::NoteLocal`] rule runs over a small site made of the edited notes and every non-note
//! document (clients, capabilities, guides: the ids and vocabularies a note is checked against),
//! indexed as any site is; its findings on the edited notes are taken, and its findings on every
//! other file are the previous lint's. A [`Scope::Global`] rule runs over the whole index as
//! [`lint`] runs it. At 10k notes the small site costs about a millisecond, the global rules
//! (ids, titles, `related` lists, links) about 20 of the full lint's 90 or so.

use super::{in_order, lint, lint_rules, rules, Reads, RuleMeta, MAX_SUGGESTIONS};
use crate::diagnostic::Diagnostic;
use crate::index::SiteIndex;
use crate::model::{Content, Note};
use crate::parse::ParsedSite;
use crate::text_file::{FileId, TextFile};
use chrono::NaiveDate;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// What a rule's findings can depend on, which decides how [`lint_notes`] runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every finding on a research note depends only on that note's text, the non-note
    /// documents, `site.yaml` and today; findings on other files depend on no note at all.
    NoteLocal,
    /// Anything else: findings that read other notes (ids, titles, `related` lists, what links
    /// resolve to, backlinks) or what only the whole load knows (unreadable files). When
    /// unsure, a rule is global: that costs time, never a wrong finding.
    Global,
}

/// Lints after edits to the front matter (and bodies) of research notes only: equal to
/// [`lint`]`(index, today)`, given `previous` = the findings of [`lint`] on the site as it was
/// before, when the site then differed from `index` only in the text of the note files
/// `edited` (same set of files, same clients, capabilities and guides, same `site.yaml`, same
/// `today`). An `edited` file that `index` does not hold as a parsed note makes it a full lint.
pub fn lint_notes(
    index: &SiteIndex,
    today: NaiveDate,
    previous: &[Diagnostic],
    edited: &[FileId],
) -> crate::error::Result<Vec<Diagnostic>> {
    if EditedSite::notes_of(index, edited).is_none() {
        return lint(index, today);
    }
    relint(index, today, previous, edited, |_| true)
}

/// Lints after edits to the bodies of research notes only, below front matter that stayed as
/// it was: [`lint_notes`] for the rules that read bodies ([`Reads::Body`]), the findings of the
/// others taken from `previous` as [`super::lint_bodies`] takes them. Equal to [`lint`] under
/// the conditions of both.
pub fn lint_note_bodies(
    index: &SiteIndex,
    today: NaiveDate,
    previous: &[Diagnostic],
    edited: &[FileId],
) -> crate::error::Result<Vec<Diagnostic>> {
    relint(index, today, previous, edited, |m| m.reads == Reads::Body)
}

/// Lints again the rules `rerun` selects, each over the edited notes when it is note-local
/// and over the site when not; the findings of the other rules are `previous`'s.
fn relint(
    index: &SiteIndex,
    today: NaiveDate,
    previous: &[Diagnostic],
    edited: &[FileId],
    rerun: impl Fn(&RuleMeta) -> bool + Sync,
) -> crate::error::Result<Vec<Diagnostic>> {
    let unchanged: HashSet<&str> = (rules::ALL.iter())
        .filter(|r| !rerun(r.meta))
        .map(|r| r.meta.code)
        .collect();
    let mut findings: Vec<Diagnostic> = (previous.iter())
        .filter(|d| unchanged.contains(d.code))
        .cloned()
        .collect();
    let Some(small) = EditedSite::of(index, edited) else {
        findings.extend(lint_rules(index, today, &rerun)?);
        return Ok(in_order(findings));
    };
    // A rule searches a "did you mean" for its first MAX_SUGGESTIONS findings only (it asks
    // `Sink::may_suggest` at most once per finding). With fewer findings before the edits and
    // after them, every finding of it had and has its search, wherever it is; from that many
    // on, which ones do depends on the findings before them, so the rule runs over the whole
    // site.
    let before = count_by_code(previous.iter());
    let mut local: HashSet<&str> = rules::ALL
        .iter()
        .filter(|r| r.in_lint() && r.meta.scope == Scope::NoteLocal && rerun(r.meta))
        .map(|r| r.meta.code)
        .filter(|code| before.get(code).copied().unwrap_or(0) < MAX_SUGGESTIONS)
        .collect();
    let fresh: Vec<Diagnostic> = lint_rules(&small.index, today, |m| local.contains(m.code))?
        .into_iter()
        .filter(|d| small.on_edited_note(d))
        .collect();
    let kept: Vec<&Diagnostic> = previous
        .iter()
        .filter(|d| local.contains(d.code) && !small.paths.contains(d.file.as_str()))
        .collect();
    // The edits may have brought a rule to the cap: it runs over the whole site after all.
    let after = count_by_code(kept.iter().copied().chain(&fresh));
    local.retain(|code| after.get(code).copied().unwrap_or(0) < MAX_SUGGESTIONS);
    findings.extend(lint_rules(index, today, |m| {
        rerun(m) && !local.contains(m.code)
    })?);
    findings.extend(fresh.into_iter().filter(|d| local.contains(d.code)));
    findings.extend(kept.into_iter().filter(|d| local.contains(d.code)).cloned());
    Ok(in_order(findings))
}

/// How many findings each rule has.
fn count_by_code<'a>(
    findings: impl Iterator<Item = &'a Diagnostic>,
) -> HashMap<&'static str, usize> {
    let mut counts = HashMap::new();
    for d in findings {
        *counts.entry(d.code).or_insert(0) += 1;
    }
    counts
}

/// The edited notes and every non-note document of a site, as a site of their own: what the
/// note-local rules need to check the edited notes. Documents are cloned as the whole site's
/// index parsed them, so their file ids and spans are the whole site's too.
struct EditedSite {
    index: SiteIndex,
    /// The edited notes' file ids, sorted.
    notes: Vec<FileId>,
    /// The edited notes' paths, as findings name them.
    paths: HashSet<String>,
}

impl EditedSite {
    /// `None` when an edited file is not a parsed research note.
    fn of(site: &SiteIndex, edited: &[FileId]) -> Option<EditedSite> {
        let (wanted, notes) = EditedSite::notes_of(site, edited)?;
        let content = &site.content;
        let content = Content {
            notes: notes.into_iter().cloned().collect(),
            clients: content.clients.clone(),
            capabilities: content.capabilities.clone(),
            guides: content.guides.clone(),
            observations: content.observations.clone(),
            transcripts: content.transcripts.clone(),
            lists: Vec::new(),
            reports: Vec::new(),
        };
        let parsed = ParsedSite {
            root: site.root.clone(),
            config: site.config.clone(),
            files: sparse_files(site, &content),
            content,
            unreadable: Vec::new(),
            assets: Default::default(),
        };
        let paths = (wanted.iter())
            .map(|&f| site.files[f].display_path())
            .collect();
        Some(EditedSite {
            index: crate::index::index(parsed),
            notes: wanted,
            paths,
        })
    }

    /// The edited files' ids, sorted, and their notes; `None` when one is not a parsed note.
    fn notes_of<'s>(
        site: &'s SiteIndex,
        edited: &[FileId],
    ) -> Option<(Vec<FileId>, Vec<&'s Note>)> {
        let mut wanted = edited.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        let notes: Vec<&Note> = (site.content.notes.iter())
            .filter(|n| wanted.binary_search(&n.doc.file).is_ok())
            .collect();
        (notes.len() == wanted.len()).then_some((wanted, notes))
    }

    /// Whether a finding is on one of the edited notes.
    fn on_edited_note(&self, finding: &Diagnostic) -> bool {
        self.notes.binary_search(&finding.span.file).is_ok()
    }
}

/// The site's files with the text of those `content` holds, and an empty file with no path in
/// place of each other one, so that every file id keeps its meaning (what `content` holds
/// cannot read the others: a rule reading them is not note-local).
fn sparse_files(site: &SiteIndex, content: &Content) -> Vec<TextFile> {
    let mut files = vec![TextFile::new(PathBuf::new(), String::new()); site.files.len()];
    for doc in content.documents() {
        if let (Some(to), Some(from)) = (files.get_mut(doc.file), site.files.get(doc.file)) {
            *to = from.clone();
        }
    }
    files
}
