//! The support matrix as pages show it: capability groups × clients, each cell linked to its
//! evidence, per-client tallies. The home page shows every capability; a spec revision's
//! page shows those the revision has. Each row carries its state at the matrix's revision (the
//! newest on the home page): deprecated rows are tagged, removed ones set apart in a band of
//! their own that the tallies leave out.

use super::state::{state_at, State};
use super::support::row_anchor;
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
    /// The rows removed at or before [`MatrixView::at`], in group order: shown after the
    /// bands, apart from them, and left out of the tallies.
    pub removed: Vec<MatrixRow<'a>>,
    /// The revision whose state the rows show.
    pub at: Option<&'a str>,
    /// The rows of `groups` (what the tallies count).
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
    /// Known cells that rest on more than a self-report (observed, source, docs).
    pub researched: usize,
    /// The strongest evidence any of its cells has: `researched` (some cell rests on more
    /// than a self-report), `reported` (only self-reports) or `none`; a filter's value.
    pub strength: &'static str,
    /// Its platforms, space-separated (`cli desktop`), or `none`: the platform filter's value.
    pub platforms: String,
    /// Its position among the site's clients.
    #[serde(skip)]
    pub index: usize,
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
    /// The capability's group id (the group filter reads it, also in the removed band).
    pub group: &'a str,
    /// The capability's state at the matrix's revision.
    pub state: State,
    pub deprecated: Option<&'a str>,
    pub removed: Option<&'a str>,
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
    /// Where the cell links: the capability's row on the client page, which holds the cell's
    /// evidence (or says unknown). The home page's script opens the cell's panel instead,
    /// loading that row on demand.
    pub href: String,
    /// How the cell was checked (`observed`, `source`, `docs`, `none`): the evidence filter's
    /// value, and the mark on the cell.
    pub evidence: &'static str,
    /// The same in words ("read in source"), for the cell's tooltip.
    pub evidence_label: &'static str,
    /// Why an unknown cell is unknown, for its tooltip.
    pub reason: Option<super::support::ReasonView<'a>>,
}

/// The matrix of the capabilities `include` keeps, each in its state at the revision of rank
/// `at`.
pub fn matrix_view<'a>(
    ctx: &Ctx<'a>,
    at: Option<usize>,
    include: impl Fn(usize) -> bool,
) -> MatrixView<'a> {
    let mut removed = Vec::new();
    let groups: Vec<MatrixBand<'a>> = ctx
        .groups()
        .filter_map(|(group, capabilities)| {
            let (gone, rows): (Vec<MatrixRow<'a>>, Vec<MatrixRow<'a>>) = capabilities
                .iter()
                .filter(|&&cap| include(cap))
                .map(|&cap| row(ctx, cap, &group.id, at))
                .partition(|row| row.state == State::Removed);
            let any = !(rows.is_empty() && gone.is_empty());
            removed.extend(gone);
            // A band whose rows are all removed stays (empty, hidden), so the page's script
            // has a place to move them back to when an older revision is selected.
            any.then_some(MatrixBand {
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
            let (mut researched, mut reported) = (0, 0);
            for cell in groups
                .iter()
                .flat_map(|g| &g.rows)
                .map(|r| &r.cells[column])
            {
                tally.add(cell.status.value);
                match cell.evidence {
                    "reported" => reported += 1,
                    _ if cell.status.value != "unknown" => researched += 1,
                    _ => {}
                }
            }
            let client = ctx.client(c);
            ClientColumn {
                id: doc_id(&client.id, &client.doc),
                link: ctx.link(Page::Client(c)),
                coverage: Coverage::new(&tally, capability_count),
                tally,
                researched,
                strength: match (researched, reported) {
                    (0, 0) => "none",
                    (0, _) => "reported",
                    _ => "researched",
                },
                platforms: super::filters::client_platforms(ctx, c),
                index: c,
            }
        })
        .collect();
    let (clients, groups, removed) = lead_with_the_known(clients, groups, removed);
    MatrixView {
        capability_count,
        columns: clients.len() + 1,
        clients,
        groups,
        removed,
        at: at
            .and_then(|rank| ctx.config().spec_versions.get(rank))
            .map(|v| v.id.as_str()),
    }
}

impl MatrixView<'_> {
    /// Leaves out the clients whose only evidence is their vendors' self-reports, with their
    /// cells; returns how many it left out. The home matrix answers from research
    /// first, and stays small however many clients a shared list names.
    pub fn leave_out_self_reported(&mut self) -> usize {
        let keep: Vec<bool> = (self.clients.iter())
            .map(|c| c.strength != "reported")
            .collect();
        let before = self.clients.len();
        let mut column = 0;
        self.clients.retain(|_| {
            column += 1;
            keep[column - 1]
        });
        let rows = (self.groups.iter_mut())
            .flat_map(|g| g.rows.iter_mut())
            .chain(self.removed.iter_mut());
        for row in rows {
            let mut column = 0;
            row.cells.retain(|_| {
                column += 1;
                keep[column - 1]
            });
        }
        self.columns = self.clients.len() + 1;
        // The groups with the most researched cells still lead, over the columns kept.
        let known = |band: &MatrixBand<'_>| {
            (band.rows.iter().flat_map(|r| &r.cells))
                .filter(|c| c.status.value != "unknown")
                .count()
        };
        self.groups
            .sort_by_key(|band| std::cmp::Reverse(known(band)));
        before - self.clients.len()
    }
}

fn row<'a>(ctx: &Ctx<'a>, cap: usize, group: &'a str, at: Option<usize>) -> MatrixRow<'a> {
    let capability = ctx.capability(cap);
    let id = doc_id(&capability.id, &capability.doc);
    let field =
        |f: &'a Option<crate::model::Spanned<String>>| Some(text(f)).filter(|d| !d.is_empty());
    MatrixRow {
        id,
        capability: ctx.link(Page::Capability(cap)),
        group,
        state: state_at(ctx.config(), capability, at),
        deprecated: field(&capability.deprecated),
        removed: field(&capability.removed),
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
                MatrixCell {
                    status: status(ctx.status(client, cap)),
                    client: ctx.title(Page::Client(client)),
                    client_id,
                    version: cell.map(|c| text(&c.version)).filter(|v| !v.is_empty()),
                    href: format!("{}#{}", ctx.href(Page::Client(client)), row_anchor(id)),
                    evidence_label: ctx.evidence(client, cap).method.label(),
                    evidence: ctx.evidence(client, cap).method.as_str(),
                    reason: (ctx.reason(client, cap)).map(|r| super::support::reason_view(ctx, r)),
                }
            })
            .collect(),
    }
}

/// The matrix in the order that answers first: the clients with the most researched cells to
/// the left (ties keep the index's order, by title), and the capability groups with the most
/// researched cells first (ties keep `site.yaml`'s order). What readers ask about is what gets
/// researched, so the known leads and the blank trails.
fn lead_with_the_known<'a>(
    clients: Vec<ClientColumn<'a>>,
    mut groups: Vec<MatrixBand<'a>>,
    mut removed: Vec<MatrixRow<'a>>,
) -> (
    Vec<ClientColumn<'a>>,
    Vec<MatrixBand<'a>>,
    Vec<MatrixRow<'a>>,
) {
    let mut order: Vec<usize> = (0..clients.len()).collect();
    // Research before self-reports: a client with one observed cell leads one with ten
    // cells its vendor reported.
    order.sort_by_key(|&i| {
        let c = &clients[i];
        std::cmp::Reverse((c.researched, c.coverage.known))
    });
    let mut slots: Vec<Option<ClientColumn<'a>>> = clients.into_iter().map(Some).collect();
    let clients = order.iter().filter_map(|&i| slots[i].take()).collect();
    let reorder = |row: &mut MatrixRow<'a>| {
        let mut cells: Vec<Option<MatrixCell<'a>>> = row.cells.drain(..).map(Some).collect();
        row.cells = order.iter().filter_map(|&i| cells[i].take()).collect();
    };
    groups
        .iter_mut()
        .flat_map(|g| &mut g.rows)
        .for_each(reorder);
    removed.iter_mut().for_each(reorder);
    let known = |band: &MatrixBand<'_>| {
        (band.rows.iter().flat_map(|r| &r.cells))
            .filter(|c| c.status.value != "unknown")
            .count()
    };
    groups.sort_by_key(|band| std::cmp::Reverse(known(band)));
    (clients, groups, removed)
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
