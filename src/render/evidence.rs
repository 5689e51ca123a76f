//! What support cells and client pages show of how a claim was checked: each cell's evidence
//! method (observed, read in source, from the docs, none) with the observations it cites, and
//! a client's observations with the versions seen. A version and a transport are what a client
//! sent: outside text, made inert by [`visible_controls`].

use super::escape::visible_controls;
use super::views::{Ctx, DateView, LinkView};
use crate::index::evidence::{Evidence, Method};
use crate::index::routes::Page;
use crate::model::{text, Observation, Spanned};
use serde::Serialize;
use std::borrow::Cow;

/// How a cell was checked, as its row and panel show it.
#[derive(Debug, Serialize)]
pub struct EvidenceView<'a> {
    /// `observed`, `source`, `docs` or `none` (also the matrix filter's value).
    pub method: &'static str,
    /// "observed", "read in source", "from the docs", "no evidence".
    pub label: &'static str,
    pub version: Option<String>,
    pub observed: Option<String>,
    /// The newest observation cited, when observed.
    pub observation: Option<LinkView<'a>>,
    pub commit: Option<String>,
}

/// An observation in a client page's list.
#[derive(Debug, Serialize)]
pub struct ObservationItem<'a> {
    pub link: LinkView<'a>,
    pub version: Option<Cow<'a, str>>,
    pub observed: Option<DateView<'a>>,
    pub transport: Option<Cow<'a, str>>,
    /// How many results the session showed (not `unknown`).
    pub shown: usize,
}

fn some(value: &Option<Spanned<String>>) -> Option<&str> {
    Some(text(value)).filter(|v| !v.is_empty())
}

/// Observation `o` in brief.
pub fn observation_item<'a>(ctx: &Ctx<'a>, o: usize) -> ObservationItem<'a> {
    let observation: &'a Observation = ctx.observation(o);
    ObservationItem {
        link: ctx.link(Page::Observation(o)),
        version: (observation.client_version())
            .filter(|v| !v.is_empty())
            .map(visible_controls),
        observed: ctx.maybe_date(&observation.observed),
        transport: some(&observation.transport).map(visible_controls),
        shown: (observation.results.iter())
            .filter(|r| matches!(text(&r.status), "yes" | "partial" | "no"))
            .count(),
    }
}

/// Client `client`'s observations, newest version first, and the versions seen (in that
/// order, each once).
pub fn client_observations<'a>(
    ctx: &Ctx<'a>,
    client: usize,
) -> (Vec<ObservationItem<'a>>, Vec<Cow<'a, str>>) {
    let list = (ctx.observations().by_client.get(client)).map_or(&[][..], Vec::as_slice);
    let items: Vec<ObservationItem<'a>> = list.iter().map(|&o| observation_item(ctx, o)).collect();
    let mut seen = std::collections::HashSet::new();
    let versions: Vec<Cow<'a, str>> = (items.iter())
        .filter_map(|i| i.version.clone())
        .filter(|v| seen.insert(v.clone()))
        .collect();
    (items, versions)
}

/// How the cell of `client` for `capability` was checked, and the observations it cites.
pub fn evidence_view<'a>(
    ctx: &Ctx<'a>,
    client: usize,
    capability: usize,
) -> (EvidenceView<'a>, Vec<LinkView<'a>>) {
    let Evidence {
        method,
        version,
        observed,
        observation,
        commit,
    } = ctx.evidence(client, capability);
    let cited = ctx.cell(client, capability).map_or_else(Vec::new, |cell| {
        (cell.observations.iter())
            .filter_map(|o| ctx.find_observation(&o.value))
            .map(|o| ctx.link(Page::Observation(o)))
            .collect()
    });
    let view = EvidenceView {
        method: method.as_str(),
        label: method.label(),
        version: version.map(|v| visible_controls(&v).into_owned()),
        observed,
        observation: observation
            .and_then(|id| ctx.find_observation(&id))
            .map(|o| ctx.link(Page::Observation(o))),
        commit: commit
            .filter(|_| method == Method::Source)
            .map(|c| c.chars().take(12).collect()),
    };
    (view, cited)
}
