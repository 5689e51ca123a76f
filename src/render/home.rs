//! The home page: the support matrix with its filters and the detail panel of each cell.

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
    /// capability's state at the one selected, the newest by default).
    pub revisions: Vec<Revision<'a>>,
}

/// A spec revision in the revision filter.
#[derive(Debug, Serialize)]
pub struct Revision<'a> {
    pub id: &'a str,
    pub title: Option<&'a str>,
    pub url: String,
}

pub fn home_view<'a>(ctx: &Ctx<'a>) -> HomeView<'a> {
    HomeView {
        matrix: matrix_view(ctx, current(ctx.config()), |_| true),
        note_count: ctx.count(Section::Research),
        legend: SUPPORT_STATUSES.into_iter().map(status).collect(),
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
            })
            .collect(),
    }
}
