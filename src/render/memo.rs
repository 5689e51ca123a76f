//! What one render keeps for the next: each page's output with a fingerprint of its inputs,
//! so `fieldnotes serve` re-renders only the pages an edit changed (see
//! [`super::render_with`]).

use crate::index::routes::Page;
use crate::write::Shared;
use std::collections::HashMap;
use std::sync::Arc;

/// A hash of everything an output is made from, so that an unchanged one can be reused.
/// `None` renders it anew.
pub trait Fingerprint: Sync {
    /// The inputs of `page` (its document, the pages it links to and lists, the settings).
    fn page(&self, page: Page) -> Option<u64>;
    /// The inputs of the files beside the pages: `404.html`, `llms.txt`, feeds, sitemap,
    /// `robots.txt`, the data API.
    fn files(&self) -> Option<u64>;
    /// The inputs of note `note`'s record in `api/notes.json` (its front matter, the ids
    /// of capabilities, the settings).
    fn note_record(&self, _note: usize) -> Option<u64> {
        None
    }
}

/// What a render made, kept for the next one: the theme, and each output with the
/// fingerprint of its inputs.
#[derive(Default)]
pub struct Memo {
    pub(super) theme: Option<Arc<super::theme::Theme>>,
    /// Each page's fingerprint, output stem (`research/x`), HTML and Markdown. A page is
    /// known by its position in the index, which a reload may give to another document: its
    /// fingerprint covers its file (path included), so it is then rendered anew.
    pub(super) pages: HashMap<Page, MemoPage>,
    /// The files beside the pages, with their shared fingerprint.
    pub(super) files: Option<(u64, SharedFiles)>,
    /// Each note's record in `api/notes.json`, by note.
    pub(super) note_records: Vec<super::api::NoteRecord>,
}

/// A page as an earlier render made it.
pub(super) struct MemoPage {
    pub(super) key: u64,
    pub(super) stem: String,
    pub(super) html: Shared,
    pub(super) md: Shared,
}

/// Files by output path, their bytes shared.
pub(super) type SharedFiles = Vec<(String, Shared)>;

impl Memo {
    /// Forgets the compiled theme, so the next render reads templates and static files
    /// again (after one of them changed).
    pub fn forget_theme(&mut self) {
        self.theme = None;
    }
}
