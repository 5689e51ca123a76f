//! What support cells and client pages show of how a claim was checked: each cell's evidence
//! method (observed, read in source, from the docs, self-reported, none) with the observations
//! it cites and the self-reports beside it (and whether they disagree with it), and
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
    /// The package whose version `version` is, when observed and the observation names it.
    pub package: Option<String>,
    pub observed: Option<String>,
    /// The newest observation cited, when observed.
    pub observation: Option<LinkView<'a>>,
    pub commit: Option<String>,
    /// What shared lists report of the cell: its only evidence when `method` is `reported`,
    /// else named beside the stronger evidence.
    pub reported: Vec<ReportedView<'a>>,
    /// A list reports support where stronger evidence (observed, source, docs) says `no`.
    pub disagrees: bool,
}

/// One vendor's self-report of a cell, as a cell names it.
#[derive(Debug, Serialize)]
pub struct ReportedView<'a> {
    /// The list's title (its id when it has none).
    pub list: &'a str,
    /// The client's name as the list writes it.
    pub name: Option<Cow<'a, str>>,
    /// The feature as the list names it.
    pub feature: Cow<'a, str>,
    /// `yes`, or `partial` when the list says so.
    pub status: &'a str,
    /// The list's line at its pinned commit, when a page may link to it.
    pub href: Option<String>,
    pub short_commit: Option<&'a str>,
}

/// Whether a cell of `method` and `status`, reported as supported by a list, disagrees
/// with it: stronger evidence says `no`.
pub fn disagrees(method: Method, status: &str) -> bool {
    matches!(method, Method::Observed | Method::Source | Method::Docs) && status == "no"
}

/// The self-reports of `client` for `capability`.
pub fn reported_views<'a>(
    ctx: &Ctx<'a>,
    client: usize,
    capability: usize,
) -> Vec<ReportedView<'a>> {
    (ctx.reports(client, capability).into_iter())
        .map(|report| {
            let list = ctx.list(report.list);
            let source = super::citations::source_view(report.source());
            ReportedView {
                list: match text(&list.title) {
                    "" => list.id.as_str(),
                    title => title,
                },
                name: some(&report.name).map(visible_controls),
                feature: visible_controls(&report.feature.value),
                status: text(&report.cell.status),
                href: (source.ranges.into_iter().next())
                    .map(|r| r.href)
                    .or(source.href),
                short_commit: source.short_commit,
            }
        })
        .collect()
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
        package,
        observed,
        observation,
        commit,
        reported: _,
    } = ctx.evidence(client, capability);
    let reported = reported_views(ctx, client, capability);
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
        package: package.map(|p| visible_controls(&p).into_owned()),
        observed,
        observation: observation
            .and_then(|id| ctx.find_observation(&id))
            .map(|o| ctx.link(Page::Observation(o))),
        commit: commit
            .filter(|_| method == Method::Source)
            .map(|c| c.chars().take(12).collect()),
        disagrees: !reported.is_empty() && disagrees(method, ctx.status(client, capability)),
        reported,
    };
    (view, cited)
}
