//! Self-reports (`content/lists/<id>.yaml`): what vendors said of their own clients in a shared
//! list, read at a pinned commit, each claim a support cell of method `reported`.

use super::{SourceRef, Spanned, SupportCell};
use crate::text_file::{FileId, Span};

/// One shared list of clients: where it is (a file at a commit of a repository), which
/// capability each of its features stands for, and what it reports of each client.
#[derive(Debug, Clone)]
pub struct ReportList {
    pub file: FileId,
    /// The file name without `.yaml`.
    pub id: String,
    pub title: Option<Spanned<String>>,
    /// The commit that removed the list's file upstream, when it was removed.
    pub removed_by: Option<Spanned<String>>,
    /// Each feature as the list names it, and the capability id it stands for.
    pub features: Vec<(Spanned<String>, Spanned<String>)>,
    /// What the file could not say: a YAML error, a missing field, a feature the `features`
    /// map lacks.
    pub problems: Vec<ListProblem>,
}

/// Something a list file gets wrong, where.
#[derive(Debug, Clone)]
pub struct ListProblem {
    pub span: Span,
    pub message: String,
    pub help: String,
}

/// One claim of a list: client `client` supports the capability its `feature` stands for.
#[derive(Debug, Clone)]
pub struct Report {
    /// The list's position in `content.lists`.
    pub list: usize,
    /// The site's client id, as the list file writes it.
    pub client: Spanned<String>,
    /// The client's name as the list writes it.
    pub name: Option<Spanned<String>>,
    /// The feature as the list names it (`Sampling (partial)` as `Sampling`).
    pub feature: Spanned<String>,
    /// The claim as a support cell: the capability the feature stands for, `yes` (or
    /// `partial`), and one source, the list's line at its commit.
    pub cell: SupportCell,
}

impl Report {
    /// The source the claim rests on: the list's line.
    pub fn source(&self) -> &SourceRef {
        &self.cell.sources[0]
    }
}
