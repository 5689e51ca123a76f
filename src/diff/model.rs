//! What `fieldnotes diff` reports, as data: the JSON of `--format json` is these types
//! serialized (documented in docs/content/guides/review.md; `version` changes when a field
//! changes meaning or goes away), and the Markdown is printed from them.

use crate::index::evidence::Evidence;
use serde::Serialize;

/// The version of the JSON shape.
pub(crate) const VERSION: u32 = 1;

/// Everything that changed in the site between the base commit and the work tree.
#[derive(Debug, Serialize)]
pub(crate) struct SiteDiff {
    pub version: u32,
    /// The base commit, in full.
    pub base: String,
    /// Changes to what sets the check's rules and what every page runs: `site.yaml`'s keys,
    /// and the files of `templates/`, `themes/` and `static/`.
    pub settings: Settings,
    /// Support cells whose status, evidence, notes or `lastVerified` changed, by client id
    /// then capability id.
    pub cells: Vec<CellChange>,
    pub notes: NoteChanges,
    /// Pinned sources whose commit changed, in a note or a support cell.
    pub pins: Vec<PinBump>,
    pub clients: Roster,
    pub capabilities: Roster,
    /// Base files not read (a symlink, too large, past the file count), and why: what they
    /// held is not compared.
    pub unread: Vec<Unread>,
}

impl SiteDiff {
    /// Whether nothing at all changed (and everything was read).
    pub(crate) fn is_empty(&self) -> bool {
        self.settings.is_empty()
            && self.cells.is_empty()
            && self.notes.added.is_empty()
            && self.notes.removed.is_empty()
            && self.notes.changed.is_empty()
            && self.pins.is_empty()
            && self.clients.is_empty()
            && self.capabilities.is_empty()
            && self.unread.is_empty()
    }
}

/// The two sides of a change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Sides<T> {
    pub before: T,
    pub after: T,
}

/// One support cell that changed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CellChange {
    pub client: String,
    pub capability: String,
    /// The status before and after: `yes`, `partial`, `no` or `unknown` (a cell the support
    /// map does not name is `unknown`).
    pub before: &'static str,
    pub after: &'static str,
    /// What changed: `status`, `evidence`, `notes`, `lastVerified`.
    pub changed: Vec<&'static str>,
    pub evidence: Sides<CellEvidence>,
    /// The cell's panel on the preview's home page (`--base-url`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip)]
    pub client_title: String,
    #[serde(skip)]
    pub capability_title: String,
    #[serde(skip)]
    pub client_url: Option<String>,
    #[serde(skip)]
    pub capability_url: Option<String>,
}

/// How a cell's claim is backed: the method derived from what it cites (as pages show it),
/// and what it cites.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CellEvidence {
    #[serde(flatten)]
    pub summary: Evidence,
    pub sources: Vec<Source>,
    pub research: Vec<String>,
    pub observations: Vec<String>,
}

/// A source as written: its URL, and its commit and path where pinned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Source {
    pub url: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub commit: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub path: String,
}

/// Research notes added, removed and changed, each by id.
#[derive(Debug, Default, Serialize)]
pub(crate) struct NoteChanges {
    pub added: Vec<NoteEntry>,
    pub removed: Vec<NoteEntry>,
    pub changed: Vec<NoteChange>,
}

/// A note added or removed.
#[derive(Debug, Serialize)]
pub(crate) struct NoteEntry {
    pub id: String,
    pub title: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A note on both sides whose front matter or body changed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NoteChange {
    pub id: String,
    pub title: String,
    /// The fields that changed, as front matter names them (`status`, `sources`, …), and
    /// `body`.
    pub fields: Vec<&'static str>,
    /// The status before and after, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Sides<String>>,
    /// The note now retired: `superseded` or `retracted`, and neither before.
    pub retired: bool,
    /// The note it is now superseded by, when `supersededBy` changed and is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A pinned source re-pinned to another commit.
#[derive(Debug, Serialize)]
pub(crate) struct PinBump {
    /// The note holding it; or the client and capability of the support cell holding it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// The repository its URL names (`https://github.com/o/r`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    pub before: Pin,
    pub after: Pin,
}

/// A commit and the file and lines pinned at it.
#[derive(Debug, Serialize)]
pub(crate) struct Pin {
    pub commit: String,
    pub path: String,
}

/// Clients or capabilities added and removed.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Roster {
    pub added: Vec<Named>,
    pub removed: Vec<Named>,
}

impl Roster {
    pub(crate) fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }
}

/// A client or capability, by id and title.
#[derive(Debug, Serialize)]
pub(crate) struct Named {
    pub id: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A base file that was not read.
#[derive(Debug, Serialize)]
pub(crate) struct Unread {
    pub path: String,
    pub reason: String,
}

/// `site.yaml`'s keys and the files of `templates/`, `themes/` and `static/` that changed.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Settings {
    /// Each key whose value changed, dotted (`limits.maxRenderSteps`, `kinds.2.title`), in
    /// key order.
    pub keys: Vec<KeyChange>,
    /// Each file added, removed or changed, by path from the site root.
    pub files: Vec<FileChange>,
}

impl Settings {
    pub(crate) fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.files.is_empty()
    }
}

/// A key of `site.yaml` whose value changed: each side's value as JSON (absent: `None`).
#[derive(Debug, Serialize)]
pub(crate) struct KeyChange {
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// The change loosens what the base set (a higher limit, `unsafeHtml` on, another theme,
    /// a rule less strict): a check with `--config-from` the base does not take it.
    pub loosens: bool,
}

/// A file of `site.yaml`, `templates/`, `themes/` or `static/` that changed.
#[derive(Debug, Serialize)]
pub(crate) struct FileChange {
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    /// `settings` (site.yaml), `template`, `script` (what a browser runs: `.js`, `.mjs`,
    /// `.wasm`, `.html`, `.svg`, …) or `static`.
    pub kind: &'static str,
}
