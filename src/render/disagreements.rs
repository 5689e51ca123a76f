//! `/disagreements`: every cell where a vendor's self-report in a shared list says its client
//! supports a capability and stronger evidence (observed, read in source, from the docs) says
//! it does not, with both pieces of evidence side by side.

use super::citations::{source_view, SourceView};
use super::evidence::{evidence_view, EvidenceView};
use super::support::row_anchor;
use super::views::{Ctx, LinkView};
use crate::index::routes::Page;
use crate::model::{doc_id, text};
use serde::Serialize;

/// The page's route.
pub const ROUTE: &str = "/disagreements";

/// The disagreement page.
#[derive(Debug, Serialize)]
pub struct DisagreementsView<'a> {
    pub rows: Vec<Disagreement<'a>>,
    /// How many cells some list reports, and how many of them rest on the report alone.
    pub reported: usize,
    pub reported_only: usize,
}

/// One cell on which a self-report and stronger evidence disagree.
#[derive(Debug, Serialize)]
pub struct Disagreement<'a> {
    pub client: LinkView<'a>,
    pub capability: LinkView<'a>,
    pub capability_id: &'a str,
    /// The cell's row on the client's page.
    pub href: String,
    /// What the stronger evidence says (`no`).
    pub status: &'static str,
    pub notes: Option<&'a str>,
    /// How the cell was checked, the self-reports beside it among it.
    pub evidence: EvidenceView<'a>,
    pub observations: Vec<LinkView<'a>>,
    pub sources: Vec<SourceView<'a>>,
}

/// Every disagreement, by client then capability (content order).
pub fn disagreements_view<'a>(ctx: &Ctx<'a>) -> DisagreementsView<'a> {
    let pairs = &ctx.matrix().reported;
    let mut rows = Vec::new();
    let mut reported_only = 0;
    for &(client, cap) in pairs {
        let (evidence, observations) = evidence_view(ctx, client, cap);
        if evidence.method == "reported" {
            reported_only += 1;
        }
        if !evidence.disagrees {
            continue;
        }
        let capability = ctx.capability(cap);
        let capability_id = doc_id(&capability.id, &capability.doc);
        let cell = ctx.cell(client, cap);
        rows.push(Disagreement {
            client: ctx.link(Page::Client(client)),
            capability: ctx.link(Page::Capability(cap)),
            capability_id,
            href: format!(
                "{}#{}",
                ctx.href(Page::Client(client)),
                row_anchor(capability_id)
            ),
            status: ctx.status(client, cap),
            notes: cell.map(|c| text(&c.notes)).filter(|n| !n.is_empty()),
            evidence,
            observations,
            sources: cell.map_or_else(Vec::new, |c| c.sources.iter().map(source_view).collect()),
        });
    }
    DisagreementsView {
        rows,
        reported: pairs.len(),
        reported_only,
    }
}
