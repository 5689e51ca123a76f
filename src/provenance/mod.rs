//! Provenance: every pinned source checked against its repository.
//!
//! A source with a `commit` (or a `url` at a commit, `…/blob/<commit>/<file>#L…`) pins a
//! file's lines in a git repository. This module reads those repositories through `git`
//! (never a hand-written reader), from a local cache of bare clones (partial ones for big
//! repositories):
//!
//! - [`cache`]: where each repository's bare clone lives, cloning and fetching it, offline use,
//!   `--repo URL=PATH` mappings.
//! - [`verify`]: does the commit exist (a short hash naming exactly one commit), the path at
//!   that commit, every line range within the file? Its findings are lint rules FN951–FN955,
//!   run by `fieldnotes sources verify` (never by plain `lint`, which has no cache); a short
//!   hash on no branch is looked for among the heads of pull requests.
//! - [`drift`]: does the default branch still hold the pinned lines — unchanged, moved (to
//!   which lines, or which file), changed (how much), or gone (deleted in which commit)? It
//!   reads each repository's default branch once ([`history`], [`branch`]), follows each
//!   pinned block along it ([`trace`], [`follow`]) and looks for it there ([`locate`]), each
//!   source compared by [`compare`]. Its findings are FN956–FN958.
//! - [`bump`]: sources whose lines hold, unchanged or moved, re-pinned to the head of the
//!   default branch, in place in the front matter (`fieldnotes sources bump`).
//! - [`release`]: a client's releases (`releaseTags`), the release a pinned commit is first
//!   in (a cell's `version`, written by `fieldnotes sources release`), the newest release a
//!   pin moves to (`sources bump --release`), and commits reachable only from a pull request.
//! - [`to_release`]: each pin in a client's repository compared with the client's newest
//!   release instead of the default branch (`sources drift --release`, `bump --release`).
//! - [`version`]: each code cell's `version` written (`fieldnotes sources release`).
//! - [`excerpt`]: the pinned lines themselves, for note pages (`build --excerpts`).
//! - [`status`]: whether each source holds, moved, changed, is gone, is broken or could not
//!   be checked, for note pages (`build --sources REPORT.json`, or `--excerpts`).
//! - [`report`]: the drift table and the re-verification queue (what needs a person first),
//!   as text and JSON, and drift's findings.
//!
//! [`pinned`] lists the sources all of them work on, each with what holds it ([`Holder`]).

pub(crate) mod branch;
pub mod bump;
pub mod cache;
pub(crate) mod compare;
pub mod drift;
pub mod excerpt;
pub(crate) mod follow;
pub(crate) mod git;
pub(crate) mod history;
pub(crate) mod locate;
pub mod pin;
pub mod release;
pub mod report;
pub mod status;
pub(crate) mod texts;
pub mod to_release;
pub(crate) mod trace;
pub mod verdict;
pub mod verify;
pub mod version;
pub(crate) mod worktree;

use crate::index::SiteIndex;
use crate::model::{doc_id, text, SourcePathError, SourceRef, Spanned};
use crate::text_file::LineCol;
use pin::{repository_url, LineRange};

/// What holds a source: a research note, or one cell of a client's support map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Holder {
    /// A note, by its position in `content.notes`.
    Note(usize),
    /// A support cell: the client's position in `content.clients`, the cell's in its map.
    Cell { client: usize, cell: usize },
    /// A self-report of a shared list, by its position in `content.reports`.
    Report(usize),
}

impl Holder {
    /// `note <id>` or `client <id>, cell <capability>`, for messages.
    pub fn describe(self, index: &SiteIndex) -> String {
        let c = &index.content;
        match self {
            Holder::Note(n) => format!("note {}", doc_id(&c.notes[n].id, &c.notes[n].doc)),
            Holder::Cell { client, cell } => {
                let holder = &c.clients[client];
                format!(
                    "client {}, cell {}",
                    doc_id(&holder.id, &holder.doc),
                    holder.support[cell].capability.value
                )
            }
            Holder::Report(r) => {
                let report = &c.reports[r];
                format!(
                    "list {}, client {}, feature {}",
                    c.lists[report.list].id, report.client.value, report.feature.value
                )
            }
        }
    }

    /// The holder's `lastVerified`.
    pub fn last_verified(self, index: &SiteIndex) -> Option<&Spanned<String>> {
        let c = &index.content;
        match self {
            Holder::Note(n) => c.notes[n].last_verified.as_ref(),
            Holder::Cell { client, cell } => c.clients[client].support[cell].last_verified.as_ref(),
            Holder::Report(_) => None,
        }
    }

    /// The holder's sources.
    pub fn sources(self, index: &SiteIndex) -> &[SourceRef] {
        let c = &index.content;
        match self {
            Holder::Note(n) => &c.notes[n].sources,
            Holder::Cell { client, cell } => &c.clients[client].support[cell].sources,
            Holder::Report(r) => &c.reports[r].cell.sources,
        }
    }

    /// Every note, then every support cell, then every self-report, in content order.
    pub fn all(index: &SiteIndex) -> impl Iterator<Item = Holder> + '_ {
        let notes = (0..index.content.notes.len()).map(Holder::Note);
        let cells = index.content.clients.iter().enumerate().flat_map(|(i, c)| {
            (0..c.support.len()).map(move |cell| Holder::Cell { client: i, cell })
        });
        let reports = (0..index.content.reports.len()).map(Holder::Report);
        notes.chain(cells).chain(reports)
    }
}

/// A source pinned to a commit: what holds it, its repository, commit, file and lines.
#[derive(Debug, Clone)]
pub struct Pinned<'a> {
    pub holder: Holder,
    /// Its position in the holder's `sources`.
    pub position: usize,
    pub source: &'a SourceRef,
    /// The repository's URL ([`repository_url`]); `None` when `url` is missing or not http(s).
    pub repository: Option<String>,
    pub commit: &'a Spanned<String>,
    /// The file of `path`: empty when there is no path (the commit alone is pinned) or when
    /// `path` cannot be read.
    pub file: &'a str,
    pub ranges: &'a [LineRange],
    /// Why `path` cannot be read (lint's FN403): the source is not checked.
    pub path_error: Option<&'a SourcePathError>,
    /// The source has no `commit`: its `url` (`…/blob/<commit>/<file>#L…`) pins it.
    pub by_url: bool,
}

impl Pinned<'_> {
    /// The site file and line the source starts at, for reports.
    pub fn place(&self, index: &SiteIndex) -> (String, usize) {
        let file = &index.files[self.source.span.file];
        let LineCol { line, .. } = file.line_col(self.source.span.start);
        (file.display_path(), line)
    }

    /// The source's `path` as written.
    pub fn path(&self) -> &str {
        text(&self.source.path)
    }

    /// The file and lines pinned, written back (`src/a.py:5-8`), or `path` as written when it
    /// cannot be read.
    pub fn pinned_path(&self) -> String {
        match self.path_error {
            Some(_) => self.path().to_string(),
            None => pin::format_path(self.file, self.ranges),
        }
    }
}

/// Every source that names a `commit`, or whose `url` names one with a file
/// (`…/blob/<commit>/<file>#L…`), notes' first, in content order.
pub fn pinned(index: &SiteIndex) -> Vec<Pinned<'_>> {
    let mut out = Vec::new();
    for holder in Holder::all(index) {
        for (position, source) in holder.sources(index).iter().enumerate() {
            let (commit, url_pin) = match (&source.commit, &source.url_pin) {
                (Some(commit), _) => (commit, None),
                (None, Some(pin)) => (&pin.commit, Some(pin)),
                (None, None) => continue,
            };
            let (file, ranges, path_error) = match (url_pin, &source.location) {
                (Some(pin), _) => (pin.path.file.as_str(), &pin.path.lines[..], None),
                (None, Some(Ok(path))) => (path.file.as_str(), &path.lines[..], None),
                (None, Some(Err(error))) => ("", &[][..], Some(error)),
                (None, None) => ("", &[][..], None),
            };
            out.push(Pinned {
                holder,
                position,
                source,
                repository: repository_url(text(&source.url)),
                commit,
                file,
                ranges,
                path_error,
                by_url: url_pin.is_some(),
            });
        }
    }
    out
}

/// The positions of `pins` in the order that reads each cited file once: by repository,
/// file and commit as written (a commit's short and full hash side by side), content order
/// within each. Passes over every pin visit them so, since a repository keeps only so many
/// files' text at once ([`texts`]).
pub(crate) fn by_file(pins: &[Pinned<'_>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pins.len()).collect();
    order.sort_by_cached_key(|&i| {
        let pin = &pins[i];
        let commit = pin.commit.value.to_ascii_lowercase();
        (pin.repository.clone(), pin.file, commit)
    });
    order
}

/// A commit's first seven characters.
pub fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}
