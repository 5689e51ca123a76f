//! What one render keeps for the next: each output with the inputs it read and their
//! fingerprint, so a render with a memo (`fieldnotes serve`) makes again only the outputs
//! whose inputs changed (see [`super::render_with`]).

use super::ctx::Ctx;
use super::inputs::{fingerprint, Inputs, Reads};
use crate::index::routes::Page;
use crate::render::output::Shared;
use std::collections::HashMap;
use std::sync::Arc;

/// Which maker made a group of files: what a memo keeps them by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum FileKey {
    NotFound,
    /// The search page (`/search`).
    Search,
    /// The page of self-reports that disagree with the evidence (`/disagreements`).
    Disagreements,
    Llms,
    /// The feed of the home page (the whole site), a client or a capability.
    Feed(Page),
    /// `sitemap.xml` and `robots.txt`.
    Sitemap,
    Notes,
    Clients,
    Matrix,
    /// `api/matrix.csv`.
    MatrixCsv,
    /// Every badge under `badges/`.
    Badges,
    Schemas,
}

/// What [`super::render_with`] reuses and updates: the one way a render takes an earlier
/// one into account. Without it (`build`), every output is made and nothing is recorded.
pub struct Incremental<'m> {
    /// What the previous render made.
    pub memo: &'m mut Memo,
    /// What each input is now.
    pub inputs: &'m dyn Inputs,
    /// Write the previous version of every changed page that lists or tallies notes (home,
    /// indexes, client, capability and spec pages) and of the files beside the pages,
    /// instead of rendering them, and name them in [`super::RenderStats::deferred`].
    /// `fieldnotes serve` publishes the edited notes this way first, then the listings.
    pub defer_listings: bool,
}

impl<'m> Incremental<'m> {
    /// The memo, and how the render reuses what it holds.
    pub(super) fn split(self) -> (&'m mut Memo, Reuse<'m>) {
        let reuse = Reuse {
            inputs: self.inputs,
            defer: self.defer_listings,
        };
        (self.memo, reuse)
    }
}

/// What a render made, kept for the next one: the theme, and each output with the inputs it
/// read.
#[derive(Default)]
pub struct Memo {
    pub(super) theme: Option<Arc<super::theme::Theme>>,
    /// Each page's output stem (`research/x`), HTML and Markdown. A page is known by its
    /// position in the index, which a reload may give to another document: a page made from a
    /// document reads it, so it is then rendered anew.
    pub(super) pages: HashMap<Page, Kept<PageFiles>>,
    /// The files beside the pages, by the maker that made them.
    pub(super) files: HashMap<FileKey, Kept<SharedFiles>>,
    /// Each note's record in `api/notes.json`, by note.
    pub(super) note_records: Vec<Kept<Shared>>,
}

/// An output as an earlier render made it, with the inputs it read and their fingerprint then.
#[derive(Clone)]
pub(super) struct Kept<T> {
    key: u64,
    reads: Reads,
    pub(super) made: T,
}

impl<T> Kept<T> {
    /// `made`, from `reads` as `inputs` are now (without inputs, a render without a memo,
    /// it is never compared).
    pub(super) fn new(made: T, reads: Reads, inputs: Option<&dyn Inputs>) -> Kept<T> {
        Kept {
            key: inputs.map_or(0, |inputs| fingerprint(&reads, inputs)),
            reads,
            made,
        }
    }

    /// Whether every input it read is as it was.
    pub(super) fn fresh(&self, inputs: &dyn Inputs) -> bool {
        fingerprint(&self.reads, inputs) == self.key
    }

    /// The inputs it read.
    pub(super) fn reads(&self) -> &Reads {
        &self.reads
    }
}

/// How a render with a memo treats an output it can take from the memo.
#[derive(Clone, Copy)]
pub(super) struct Reuse<'r> {
    pub(super) inputs: &'r dyn Inputs,
    /// See [`Incremental::defer_listings`].
    pub(super) defer: bool,
}

/// Where an output came from.
pub(super) enum Outcome<T> {
    /// Taken from the memo, every input it read unchanged.
    Reused(T),
    /// Taken from the memo although an input it read changed (see
    /// [`Incremental::defer_listings`]): the memo keeps it as it was, to be made later.
    Deferred(T),
    /// Made now, and kept for the next render when this one has a memo.
    Made(T, Option<Kept<T>>),
}

impl<T: Clone> Outcome<T> {
    /// `old` again when the inputs it read are unchanged, or although they changed when it is
    /// `deferrable` and the render defers; `None`: make it now (and always without a memo).
    pub(super) fn reuse(
        old: Option<&Kept<T>>,
        reuse: Option<Reuse<'_>>,
        deferrable: bool,
    ) -> Option<Outcome<T>> {
        let (old, reuse) = (old?, reuse?);
        match old.fresh(reuse.inputs) {
            true => Some(Outcome::Reused(old.made.clone())),
            false if reuse.defer && deferrable => Some(Outcome::Deferred(old.made.clone())),
            false => None,
        }
    }

    /// `made` now from what `ctx` read; kept with its reads when the render has a memo.
    pub(super) fn made(made: T, ctx: Ctx<'_>, reuse: Option<Reuse<'_>>) -> Outcome<T> {
        let kept = reuse.map(|reuse| Kept::new(made.clone(), ctx.reads(), Some(reuse.inputs)));
        Outcome::Made(made, kept)
    }

    /// The output itself.
    pub(super) fn output(&self) -> &T {
        match self {
            Outcome::Reused(output) | Outcome::Deferred(output) | Outcome::Made(output, _) => {
                output
            }
        }
    }
}

/// A page as HTML and Markdown, with the stem of its output files.
#[derive(Clone)]
pub(super) struct PageFiles {
    pub(super) stem: String,
    pub(super) html: Shared,
    pub(super) md: Shared,
}

/// Files by output path, their bytes shared.
pub(super) type SharedFiles = Vec<(String, Shared)>;

impl Memo {
    /// Forgets the compiled theme, so the next render reads templates and static files
    /// again (after one of them changed; the outputs made from it read [`Input::Theme`]).
    ///
    /// [`Input::Theme`]: super::Input::Theme
    pub fn forget_theme(&mut self) {
        self.theme = None;
    }
}
