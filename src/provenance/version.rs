//! Versions: each support cell that rests on code of its client's own repository names the
//! client release that code is in, as its `version` — the first release (by the client's
//! `releaseTags`) whose tag contains every commit the cell pins there. `fieldnotes sources
//! release` writes them in place (a `version` line added before the cell's `lastVerified`, or
//! the value rewritten), every other byte of the file kept; `sources verify` checks them
//! (FN950).

use super::bump::{self, Bump, FileBump};
use super::cache::Cache;
use super::release::{self, Tags};
use super::verify::resolve;
use super::{pinned, Holder};
use crate::index::SiteIndex;
use crate::model::{doc_id, text, Spanned};
use crate::text_file::TextFile;
use std::collections::{BTreeMap, HashMap};

/// What became of one cell's `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It already names the first release.
    Current(String),
    /// It is written (`from`: what it said before, if anything).
    Written { from: Option<String>, to: String },
    /// No release could be named: why.
    Unnamed(String),
}

/// One support cell resting on its client's code, and its version.
#[derive(Debug, Clone)]
pub struct CellVersion {
    pub client: String,
    pub capability: String,
    pub file: String,
    pub line: usize,
    pub outcome: Outcome,
}

/// The versions to write, and every code cell's outcome.
#[derive(Debug, Default)]
pub struct VersionPlan {
    pub bump: Bump,
    pub cells: Vec<CellVersion>,
}

impl VersionPlan {
    /// How many cells name their release once written.
    pub fn named(&self) -> usize {
        (self.cells.iter())
            .filter(|c| !matches!(c.outcome, Outcome::Unnamed(_)))
            .count()
    }
}

/// Plans the `version` of every support cell with a source in its client's repository; a
/// client without `releaseTags` has its cells counted, unnamed, with why.
pub fn plan(index: &SiteIndex, cache: &mut Cache) -> VersionPlan {
    let mut by_cell: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    let pins = pinned(index);
    for (i, pin) in pins.iter().enumerate() {
        if let (Holder::Cell { client, cell }, Some(_)) = (pin.holder, release::own_pin(index, pin))
        {
            by_cell.entry((client, cell)).or_default().push(i);
        }
    }
    let mut tags: HashMap<String, Tags> = HashMap::new();
    let mut edits: BTreeMap<usize, Vec<(usize, usize, String)>> = BTreeMap::new();
    let mut plan = VersionPlan::default();
    for ((c, k), held) in by_cell {
        let client = &index.content.clients[c];
        let cell = &client.support[k];
        let file = &index.files[client.doc.file];
        let outcome = match release::pattern(client) {
            _ if release::observed_version(index, c, k) => Ok(text(&cell.version).into()),
            None => Err(format!(
                "{} names no `releaseTags`: add the pattern its release tags follow (`v*`)",
                file.display_path()
            )),
            Some(_) => first_release(index, cache, &mut tags, &pins, &held),
        };
        let outcome = match outcome {
            Err(why) => Outcome::Unnamed(why),
            Ok(release) => {
                let before = cell.version.as_ref().map(|v| v.value.clone());
                match before.as_deref() == Some(release.as_str()) {
                    true => Outcome::Current(release),
                    false => {
                        edits.entry(client.doc.file).or_default().push(edit(
                            file,
                            cell.version.as_ref(),
                            cell,
                            &release,
                        ));
                        Outcome::Written {
                            from: before,
                            to: release,
                        }
                    }
                }
            }
        };
        plan.cells.push(CellVersion {
            client: doc_id(&client.id, &client.doc).to_string(),
            capability: cell.capability.value.clone(),
            file: file.display_path(),
            line: file.line_col(cell.capability.span.start).line,
            outcome,
        });
    }
    for (at, mut edits) in edits {
        let source = &index.files[at];
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut after = source.text.clone();
        for (start, end, text) in &edits {
            after.replace_range(start..end, text);
        }
        plan.bump.files.push(FileBump {
            path: source.display_path(),
            relative: source.path.clone(),
            before: source.text.clone(),
            after,
            sources: edits.len(),
        });
    }
    plan
}

/// The first release containing every commit the pins `held` name, or why there is none.
fn first_release(
    index: &SiteIndex,
    cache: &mut Cache,
    tags: &mut HashMap<String, Tags>,
    pins: &[super::Pinned<'_>],
    held: &[usize],
) -> Result<String, String> {
    let (_, _, pattern) = release::client_pin(index, &pins[held[0]]).ok_or("no releaseTags")?;
    let url = pins[held[0]].repository.clone().unwrap_or_default();
    let mut commits = Vec::new();
    for &i in held {
        let resolved = resolve(&pins[i], cache).map_err(|p| p.reason())?;
        if !commits.contains(&resolved.commit) {
            commits.push(resolved.commit);
        }
    }
    let repo = cache.repo(&url)?;
    let tags = tags.entry(url.clone()).or_default();
    let commits: Vec<&str> = commits.iter().map(String::as_str).collect();
    match tags.first_release(repo, pattern, &commits)? {
        Some(release) => Ok(release.version),
        None => {
            let newest = (tags.releases(repo, pattern)?.last())
                .map_or("none".to_string(), |r| r.tag.clone());
            Err(format!(
                "no release (`releaseTags: {pattern}`) contains commit{} {} yet; the newest \
                 release the clone has is {newest}",
                if commits.len() == 1 { "" } else { "s" },
                commits
                    .iter()
                    .map(|c| super::short(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
}

/// The edit that writes `version` into `cell`: its value rewritten where it stands, or a
/// `version` line added before the cell's `lastVerified` (after its `status` when it has
/// none), indented as that line is. As (start, end, text) of the file's bytes.
fn edit(
    file: &TextFile,
    written: Option<&Spanned<String>>,
    cell: &crate::model::SupportCell,
    version: &str,
) -> (usize, usize, String) {
    let quoted = format!("\"{version}\"");
    if let Some(written) = written {
        let raw = &file.text[written.span.start..written.span.end];
        let end = written.span.start + bump::scalar_len(raw);
        return (written.span.start, end, quoted);
    }
    let (anchor, before) = match (&cell.last_verified, &cell.status) {
        (Some(at), _) => (at.span.start, true),
        (None, Some(at)) => (at.span.start, false),
        (None, None) => (cell.capability.span.start, false),
    };
    let line_start = file.text[..anchor].rfind('\n').map_or(0, |n| n + 1);
    let indent: String = (file.text[line_start..].chars())
        .take_while(|c| *c == ' ')
        .collect();
    let indent = match (&cell.last_verified, &cell.status) {
        (None, None) => format!("{indent}  "),
        _ => indent,
    };
    let at = match before {
        true => line_start,
        false => file.text[anchor..]
            .find('\n')
            .map_or(file.text.len(), |n| anchor + n + 1),
    };
    (at, at, format!("{indent}version: {quoted}\n"))
}

/// The plan's cells as a table: per client, how many name their release, and each that
/// does not with why.
pub fn table(plan: &VersionPlan) -> String {
    let mut out = String::new();
    let mut clients: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for cell in &plan.cells {
        let entry = clients.entry(&cell.client).or_default();
        entry.1 += 1;
        if !matches!(cell.outcome, Outcome::Unnamed(_)) {
            entry.0 += 1;
        }
    }
    for (client, (named, all)) in &clients {
        out.push_str(&format!(
            "{client}: {named} of {all} code cells name their release\n"
        ));
    }
    for cell in &plan.cells {
        let what = match &cell.outcome {
            Outcome::Current(_) => continue,
            Outcome::Written { from: None, to } => format!("version {to}"),
            Outcome::Written {
                from: Some(from),
                to,
            } => format!("version {from} → {to}"),
            Outcome::Unnamed(why) => format!("no version: {why}"),
        };
        out.push_str(&format!(
            "  {}:{}: {}: {}\n",
            cell.file, cell.line, cell.capability, what
        ));
    }
    out.push_str(&format!(
        "{} of {} code cells name their release\n",
        plan.named(),
        plan.cells.len()
    ));
    crate::terminal::escape_source(&out).into_owned()
}

/// Writes the plan's files (as [`bump::write`] does).
pub fn write(root: &std::path::Path, plan: &VersionPlan) -> crate::error::Result<usize> {
    bump::write(root, &plan.bump)
}
