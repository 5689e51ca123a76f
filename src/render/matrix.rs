//! The support matrix as pages show it: capability groups × clients, each cell linked to its
//! evidence, per-client tallies. The home page shows every capability; a spec revision's
//! page shows those the revision has.

use super::support::{row_anchor, support_row, SupportRow};
use super::views::{status, Ctx, LinkView, StatusView, TallyView};
use crate::index::routes::Page;
use crate::model::{doc_id, text};
use serde::Serialize;
use std::borrow::Cow;

/// A matrix: columns of clients, bands of capability rows.
#[derive(Debug, Serialize)]
pub struct MatrixView<'a> {
    /// Columns, in `index.matrix` order, with their tallies over this matrix's rows.
    pub clients: Vec<ClientColumn<'a>>,
    /// Bands of rows, in `site.yaml` group order; groups without capabilities left out.
    pub groups: Vec<MatrixBand<'a>>,
    pub capability_count: usize,
    /// Clients plus the row header column (a band header's `colspan`).
    pub columns: usize,
}

/// A client column header with its tallies.
#[derive(Debug, Serialize)]
pub struct ClientColumn<'a> {
    pub id: &'a str,
    pub link: LinkView<'a>,
    pub tally: TallyView,
    /// How much of this matrix's rows is researched, for the coverage bar under the name.
    pub coverage: Coverage,
}

/// A client's coverage bar: the share of its cells that say yes, partial and no (the rest
/// is unknown), as CSS widths, and the same in words.
#[derive(Debug, Serialize)]
pub struct Coverage {
    pub yes: String,
    pub partial: String,
    pub no: String,
    /// Cells that are not unknown.
    pub known: usize,
    /// "8 of 30 researched: 5 yes, 2 partial, 1 no".
    pub label: String,
}

impl Coverage {
    pub fn new(tally: &TallyView, total: usize) -> Coverage {
        let share = |n: usize| match total {
            0 => "0%".to_string(),
            _ => format!("{:.1}%", n as f64 * 100.0 / total as f64),
        };
        let known = tally.yes + tally.partial + tally.no;
        Coverage {
            yes: share(tally.yes),
            partial: share(tally.partial),
            no: share(tally.no),
            known,
            label: format!(
                "{known} of {total} researched: {} yes, {} partial, {} no",
                tally.yes, tally.partial, tally.no
            ),
        }
    }
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
    /// The spec revisions that have the capability, space-separated (for the revision
    /// filter): from `introduced` (else the first) up to before `removed`.
    pub revisions: String,
    /// What the capability filter matches, lowercased: its title, id and aliases.
    pub search: String,
    pub cells: Vec<MatrixCell<'a>>,
}

/// One cell: a status, linked to its evidence.
#[derive(Debug, Serialize)]
pub struct MatrixCell<'a> {
    pub status: StatusView,
    pub client: Cow<'a, str>,
    pub client_id: &'a str,
    pub version: Option<&'a str>,
    /// Where the cell links: its detail panel on the home page when the client's map names
    /// the capability, else the capability's row on the client page (which says unknown).
    pub href: String,
    /// The id of the cell's detail panel (`cell-<client>--<capability>`), when it has one.
    pub panel: Option<String>,
    /// The cell with its evidence, for the panel.
    pub detail: Option<SupportRow<'a>>,
    /// How the cell was checked (`observed`, `source`, `docs`, `none`): the evidence filter's
    /// value.
    pub evidence: &'static str,
}

/// The matrix of the capabilities `include` keeps.
pub fn matrix_view<'a>(ctx: &Ctx<'a>, include: impl Fn(usize) -> bool) -> MatrixView<'a> {
    let groups: Vec<MatrixBand<'a>> = ctx
        .groups()
        .filter_map(|(group, capabilities)| {
            let rows: Vec<MatrixRow<'a>> = capabilities
                .iter()
                .filter(|&&cap| include(cap))
                .map(|&cap| row(ctx, cap))
                .collect();
            (!rows.is_empty()).then_some(MatrixBand {
                id: &group.id,
                title: &group.title,
                description: group.description.as_deref(),
                rows,
            })
        })
        .collect();
    let capability_count = groups.iter().map(|g| g.rows.len()).sum();
    let clients: Vec<ClientColumn<'a>> = ctx
        .matrix()
        .clients
        .iter()
        .enumerate()
        .map(|(column, &c)| {
            let mut tally = TallyView::default();
            for cell in groups
                .iter()
                .flat_map(|g| &g.rows)
                .map(|r| &r.cells[column])
            {
                tally.add(cell.status.value);
            }
            let client = ctx.client(c);
            ClientColumn {
                id: doc_id(&client.id, &client.doc),
                link: ctx.link(Page::Client(c)),
                coverage: Coverage::new(&tally, capability_count),
                tally,
            }
        })
        .collect();
    MatrixView {
        capability_count,
        columns: clients.len() + 1,
        clients,
        groups,
    }
}

/// The id of a cell's detail panel on the home page.
fn panel_id(client: &str, capability: &str) -> String {
    format!("cell-{client}--{capability}")
}

fn row<'a>(ctx: &Ctx<'a>, cap: usize) -> MatrixRow<'a> {
    let capability = ctx.capability(cap);
    let id = doc_id(&capability.id, &capability.doc);
    let home = ctx.href(Page::Home);
    MatrixRow {
        id,
        capability: ctx.link(Page::Capability(cap)),
        deprecated: Some(text(&capability.deprecated)).filter(|d| !d.is_empty()),
        revisions: revisions(ctx, cap).join(" "),
        search: search_text(ctx, cap),
        cells: ctx
            .matrix()
            .clients
            .iter()
            .map(|&client| {
                let c = ctx.client(client);
                let client_id = doc_id(&c.id, &c.doc);
                let cell = ctx.cell(client, cap);
                let panel = cell.map(|_| panel_id(client_id, id));
                MatrixCell {
                    status: status(ctx.status(client, cap)),
                    client: ctx.title(Page::Client(client)),
                    client_id,
                    version: cell.map(|c| text(&c.version)).filter(|v| !v.is_empty()),
                    href: match &panel {
                        Some(panel) => format!("{home}#{panel}"),
                        None => format!("{}#{}", ctx.href(Page::Client(client)), row_anchor(id)),
                    },
                    panel,
                    evidence: ctx.evidence(client, cap).method.as_str(),
                    detail: cell.map(|_| support_row(ctx, client, cap)),
                }
            })
            .collect(),
    }
}

/// What the capability filter matches for `cap`: its title, id and aliases, lowercased.
fn search_text(ctx: &Ctx<'_>, cap: usize) -> String {
    let capability = ctx.capability(cap);
    let id = doc_id(&capability.id, &capability.doc);
    let aliases = capability.aliases.iter().map(|a| a.value.as_str());
    let words: Vec<&str> = [text(&capability.title), id]
        .into_iter()
        .chain(aliases)
        .collect();
    words.join(" ").to_lowercase()
}

/// The spec revisions that have capability `cap`, oldest first.
pub fn revisions<'a>(ctx: &Ctx<'a>, cap: usize) -> Vec<&'a str> {
    let config = ctx.config();
    let capability = ctx.capability(cap);
    let from = config
        .spec_version_rank(text(&capability.introduced))
        .unwrap_or(0);
    let to = config
        .spec_version_rank(text(&capability.removed))
        .unwrap_or(config.spec_versions.len());
    config
        .spec_versions
        .get(from..to.max(from))
        .unwrap_or_default()
        .iter()
        .map(|v| v.id.as_str())
        .collect()
}
