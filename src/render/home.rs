//! The home page: the support matrix with its filters and the detail panel of each cell.

use super::filters::{evidence_options, platform_options, EvidenceOption, PlatformOption};
use super::matrix::{matrix_view, MatrixView};
use super::state::current;
use super::views::{status, Ctx, StatusView};
use crate::model::SUPPORT_STATUSES;
use crate::text_file::Section;
use serde::Serialize;

/// The home page.
#[derive(Debug, Serialize)]
pub struct HomeView<'a> {
    pub matrix: MatrixView<'a>,
    pub note_count: usize,
    /// Every status, for the key above the matrix and the status filter.
    pub legend: Vec<StatusView>,
    /// Spec revisions, newest first, for the revision selector (the matrix shows each
    /// capability's state at the one selected, the current one by default).
    pub revisions: Vec<Revision<'a>>,
    /// How a claim can have been checked, for the evidence filter.
    pub evidence_methods: Vec<EvidenceOption>,
    /// The platforms of the matrix's clients, for the platform filter.
    pub platforms: Vec<PlatformOption<'a>>,
    /// The clients left out of the matrix because only their vendors' self-reports speak
    /// for them: they are on the clients page.
    pub self_reported_only: usize,
    /// The clients page, where every client is.
    pub clients_url: String,
}

/// A spec revision in the revision filter.
#[derive(Debug, Serialize)]
pub struct Revision<'a> {
    pub id: &'a str,
    pub title: Option<&'a str>,
    pub url: String,
    /// `draft`, `upcoming`, `current` or `superseded`: only the released `current` one is
    /// labelled so.
    pub status: &'static str,
}

pub fn home_view<'a>(ctx: &Ctx<'a>) -> HomeView<'a> {
    let mut matrix = matrix_view(ctx, current(ctx.config()), |_| true);
    let self_reported_only = matrix.leave_out_self_reported();
    HomeView {
        self_reported_only,
        clients_url: ctx.href(crate::index::routes::Page::Index(Section::Clients)),
        note_count: ctx.count(Section::Research),
        legend: SUPPORT_STATUSES.into_iter().map(status).collect(),
        evidence_methods: evidence_options(),
        platforms: platform_options(ctx, matrix.clients.iter().map(|c| c.index)),
        revisions: ctx
            .config()
            .spec_versions
            .iter()
            .enumerate()
            .rev()
            .map(|(i, v)| Revision {
                id: &v.id,
                title: v.title.as_deref(),
                url: ctx.href(crate::index::routes::Page::Spec(i)),
                status: ctx.config().revision_status(v).as_str(),
            })
            .collect(),
        matrix,
    }
}
