//! Rebuilds in memory, incrementally: after an edit to one content file only that file is
//! read and parsed again, and only the outputs whose inputs changed are rendered again.
//!
//! A [`Rebuilder`] keeps the last index, a hash of each file, and the last render's outputs
//! with the inputs each read ([`Memo`]); [`InputHashes`] says what those inputs are after an
//! edit, so only the outputs that read something it changed are rendered again. An edit to
//! an existing Markdown file is re-read and re-parsed alone; anything else (a file added,
//! removed or renamed, a list of self-reports in `content/lists/`, `site.yaml`, an unreadable
//! file) loads the whole site again, still
//! rendering only what changed. A change to templates, themes or static files lists them
//! again (fenced as a load does), compiles the theme again and renders every page.
//!
//! Lint after edits in place runs only what they can change (see `Relint`). With
//! [`Rebuilder::defer_listings`], a rebuild renders the note pages first and leaves the pages
//! that list notes, the feeds and the data API for [`Rebuilder::catch_up`].

use super::fingerprint::{file_hashes, rehash_file, settings_hash, FileHash, InputHashes};
use crate::diagnostic::{Diagnostic, Severity};
use crate::error::Result;
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::load::{self, CONTENT_DIR};
use crate::parse::{self, Parsed};
use crate::render::output::SharedOutput;
use crate::render::SearchFiles;
use crate::render::{self, Incremental, Memo, RenderOptions};
use crate::text_file::{Section, TextFile};
use chrono::NaiveDate;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

/// Folders and files of the site whose changes call for a rebuild, beside `content/`.
pub const WATCHED: [&str; 4] = ["templates", "themes", "static", "site.yaml"];

/// What a rebuild made.
#[derive(Debug)]
pub struct Rebuilt {
    /// Every lint finding.
    pub diagnostics: Vec<Diagnostic>,
    /// The site's files (without the search index: see [`Rebuilder::search`]); `None` when
    /// lint found errors.
    pub site: Option<SharedOutput>,
    /// Pages rendered anew (the rest were reused).
    pub rendered: usize,
    /// Pages in the site.
    pub pages: usize,
    /// Output paths served as they were although an edit changed them (see
    /// [`Rebuilder::defer_listings`]); [`Rebuilder::catch_up`] renders them.
    pub pending: Vec<String>,
    /// How long the steps took: read and parse (with the index), lint, render.
    pub timings: Timings,
}

/// How long each step of a rebuild took.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    /// Reading, parsing and indexing what changed.
    pub load: Duration,
    pub lint: Duration,
    pub render: Duration,
}

impl Rebuilt {
    /// A rebuild that made no site (nothing to build, or lint found errors).
    fn without_site(diagnostics: Vec<Diagnostic>, timings: Timings) -> Rebuilt {
        Rebuilt {
            diagnostics,
            site: None,
            rendered: 0,
            pages: 0,
            pending: Vec::new(),
            timings,
        }
    }

    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

/// How a set of changed paths is rebuilt.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// Nothing the site is made of changed.
    Nothing,
    /// These content files (relative paths) changed in place.
    Edit(Vec<PathBuf>),
    /// Templates, themes or static files changed.
    Theme,
    /// Load the whole site again; `theme`: templates, static files or settings changed too.
    Reload { theme: bool },
}

/// What changed since the last lint, which decides how a rebuild lints.
#[derive(Debug)]
enum Relint {
    /// Anything: lint the whole site.
    All,
    /// These content files were edited in place (the set of files and the settings as they
    /// were). Without front matter changes only the body rules lint again
    /// ([`crate::lint::lint_bodies`]); when every edited file is a research note, the edited
    /// notes and the rules that compare notes ([`crate::lint::lint_notes`]; both at once,
    /// [`crate::lint::lint_note_bodies`]); else, all.
    Edited {
        files: Vec<usize>,
        fronts: bool,
        notes_only: bool,
    },
}

/// Builds a site in memory and rebuilds it after changes, reusing what it can.
pub struct Rebuilder {
    root: PathBuf,
    base_url: Option<String>,
    today: NaiveDate,
    index: Option<SiteIndex>,
    hashes: Vec<FileHash>,
    /// The hash of the index's settings ([`settings_hash`]).
    settings: u64,
    memo: Memo,
    /// Changes whenever a template or static file does.
    theme: u64,
    /// When the current rebuild started.
    started: Instant,
    /// The last lint's findings, for a rebuild after edits (see [`Relint`]).
    findings: Option<Vec<Diagnostic>>,
    /// What changed since the last lint, and so how much to lint again.
    relint: Relint,
    /// See [`Rebuilder::defer_listings`].
    defer_listings: bool,
    /// The day ages counted to in the last render, while it left pages for
    /// [`Rebuilder::catch_up`].
    deferred: Option<(Option<NaiveDate>, bool)>,
    /// The day ages counted to in the last render: unchanged while edits leave every front
    /// matter as it was (it is the newest date in them).
    reference: Option<(Option<NaiveDate>, bool)>,
}

impl Rebuilder {
    /// A rebuilder of the site in `root`; `base_url` replaces `site.yaml`'s, `today` is the
    /// day lint measures from.
    pub fn new(root: &Path, base_url: Option<String>, today: NaiveDate) -> Rebuilder {
        Rebuilder {
            root: root.to_path_buf(),
            base_url,
            today,
            index: None,
            hashes: Vec::new(),
            settings: 0,
            memo: Memo::default(),
            theme: 0,
            started: Instant::now(),
            findings: None,
            relint: Relint::All,
            defer_listings: false,
            deferred: None,
            reference: None,
        }
    }

    /// After an edit, render the pages showing notes one by one (note and guide pages) and
    /// serve the previous version of the pages listing or tallying notes (indexes, client,
    /// capability and spec pages, home) and of feeds, sitemap and data API, naming them in
    /// [`Rebuilt::pending`]; [`Rebuilder::catch_up`] then renders those. An edited note is
    /// served sooner so; its listings follow.
    pub fn defer_listings(&mut self, defer: bool) {
        self.defer_listings = defer;
    }

    /// The site's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The site's content files as last read, for printing code frames.
    pub fn files(&self) -> &[TextFile] {
        self.index.as_ref().map_or(&[], |i| &i.files)
    }

    /// Loads, lints and renders the whole site.
    pub fn build(&mut self) -> Result<Rebuilt> {
        self.started = Instant::now();
        self.reload()?;
        self.finish()
    }

    /// Rebuilds after `changed` paths (absolute, or relative to the site root) changed.
    pub fn update(&mut self, changed: &[PathBuf]) -> Result<Rebuilt> {
        self.started = Instant::now();
        self.relint = Relint::All;
        self.deferred = None;
        // No output records reading a list of self-reports: after a change to one, every
        // output is made again.
        let root = &self.root;
        if changed
            .iter()
            .any(|p| load::lists::is_list(&relative_to(root, p)))
        {
            self.memo = Memo::default();
        }
        match self.plan(changed) {
            Plan::Nothing => self.finish(),
            Plan::Edit(files) => {
                self.relint = Relint::Edited {
                    files: Vec::new(),
                    fronts: false,
                    notes_only: true,
                };
                for file in &files {
                    if !self.edit(file) {
                        self.reload()?;
                        break;
                    }
                }
                self.finish()
            }
            Plan::Theme => {
                self.forget_theme();
                if let Some(index) = &mut self.index {
                    index.assets = load::assets(&self.root, &index.config.theme)?;
                }
                self.finish()
            }
            Plan::Reload { theme } => {
                if theme {
                    self.forget_theme();
                }
                self.reload()?;
                self.finish()
            }
        }
    }

    /// Reads templates and static files again on the next render, and renders every page.
    fn forget_theme(&mut self) {
        self.memo.forget_theme();
        self.theme += 1;
    }

    /// Whether `changed` paths touch anything the site is made of (an editor's swap file
    /// does not).
    pub fn affects(&self, changed: &[PathBuf]) -> bool {
        self.plan(changed) != Plan::Nothing
    }

    /// `baseUrl`'s path (`/docs` of `https://x.io/docs`), which every link starts with.
    pub fn base_path(&self) -> String {
        let index = self.index.as_ref();
        index.map_or(String::new(), |i| i.config.base_path().to_string())
    }

    /// The search index of the last build, as (path, contents).
    pub fn search(&self) -> Result<SearchFiles> {
        Ok(self.search_unless(&|| false)?.unwrap_or_default())
    }

    /// [`Rebuilder::search`], or `None` as soon as `stop` says to give up.
    pub fn search_unless(&self, stop: &dyn Fn() -> bool) -> Result<Option<SearchFiles>> {
        match &self.index {
            Some(index) => render::search_files_unless(index, stop),
            None => Ok(Some(Vec::new())),
        }
    }

    /// Sorts changed paths into a plan.
    fn plan(&self, changed: &[PathBuf]) -> Plan {
        let Some(index) = &self.index else {
            return Plan::Reload { theme: true };
        };
        let (mut reload, mut theme) = (false, false);
        let mut edits = Vec::new();
        for path in changed {
            let relative = relative_to(&self.root, path);
            let first = match relative.components().next() {
                Some(Component::Normal(first)) => first.to_string_lossy().into_owned(),
                _ => continue,
            };
            if first == CONTENT_DIR {
                let known = index.files.iter().position(|f| f.path == relative);
                let is_markdown = relative.extension().is_some_and(|e| e == "md");
                let regular = std::fs::symlink_metadata(self.root.join(&relative))
                    .is_ok_and(|m| m.file_type().is_file());
                let readable =
                    known.is_some_and(|id| !index.unreadable.iter().any(|u| u.file == id));
                let is_folder = self.root.join(&relative).is_dir()
                    || index.files.iter().any(|f| f.path.starts_with(&relative));
                match (known, is_markdown) {
                    // A list of self-reports (`content/lists/<id>.yaml`) added, edited or
                    // removed (`update` forgets every output made before).
                    _ if load::lists::is_list(&relative) => reload = true,
                    (Some(_), true) if regular && readable => {
                        if !edits.contains(&relative) {
                            edits.push(relative);
                        }
                    }
                    // An editor's swap or backup file: not content. (Markdown files and
                    // folders that appear, go or move change the site.)
                    (None, false) if !is_folder => {}
                    _ => reload = true,
                }
            } else if first == "site.yaml" {
                (reload, theme) = (true, true);
            } else if WATCHED.contains(&first.as_str()) {
                theme = true;
            }
        }
        match (reload, theme, edits.is_empty()) {
            (true, _, _) | (false, true, false) => Plan::Reload { theme },
            (false, true, true) => Plan::Theme,
            (false, false, true) => Plan::Nothing,
            (false, false, false) => Plan::Edit(edits),
        }
    }

    /// Reads and parses one edited file again, in place. False when it cannot be done in
    /// place (the file became unreadable, or is not a known document).
    fn edit(&mut self, relative: &Path) -> bool {
        let Some(mut index) = self.index.take() else {
            return false;
        };
        let id_before = note_id(&index, relative);
        let done = edit_in_place(&self.root, &mut index, relative);
        if let Some((file, page)) = done {
            let same_ids = id_before.is_some() && id_before == note_id(&index, relative);
            let (parsed, resolved) = index.into_parts();
            let index = match same_ids {
                true => crate::index::reindex_same_ids(parsed, resolved, &[page]),
                false => crate::index::reindex(parsed, resolved, &[page]),
            };
            let front = self.hashes.get(file).map(|h| h.front);
            rehash_file(&index, file, &mut self.hashes);
            if let Relint::Edited {
                files,
                fronts,
                notes_only,
            } = &mut self.relint
            {
                files.push(file);
                *fronts |= front != self.hashes.get(file).map(|h| h.front);
                *notes_only &= matches!(page, Page::Note(_));
            }
            self.index = Some(index);
            true
        } else {
            self.index = Some(index);
            false
        }
    }

    /// Loads, parses and indexes the whole site again.
    fn reload(&mut self) -> Result<()> {
        self.index = None;
        self.relint = Relint::All;
        let mut index = crate::open(&self.root)?;
        if let Some(base_url) = &self.base_url {
            index.config.base_url = base_url.trim_end_matches('/').to_string();
        }
        self.hashes = file_hashes(&index);
        self.settings = settings_hash(&index);
        self.index = Some(index);
        Ok(())
    }

    /// Lints the current index and, without errors, renders it.
    fn finish(&mut self) -> Result<Rebuilt> {
        let mut timings = Timings {
            load: self.started.elapsed(),
            ..Timings::default()
        };
        let Some(index) = &self.index else {
            return Ok(Rebuilt::without_site(Vec::new(), timings));
        };
        let previous = self.findings.take();
        let (diagnostics, rendered) = rayon::join(
            || {
                let started = Instant::now();
                let today = self.today;
                let findings = match (&self.relint, &previous) {
                    (
                        Relint::Edited {
                            files,
                            fronts: false,
                            notes_only: true,
                        },
                        Some(previous),
                    ) => crate::lint::lint_note_bodies(index, today, previous, files),
                    (Relint::Edited { fronts: false, .. }, Some(previous)) => {
                        crate::lint::lint_bodies(index, today, previous)
                    }
                    (
                        Relint::Edited {
                            files,
                            notes_only: true,
                            ..
                        },
                        Some(previous),
                    ) => crate::lint::lint_notes(index, today, previous, files),
                    _ => crate::lint::lint(index, today),
                };
                (findings, started.elapsed())
            },
            || {
                let started = Instant::now();
                let reference = match (&self.relint, self.reference) {
                    (Relint::Edited { fronts: false, .. }, Some(reference)) => Ok(reference),
                    _ => render::reference_day(index),
                };
                let rendered = reference.and_then(|reference| {
                    let (hashes, settings) = (&self.hashes, self.settings);
                    let inputs = InputHashes::new(index, hashes, settings, self.theme, reference);
                    let defer = self.defer_listings;
                    let rendered = render_into(index, &mut self.memo, &inputs, defer)?;
                    Ok((rendered, reference))
                });
                (rendered, started.elapsed())
            },
        );
        let ((diagnostics, lint), (rendered, render)) = (diagnostics, rendered);
        self.reference = rendered.as_ref().ok().map(|(_, reference)| *reference);
        timings.lint = lint;
        timings.render = render;
        let diagnostics = diagnostics?;
        self.findings = Some(diagnostics.clone());
        let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
        if has_errors {
            return Ok(Rebuilt::without_site(diagnostics, timings));
        }
        let ((out, stats), reference) = rendered?;
        if !stats.deferred.is_empty() {
            self.deferred = Some(reference);
        }
        Ok(Rebuilt {
            diagnostics,
            site: Some(out),
            rendered: stats.pages - stats.reused,
            pages: stats.pages,
            pending: stats.deferred,
            timings,
        })
    }

    /// Renders what the last rebuild left for later ([`Rebuilt::pending`]): the whole site,
    /// up to date; `None` when nothing was left.
    pub fn catch_up(&mut self) -> Result<Option<Rebuilt>> {
        let (Some(reference), Some(index)) = (self.deferred.take(), &self.index) else {
            return Ok(None);
        };
        let started = Instant::now();
        let (hashes, settings) = (&self.hashes, self.settings);
        let inputs = InputHashes::new(index, hashes, settings, self.theme, reference);
        let (out, stats) = render_into(index, &mut self.memo, &inputs, false)?;
        Ok(Some(Rebuilt {
            diagnostics: self.findings.clone().unwrap_or_default(),
            site: Some(out),
            rendered: stats.pages - stats.reused,
            pages: stats.pages,
            pending: Vec::new(),
            timings: Timings {
                render: started.elapsed(),
                ..Timings::default()
            },
        }))
    }
}

/// Renders `index` in memory (without the search index), reusing what `memo` has of the
/// outputs whose `inputs` are unchanged.
fn render_into(
    index: &SiteIndex,
    memo: &mut Memo,
    inputs: &InputHashes<'_>,
    defer_listings: bool,
) -> Result<(SharedOutput, render::RenderStats)> {
    let options = RenderOptions {
        skip_search: true,
        reference: Some(inputs.reference()),
        ..RenderOptions::default()
    };
    let mut out = SharedOutput::default();
    let incremental = Incremental {
        memo,
        inputs,
        defer_listings,
    };
    let stats = render::render_with(index, &options, &mut out, Some(incremental))?;
    Ok((out, stats))
}

/// Re-reads and re-parses `relative` into `index` in place; the file's id and page, or
/// `None` when that cannot be done (the caller loads the whole site instead).
fn edit_in_place(root: &Path, index: &mut SiteIndex, relative: &Path) -> Option<(usize, Page)> {
    index.files.iter().position(|f| f.path == relative)?;
    let (file, problem) = load::read_one(root, relative, &index.config.limits);
    if problem.is_some() {
        return None;
    }
    replace_document(index, file)
}

/// Parses `file` (its path relative to the site root, its text as it now is) in place of the
/// document of the same path in `index`: the file's id and page, or `None` when `index` holds
/// no parsed document at that path. The index's lookups are not updated: index it again
/// ([`crate::index::reindex`], after [`SiteIndex::into_parts`]).
pub fn replace_document(index: &mut SiteIndex, file: TextFile) -> Option<(usize, Page)> {
    let id = index.files.iter().position(|f| f.path == file.path)?;
    let section = section_of(&file.path)?;
    let limit = index.config.limits.max_front_matter_bytes;
    let parsed = parse::parse_file(&file, id, section, limit);
    let content = &mut index.content;
    let at = content
        .documents()
        .filter(|d| d.section == section)
        .position(|d| d.file == id)?;
    match parsed {
        Parsed::Note(n) => content.notes[at] = n,
        Parsed::Client(c) => content.clients[at] = c,
        Parsed::Capability(c) => content.capabilities[at] = c,
        Parsed::Guide(g) => content.guides[at] = g,
        Parsed::Observation(o) => content.observations[at] = o,
    }
    index.files[id] = file;
    Some((id, crate::index::page_of(section, at)))
}

/// The id of the research note at `relative`, if it is one.
fn note_id(index: &SiteIndex, relative: &Path) -> Option<String> {
    let file = index.files.iter().position(|f| f.path == relative)?;
    let note = index.content.notes.iter().find(|n| n.doc.file == file)?;
    Some(crate::model::doc_id(&note.id, &note.doc).to_string())
}

/// The section a content path belongs to (`content/research/x.md` → research).
pub fn section_of(relative: &Path) -> Option<Section> {
    let mut parts = relative.components().map(|c| c.as_os_str().to_str());
    (parts.next()? == Some(CONTENT_DIR)).then_some(())?;
    Section::from_dir(parts.next()??)
}

/// `path` relative to `root` (paths from the watcher are absolute; the root may not be).
fn relative_to(root: &Path, path: &Path) -> PathBuf {
    if path.is_relative() && !root.is_relative() {
        return path.to_path_buf();
    }
    if let Ok(rest) = path.strip_prefix(root) {
        return rest.to_path_buf();
    }
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if let Ok(rest) = path.strip_prefix(&canonical_root) {
        return rest.to_path_buf();
    }
    // A path that no longer exists: resolve its folder.
    let resolved = path
        .parent()
        .and_then(|p| std::fs::canonicalize(p).ok())
        .zip(path.file_name())
        .map(|(dir, name)| dir.join(name));
    match resolved {
        Some(full) => full
            .strip_prefix(&canonical_root)
            .map(Path::to_path_buf)
            .unwrap_or(full),
        None => path.to_path_buf(),
    }
}
