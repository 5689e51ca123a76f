//! The content model: typed front matter of notes, clients, capabilities and guides.
//!
//! Values keep the span they were read from, so every later stage can point at them. Fields are
//! `Option` or empty when the author left them out: the linter, not the parser, decides what
//! is required (see [`crate::field_table`]).

use crate::text_file::{FileId, Section, Span};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// A value and the span of source text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

impl Spanned<String> {
    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// Everything every content file has: where it is, its front matter keys, its body.
#[derive(Debug, Clone)]
pub struct Document {
    pub file: FileId,
    pub section: Section,
    /// The file name without `.md`; a note's id must equal it.
    pub stem: String,
    /// The front matter block, `---` lines included (empty when there is none).
    pub front_matter: Span,
    /// Why the front matter could not be read, if it could not.
    pub front_matter_error: Option<FrontMatterError>,
    /// Every mapping key read, top level and nested, with the object kind it belongs to.
    pub keys: Vec<KeyRef>,
    /// Values of a type the field does not take.
    pub type_errors: Vec<TypeError>,
    /// Prose values that a YAML comment on the same line cut short (` #` ends a plain
    /// scalar: `notes: fixed by #11315` reads as "fixed by").
    pub comment_cuts: Vec<CommentCut>,
    /// Top-level keys the model does not know, kept with their values for the linter.
    pub extra: Vec<(Spanned<String>, serde_yaml::Value)>,
    pub body: Body,
}

/// Why a file's front matter could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontMatterError {
    /// The file does not start with a `---` line.
    Missing { span: Span },
    /// The opening `---` has no closing `---`.
    Unterminated { span: Span },
    /// The YAML does not parse; the span is at the parser's position.
    Syntax { message: String, span: Span },
    /// The YAML parses, but is not a mapping of keys to values.
    NotAMapping { span: Span },
    /// The block is larger than `limits.maxFrontMatterBytes`; it was not parsed.
    TooLarge {
        span: Span,
        bytes: usize,
        limit: usize,
    },
}

/// Which object a key belongs to, for the schema tables in [`crate::field_table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectKind {
    Note,
    Source,
    Client,
    SupportCell,
    Capability,
    Guide,
    Observation,
    /// An observation's `clientInfo`: `name` and `version`, and whatever else the client sent.
    ClientInfo,
    /// An observation's `probe`: the fieldnotes version and mode that recorded it.
    Probe,
    /// An observation's `package`: the package that ran (ecosystem, name, version).
    Package,
    /// One entry of an observation's `results`.
    ObservedResult,
}

/// A mapping key as written, with the span of the key and of the object that holds it.
#[derive(Debug, Clone)]
pub struct KeyRef {
    pub object: ObjectKind,
    /// The object's span (for "missing field" findings).
    pub object_span: Span,
    /// The key as written (borrowed from the schema table when it is a known field).
    pub key: std::borrow::Cow<'static, str>,
    pub span: Span,
}

/// A value whose YAML type the field does not take.
#[derive(Debug, Clone)]
pub struct TypeError {
    /// The field, as a path (`sources[1].commit`).
    pub field: String,
    pub expected: &'static str,
    pub found: &'static str,
    pub span: Span,
}

/// A prose field whose unquoted value a YAML comment on the same line cut short.
#[derive(Debug, Clone)]
pub struct CommentCut {
    /// The field, as a path (`support.tools.call.notes`).
    pub field: String,
    /// The value as YAML read it (the text before the comment).
    pub kept: String,
    /// The comment, from its `#` to the end of its line: the text that was lost.
    pub comment: Span,
}

/// The Markdown body and what the index needs from it.
#[derive(Debug, Clone, Default)]
pub struct Body {
    /// Byte range of the body in the file's text.
    pub range: Range<usize>,
    pub links: Vec<BodyLink>,
    pub headings: Vec<Heading>,
    /// Raw HTML blocks and inline HTML.
    pub raw_html: Vec<Span>,
    /// The text of an H1 that opens the body, if it does.
    pub leading_h1: Option<String>,
    /// What a research note's body restates of its front matter (empty for other files).
    pub restated: Restated,
}

/// What a research note's body restates of its front matter, as authors often write it (the
/// seed note does): the title as a leading `# …`, a metadata line (`Kind: … · Status: … ·
/// Last verified: …`), and `## Sources` and `## Related notes` lists. Found once, by
/// [`crate::parse::restated`]: pages show the front matter's version of each fact only
/// (render leaves these parts out), and lint (FN706) flags a restatement that disagrees.
#[derive(Debug, Clone, Default)]
pub struct Restated {
    /// The leading H1 as written (`# Title`): its text and span, and the heading's block.
    pub title: Option<RestatedBlock<Spanned<String>>>,
    /// The metadata line: each `Key: value` field, in order.
    pub metadata: Option<RestatedBlock<Vec<MetadataField>>>,
    /// A `## Sources` section that holds one list and nothing else: its items.
    pub sources: Option<RestatedSection>,
    /// A `## Related notes` section that holds one list and nothing else: its items.
    pub related: Option<RestatedSection>,
}

/// A restated part of a body: what it says, and the span of its whole block (the part a
/// page leaves out).
#[derive(Debug, Clone)]
pub struct RestatedBlock<T> {
    pub value: T,
    pub block: Span,
}

/// One `Key: value` field of a metadata line.
#[derive(Debug, Clone)]
pub struct MetadataField {
    pub key: Spanned<String>,
    /// The value as written (Markdown: links, code spans).
    pub value: Spanned<String>,
}

/// A restated `## …` section: its heading, and each list item as written.
#[derive(Debug, Clone)]
pub struct RestatedSection {
    /// The heading's position in [`Body::headings`].
    pub heading: usize,
    pub items: Vec<Spanned<String>>,
    /// From the heading to the end of the list.
    pub block: Span,
}

impl Restated {
    /// The blocks a page leaves out, in body order.
    pub fn blocks(&self) -> Vec<Span> {
        let mut blocks: Vec<Span> = [
            self.title.as_ref().map(|t| t.block),
            self.metadata.as_ref().map(|m| m.block),
            self.sources.as_ref().map(|s| s.block),
            self.related.as_ref().map(|r| r.block),
        ]
        .into_iter()
        .flatten()
        .collect();
        blocks.sort_by_key(|b| b.start);
        blocks
    }

    /// Whether heading `i` of the body lies in a block a page leaves out.
    pub fn drops_heading(&self, i: usize) -> bool {
        self.title.is_some() && i == 0
            || [&self.sources, &self.related]
                .iter()
                .any(|s| s.as_ref().is_some_and(|s| s.heading == i))
    }
}

/// A link or image destination in a body.
#[derive(Debug, Clone)]
pub struct BodyLink {
    pub dest: String,
    pub is_image: bool,
    pub span: Span,
}

/// A heading in a body, with the anchor its HTML id gets.
#[derive(Debug, Clone)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    pub anchor: String,
    pub span: Span,
}

/// A pinned source of a note or support cell.
#[derive(Debug, Clone)]
pub struct SourceRef {
    pub span: Span,
    pub url: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub commit: Option<Spanned<String>>,
    /// `path` as written.
    pub path: Option<Spanned<String>>,
    /// `path` read into its file and line ranges, or why it cannot be: read once, by
    /// [`crate::parse::source_path`], for lint (FN403), pages, verification, drift and
    /// excerpts alike. `None` when there is no `path`.
    pub location: Option<Result<SourcePath, SourcePathError>>,
    pub date: Option<Spanned<String>>,
    /// `quote`: the sentence of an unpinned page (a docs page) that the claim rests on,
    /// verbatim, so a reader can find it without trusting the site.
    pub quote: Option<Spanned<String>>,
    /// `retrieved`: the day that page was read (`YYYY-MM-DD`).
    pub retrieved: Option<Spanned<String>>,
    /// `pin` as written: `fixed` when the commit is the point of the source (the commit that
    /// made a change, say), so `sources bump` leaves it and drift does not queue it.
    pub pin: Option<Spanned<String>>,
    /// What `url` pins when it is a file at a commit of a GitHub or GitLab repository
    /// (`…/blob/<commit>/<file>#L10-L20`), read once by [`crate::parse::url_pin`]: the pin of
    /// a source without `commit`, and what `commit` and `path` must agree with (FN405).
    pub url_pin: Option<UrlPin>,
}

impl SourceRef {
    /// Whether the source says `pin: fixed`: its commit is what it cites, not a place to
    /// read lines that may move.
    pub fn fixed(&self) -> bool {
        text(&self.pin) == PIN_FIXED
    }
}

/// The one value `pin` takes on a source: the commit is the point, not where lines are.
pub const PIN_FIXED: &str = "fixed";

/// A file at a commit, and lines in it, as a source URL names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPin {
    /// The commit, 7–40 hex digits lower-cased; spanned as the `url`.
    pub commit: Spanned<String>,
    pub path: SourcePath,
}

/// A source's `path` as read: the file, relative to the repository root, and the line ranges
/// pinned in it, in increasing order and not overlapping (none: the whole file, or a folder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcePath {
    pub file: String,
    pub lines: Vec<LineRange>,
}

/// 1-based lines `start..=end` of a source's file: never line 0, never backwards
/// ([`LineRange::new`] makes no other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LineRange {
    start: usize,
    end: usize,
}

impl LineRange {
    /// Lines `start..=end`; `None` when `start` is 0 or after `end`.
    pub fn new(start: usize, end: usize) -> Option<LineRange> {
        (start >= 1 && start <= end).then_some(LineRange { start, end })
    }

    pub fn start(self) -> usize {
        self.start
    }

    pub fn end(self) -> usize {
        self.end
    }

    /// How many lines the range spans (at least one).
    pub fn count(self) -> usize {
        self.end - self.start + 1
    }

    /// As many lines, starting at `start` (at least 1).
    pub fn starting_at(self, start: usize) -> LineRange {
        let start = start.max(1);
        LineRange {
            start,
            end: start + self.count() - 1,
        }
    }
}

/// `3` or `3-5`, as in a source path.
impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == self.end {
            write!(f, "{}", self.start)
        } else {
            write!(f, "{}-{}", self.start, self.end)
        }
    }
}

/// Why a source's `path` cannot be read, and the part of it that is wrong (the whole value
/// when the YAML is quoted or folded, so that offsets in the value are not offsets in the
/// file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcePathError {
    pub problem: PathProblem,
    pub span: Span,
}

/// What is wrong with a source's `path` (its message: [`crate::parse::source_path`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// Nothing but spaces.
    Empty,
    /// Nothing before the `:` that starts the line ranges.
    NoFile,
    /// A leading `/`.
    Absolute,
    /// A Windows drive (`C:\`, `C:/`).
    Drive,
    /// A `\` (Windows separators are not a repository's).
    Backslash,
    /// A `..` segment.
    ParentDir,
    /// Spaces at the start or end of the file.
    Spaces,
    /// A `:` with nothing after it.
    NoLines,
    /// Nothing between two `,` or after the last one.
    EmptyRange,
    /// A range with no line on one side of its `-` (`3-`).
    HalfRange(String),
    /// A GitHub-style `L` before a line number (`L10`); the number.
    LinePrefix(String),
    /// Something other than digits where a line number belongs.
    NotALine(String),
    /// Line 0 (lines are numbered from 1).
    LineZero,
    /// A range whose end comes before its start.
    Reversed { start: usize, end: usize },
    /// A range that starts at or before the end of the range before it.
    OutOfOrder { start: usize },
}

/// A research note (`content/research/<id>.md`), fields as in the seed note.
#[derive(Debug, Clone)]
pub struct Note {
    pub doc: Document,
    pub id: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub kind: Option<Spanned<String>>,
    pub summary: Option<Spanned<String>>,
    pub capabilities: Vec<Spanned<String>>,
    pub clients: Vec<Spanned<String>>,
    pub spec_versions: Vec<Spanned<String>>,
    pub sources: Vec<SourceRef>,
    pub status: Option<Spanned<String>>,
    pub superseded_by: Option<Spanned<String>>,
    pub last_verified: Option<Spanned<String>>,
    pub related: Vec<Spanned<String>>,
    pub canonical: Option<Spanned<String>>,
    pub last_updated: Option<Spanned<String>>,
}

/// One cell of a client's support map.
#[derive(Debug, Clone)]
pub struct SupportCell {
    /// The capability id as written (an alias is resolved by the index).
    pub capability: Spanned<String>,
    pub span: Span,
    pub status: Option<Spanned<String>>,
    pub notes: Option<Spanned<String>>,
    pub research: Vec<Spanned<String>>,
    pub sources: Vec<SourceRef>,
    pub last_verified: Option<Spanned<String>>,
    pub version: Option<Spanned<String>>,
    /// Ids of observations that show the cell's status.
    pub observations: Vec<Spanned<String>>,
    /// Why an `unknown` cell is unknown: an id of `site.yaml`'s `unknownReasons`.
    pub reason: Option<Spanned<String>>,
}

/// An MCP client (`content/clients/<id>.md`).
#[derive(Debug, Clone)]
pub struct Client {
    pub doc: Document,
    pub id: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub vendor: Option<Spanned<String>>,
    pub homepage: Option<Spanned<String>>,
    pub repository: Option<Spanned<String>>,
    pub client_info_names: Vec<Spanned<String>>,
    pub platforms: Vec<Spanned<String>>,
    /// `releaseTags`: which tags of `repository` are its releases, a pattern whose one `*`
    /// stands for the version (`v*`, `v*-vscode`); see [`crate::provenance::release`].
    pub release_tags: Option<Spanned<String>>,
    pub support: Vec<SupportCell>,
    /// Why its unknown cells are unknown when a cell gives no `reason` (an id of `site.yaml`'s
    /// `unknownReasons`; `closed-no-docs` on a closed-source client, say).
    pub unknown_reason: Option<Spanned<String>>,
}

/// A protocol capability (`content/capabilities/<group.name>.md`).
#[derive(Debug, Clone)]
pub struct Capability {
    pub doc: Document,
    pub id: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub group: Option<Spanned<String>>,
    pub spec_url: Option<Spanned<String>>,
    /// The identifier of the official extension it is (`io.modelcontextprotocol/ui`), when it
    /// is one: an extension stands beside the spec revisions, not in one.
    pub extension: Option<Spanned<String>>,
    pub introduced: Option<Spanned<String>>,
    pub deprecated: Option<Spanned<String>>,
    pub removed: Option<Spanned<String>>,
    pub aliases: Vec<Spanned<String>>,
}

/// A long-form article (`content/guides/<slug>.md`).
#[derive(Debug, Clone)]
pub struct Guide {
    pub doc: Document,
    pub title: Option<Spanned<String>>,
    pub summary: Option<Spanned<String>>,
    pub last_updated: Option<Spanned<String>>,
}

mod observation;
mod report;
pub use observation::{
    proxy_name, ClientInfo, Observation, ObservedResult, PackageInfo, ProbeInfo, Transcript,
};
pub use report::{ListProblem, Report, ReportList};

/// Every content file of a site, typed, in path order within each section.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub notes: Vec<Note>,
    pub clients: Vec<Client>,
    pub capabilities: Vec<Capability>,
    pub guides: Vec<Guide>,
    pub observations: Vec<Observation>,
    /// The `.jsonl` transcripts beside the observations, in path order.
    pub transcripts: Vec<Transcript>,
    /// The shared lists of self-reports (`content/lists/<id>.yaml`), in path order.
    pub lists: Vec<ReportList>,
    /// Every claim of those lists, list by list, in the order each list writes them.
    pub reports: Vec<Report>,
}

impl Content {
    /// Every document, whatever its section, in section then path order.
    pub fn documents(&self) -> impl Iterator<Item = &Document> {
        self.notes
            .iter()
            .map(|n| &n.doc)
            .chain(self.clients.iter().map(|c| &c.doc))
            .chain(self.capabilities.iter().map(|c| &c.doc))
            .chain(self.guides.iter().map(|g| &g.doc))
            .chain(self.observations.iter().map(|o| &o.doc))
    }

    /// How many documents `section` has.
    pub fn len(&self, section: Section) -> usize {
        match section {
            Section::Research => self.notes.len(),
            Section::Clients => self.clients.len(),
            Section::Capabilities => self.capabilities.len(),
            Section::Guides => self.guides.len(),
            Section::Observations => self.observations.len(),
        }
    }

    /// Frees what only lint reads (every key read, type errors, unknown fields), so a
    /// build's render runs beside a smaller model: about 3 KB per note.
    pub fn drop_lint_only(&mut self) {
        let docs = (self.notes.iter_mut().map(|n| &mut n.doc))
            .chain(self.clients.iter_mut().map(|c| &mut c.doc))
            .chain(self.capabilities.iter_mut().map(|c| &mut c.doc))
            .chain(self.guides.iter_mut().map(|g| &mut g.doc))
            .chain(self.observations.iter_mut().map(|o| &mut o.doc));
        for doc in docs {
            doc.keys = Vec::new();
            doc.type_errors = Vec::new();
            doc.comment_cuts = Vec::new();
            doc.extra = Vec::new();
        }
    }
}

/// The value of an optional spanned string, or "" when absent.
pub fn text(value: &Option<Spanned<String>>) -> &str {
    value.as_ref().map_or("", |v| v.value.as_str())
}

/// The id a document goes by: its `id` field, else its file name.
pub fn doc_id<'a>(id: &'a Option<Spanned<String>>, doc: &'a Document) -> &'a str {
    match text(id) {
        "" => &doc.stem,
        id => id,
    }
}

/// `title` when written and not empty, else `fallback`.
fn title_or<'a>(title: &'a Option<Spanned<String>>, fallback: &'a str) -> &'a str {
    match text(title) {
        "" => fallback,
        title => title,
    }
}

impl Note {
    /// The title the note goes by on pages, in links and in the data API: its `title`, else
    /// its id.
    pub fn display_title(&self) -> &str {
        title_or(&self.title, doc_id(&self.id, &self.doc))
    }
}

impl Client {
    /// The title the client goes by: its `title`, else its id.
    pub fn display_title(&self) -> &str {
        title_or(&self.title, doc_id(&self.id, &self.doc))
    }
}

impl Capability {
    /// The title the capability goes by: its `title`, else its id.
    pub fn display_title(&self) -> &str {
        title_or(&self.title, doc_id(&self.id, &self.doc))
    }
}

impl Observation {
    /// The title the observation goes by: `<clientInfo.name> <version> over <transport>,
    /// <day>`, else its id; `(2026-07-28)` when the probe spoke that revision, `(no session)`
    /// when the client began none.
    pub fn display_title(&self) -> String {
        let id = doc_id(&self.id, &self.doc);
        let name = match self.client_info.as_ref().map_or("", |i| text(&i.name)) {
            "" => text(&self.client),
            name => name,
        };
        if name.is_empty() {
            return id.to_string();
        }
        let mut title = name.to_string();
        if let Some(version) = self.client_version().filter(|v| !v.is_empty()) {
            title.push(' ');
            title.push_str(version);
        }
        if let Some(transport) = Some(text(&self.transport)).filter(|t| !t.is_empty()) {
            title.push_str(" over ");
            title.push_str(transport);
        }
        let protocol = self.probe.as_ref().map_or("", |p| text(&p.protocol));
        if !matches!(protocol, "" | "current") {
            title.push_str(&format!(" ({protocol})"));
        }
        if self.is_no_session() {
            title.push_str(" (no session)");
        }
        match text(&self.observed) {
            "" => title,
            day => format!("{title}, {day}"),
        }
    }
}

impl Guide {
    /// The title the guide goes by: its `title`, else its file name (a guide has no id).
    pub fn display_title(&self) -> &str {
        title_or(&self.title, &self.doc.stem)
    }
}

/// The marker a new file carries where the author must still write something: `new` writes
/// it, lint (FN705) reports it.
pub const PLACEHOLDER: &str = "TODO";

/// Support statuses a cell may have, in matrix order.
pub const SUPPORT_STATUSES: [&str; 4] = ["yes", "partial", "no", "unknown"];

/// Note statuses.
pub const NOTE_STATUSES: [&str; 4] = ["current", "superseded", "retracted", "draft"];

/// Tallies of support statuses, keyed by status.
pub type Tally = BTreeMap<&'static str, usize>;
