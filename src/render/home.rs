//! The home page: the support matrix, capability groups × clients.

use super::support::row_anchor;
use super::views::{status, tally, Ctx, LinkView, StatusView, TallyView};
use crate::index::doc_id;
use crate::index::routes::Page;
use crate::model::{text, SUPPORT_STATUSES};
use serde::Serialize;
use std::borrow::Cow;

/// The home page.
#[derive(Debug, Serialize)]
pub struct HomeView<'a> {
    /// Matrix columns, in `index.matrix` order.
    pub clients: Vec<ClientColumn<'a>>,
    /// Bands of rows, in `site.yaml` group order; groups without capabilities left out.
    pub groups: Vec<MatrixBand<'a>>,
    pub capability_count: usize,
    /// Clients plus the row header column (a band header's `colspan`).
    pub columns: usize,
    pub note_count: usize,
    /// Every status, for the key above the matrix.
    pub legend: Vec<StatusView>,
    /// The day ages are counted to, and why that day (see [`super::reference_day`]).
    pub ages_to: Option<String>,
    pub ages_from_epoch: bool,
}

/// A client column header with its tallies.
#[derive(Debug, Serialize)]
pub struct ClientColumn<'a> {
    pub id: &'a str,
    pub link: LinkView<'a>,
    pub tally: TallyView,
}

/// One capability group of the matrix.
#[derive(Debug, Serialize)]
pub struct MatrixBand<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub description: Option<&'a str>,
    pub rows: Vec<MatrixRow<'a>>,
}

/// One capability: a row of cells, one per client.
#[derive(Debug, Serialize)]
pub struct MatrixRow<'a> {
    pub id: &'a str,
    pub capability: LinkView<'a>,
    pub deprecated: Option<&'a str>,
    pub cells: Vec<MatrixCell<'a>>,
}

/// One cell: a status, linked to its evidence.
#[derive(Debug, Serialize)]
pub struct MatrixCell<'a> {
    pub status: StatusView,
    /// The capability's row on the client page, which lists the cell's notes, research
    /// and pinned sources (an unknown cell's row says so).
    pub href: String,
    pub client: Cow<'a, str>,
    pub version: Option<&'a str>,
}

pub fn home_view<'a>(ctx: &Ctx<'a>, ages_from_epoch: bool) -> HomeView<'a> {
    let index = ctx.index;
    let content = &index.content;
    let matrix = &index.matrix;
    let clients: Vec<ClientColumn<'a>> = matrix
        .clients
        .iter()
        .map(|&c| ClientColumn {
            id: doc_id(&content.clients[c].id, &content.clients[c].doc),
            link: ctx.link(Page::Client(c)),
            tally: tally(matrix.tallies.get(c)),
        })
        .collect();
    let groups: Vec<MatrixBand<'a>> = matrix
        .groups
        .iter()
        .filter(|g| !g.capabilities.is_empty())
        .map(|g| {
            let group = &index.config.capability_groups[g.group];
            MatrixBand {
                id: &group.id,
                title: &group.title,
                description: group.description.as_deref(),
                rows: g.capabilities.iter().map(|&cap| row(ctx, cap)).collect(),
            }
        })
        .collect();
    HomeView {
        capability_count: groups.iter().map(|g| g.rows.len()).sum(),
        columns: clients.len() + 1,
        clients,
        groups,
        note_count: content.notes.len(),
        legend: SUPPORT_STATUSES.into_iter().map(status).collect(),
        ages_to: ctx.today.map(|d| d.format("%Y-%m-%d").to_string()),
        ages_from_epoch,
    }
}

fn row<'a>(ctx: &Ctx<'a>, cap: usize) -> MatrixRow<'a> {
    let index = ctx.index;
    let content = &index.content;
    let capability = &content.capabilities[cap];
    let id = doc_id(&capability.id, &capability.doc);
    let anchor = row_anchor(id);
    MatrixRow {
        id,
        capability: ctx.link(Page::Capability(cap)),
        deprecated: Some(text(&capability.deprecated)).filter(|d| !d.is_empty()),
        cells: index
            .matrix
            .clients
            .iter()
            .map(|&client| MatrixCell {
                status: status(index.matrix.status(content, client, cap)),
                href: format!("{}#{anchor}", ctx.href(Page::Client(client))),
                client: ctx.title(Page::Client(client)),
                version: index
                    .matrix
                    .cell(content, client, cap)
                    .map(|c| text(&c.version))
                    .filter(|v| !v.is_empty()),
            })
            .collect(),
    }
}
