//! The site as the editor sees it: loaded from disk, with the text of every open document laid
//! over its file. Edits are applied lazily: [`Workspace::flush`] re-parses the documents edited
//! since the last flush, indexes again and lints, once for a burst of keystrokes.

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::text_file::{FileId, TextFile};
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The loaded site, the open documents over it, and the last lint's findings.
pub struct Workspace {
    root: PathBuf,
    today: NaiveDate,
    index: SiteIndex,
    findings: Vec<Diagnostic>,
    /// The editor's text of each open document, by path relative to the root.
    open: BTreeMap<PathBuf, String>,
    /// Documents whose text changed since the last flush.
    dirty: BTreeSet<PathBuf>,
    /// Load the site from disk again at the next flush (files appeared, went or moved).
    reload: bool,
    /// Open documents that loading the site again did not bring in (not saved yet, or not
    /// content): edits to them load nothing again until files change on disk.
    outside: BTreeSet<PathBuf>,
}

impl Workspace {
    /// Loads and lints the site in `root`.
    pub fn load(root: &Path, today: NaiveDate) -> Result<Workspace> {
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let index = crate::open(&root)?;
        let findings = crate::lint::lint(&index, today)?;
        Ok(Workspace {
            root,
            today,
            index,
            findings,
            open: BTreeMap::new(),
            dirty: BTreeSet::new(),
            reload: false,
            outside: BTreeSet::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The site as of the last flush.
    pub fn index(&self) -> &SiteIndex {
        &self.index
    }

    /// Every lint finding as of the last flush.
    pub fn findings(&self) -> &[Diagnostic] {
        &self.findings
    }

    /// `path` relative to the root, if it is inside it.
    pub fn relative(&self, path: &Path) -> Option<PathBuf> {
        if let Ok(rest) = path.strip_prefix(&self.root) {
            return Some(rest.to_path_buf());
        }
        let parent = std::fs::canonicalize(path.parent()?).ok()?;
        let rest = parent.strip_prefix(&self.root).ok()?;
        Some(rest.join(path.file_name()?))
    }

    /// The file id of the document at `relative`, as of the last flush.
    pub fn file_id(&self, relative: &Path) -> Option<FileId> {
        self.index.files.iter().position(|f| f.path == relative)
    }

    /// The editor's text of an open document.
    pub fn text(&self, relative: &Path) -> Option<&str> {
        self.open.get(relative).map(String::as_str)
    }

    /// The editor opened or changed a document: its text is now `text`.
    pub fn set_text(&mut self, relative: PathBuf, text: String) {
        let current = match self.open.get(&relative) {
            Some(open) => Some(open.as_str()),
            None => (self.file_id(&relative)).map(|f| self.index.files[f].text.as_str()),
        };
        if current != Some(text.as_str()) {
            self.dirty.insert(relative.clone());
        }
        self.open.insert(relative, text);
    }

    /// The open documents and their text, to lay over the site when it is loaded again.
    pub fn into_open(self) -> BTreeMap<PathBuf, String> {
        self.open
    }

    /// The editor closed a document: its file's text on disk counts again.
    pub fn close(&mut self, relative: &Path) {
        if self.open.remove(relative).is_some() {
            self.dirty.insert(relative.to_path_buf());
        }
    }

    /// Files may have appeared, gone or moved on disk: load the site again at the next flush.
    pub fn files_changed(&mut self) {
        self.outside.clear();
        self.reload = true;
    }

    /// Whether edits wait for a flush.
    pub fn is_dirty(&self) -> bool {
        self.reload || !self.dirty.is_empty()
    }

    /// Applies the edits made since the last flush and lints: each edited document of the
    /// site is parsed again in place and the site indexed again; a document the site does not
    /// hold yet (a new file) loads the site from disk again, open documents laid over it.
    pub fn flush(&mut self) -> Result<()> {
        if !self.is_dirty() {
            return Ok(());
        }
        let dirty = std::mem::take(&mut self.dirty);
        if self.reload {
            return self.reload_all();
        }
        let mut edited = Vec::new();
        let mut notes_only = true;
        for relative in dirty {
            let text = match self.open.get(&relative) {
                Some(text) => text.clone(),
                None => match std::fs::read_to_string(self.root.join(&relative)) {
                    Ok(text) => text,
                    Err(_) => return self.reload_all(),
                },
            };
            match self.replace(&relative, text) {
                Some((file, page)) => {
                    notes_only &= matches!(page, Page::Note(_));
                    edited.push(file);
                }
                None if self.file_id(&relative).is_some() => return self.reload_all(),
                // A file the site does not hold yet: load the site again, once.
                None if is_content(&relative) && !self.outside.contains(&relative) => {
                    return self.reload_all()
                }
                // Not a document of the site (a Markdown file outside content/, a new file
                // not saved yet).
                None => {}
            }
        }
        self.findings = match notes_only && !edited.is_empty() {
            true => crate::lint::lint_notes(&self.index, self.today, &self.findings, &edited)?,
            false => crate::lint::lint(&self.index, self.today)?,
        };
        Ok(())
    }

    /// Parses `text` in place of the document at `relative` and indexes again.
    fn replace(&mut self, relative: &Path, text: String) -> Option<(FileId, Page)> {
        let id_before = self.note_id(relative);
        let file = TextFile::new(relative, text);
        let (file, page) = crate::serve::rebuild::replace_document(&mut self.index, file)?;
        let same_ids = id_before.is_some() && id_before == self.note_id(relative);
        let placeholder = empty_index(&self.index);
        let index = std::mem::replace(&mut self.index, placeholder);
        let (parsed, resolved) = index.into_parts();
        self.index = match same_ids {
            true => crate::index::reindex_same_ids(parsed, resolved, &[page]),
            false => crate::index::reindex(parsed, resolved, &[page]),
        };
        Some((file, page))
    }

    /// The id of the research note at `relative`, if it is one.
    fn note_id(&self, relative: &Path) -> Option<String> {
        let file = self.file_id(relative)?;
        let note = (self.index.content.notes.iter()).find(|n| n.doc.file == file)?;
        Some(crate::model::doc_id(&note.id, &note.doc).to_string())
    }

    /// Loads the site from disk again, lays the open documents over it, and lints it all.
    fn reload_all(&mut self) -> Result<()> {
        self.reload = false;
        self.dirty.clear();
        self.index = crate::open(&self.root)?;
        let open: Vec<(PathBuf, String)> = (self.open.iter())
            .filter(|(path, _)| self.file_id(path).is_some())
            .map(|(path, text)| (path.clone(), text.clone()))
            .collect();
        for (relative, text) in open {
            let on_disk = &self.index.files[self.file_id(&relative).unwrap_or(0)].text;
            if *on_disk != text {
                self.replace(&relative, text);
            }
        }
        let outside: Vec<PathBuf> = (self.open.keys())
            .filter(|path| self.file_id(path).is_none())
            .cloned()
            .collect();
        self.outside.extend(outside);
        self.findings = crate::lint::lint(&self.index, self.today)?;
        Ok(())
    }
}

/// Whether `relative` names a Markdown file under `content/`.
fn is_content(relative: &Path) -> bool {
    relative.starts_with(crate::load::CONTENT_DIR)
        && relative.extension().is_some_and(|e| e == "md")
}

/// A site with `index`'s settings and nothing in it, held for the moment the index is taken
/// apart and made again.
fn empty_index(index: &SiteIndex) -> SiteIndex {
    crate::index::index(crate::parse::ParsedSite {
        root: index.root.clone(),
        config: index.config.clone(),
        files: Vec::new(),
        content: Default::default(),
        unreadable: Vec::new(),
        assets: Default::default(),
    })
}
