//! Client and capability pages: profiles, and support cells with their evidence.

use super::body::BodyView;
use super::citations::{source_view_with, SourceView};
use super::evidence::{client_observations, evidence_view, EvidenceView, ObservationItem};
use super::page_evidence::{self, Citer, Citing, EvidenceItem, EvidenceRef};
use super::state::{current, state_at, State};
use super::views::{
    safe_href, status, tally, Ctx, DateView, LinkView, NoteCard, StatusView, TallyView,
};
use crate::index::routes::Page;
use crate::model::{doc_id, text, Spanned};
use crate::text_file::Section;
use serde::Serialize;

/// One support cell: a client × a capability, with its evidence.
#[derive(Debug, Serialize)]
pub struct SupportRow<'a> {
    /// The row's id on the client page (`support-transports.sse`); dotted, so no heading
    /// slug can take it.
    pub anchor: String,
    pub capability: LinkView<'a>,
    pub capability_id: &'a str,
    pub client: LinkView<'a>,
    /// The row on the client page: where a matrix cell links.
    pub evidence_url: String,
    pub status: StatusView,
    pub notes: &'a str,
    pub notes_html: String,
    pub research: Vec<LinkView<'a>>,
    pub sources: Vec<SourceView<'a>>,
    pub verified: Option<DateView<'a>>,
    pub version: Option<&'a str>,
    /// The capability's state at the newest revision.
    pub state: State,
    /// How the claim was checked, derived from what the cell cites.
    pub evidence: EvidenceView<'a>,
    /// The observations the cell cites.
    pub observations: Vec<LinkView<'a>>,
    /// Why an unknown cell is unknown.
    pub reason: Option<ReasonView<'a>>,
    /// The client's id (the row's anchor on a capability page is `client-<id>`).
    pub client_id: &'a str,
    /// The row's references into its page's evidence list ([`page_evidence::number`]).
    pub refs: Vec<EvidenceRef>,
    /// The observations and notes the cell cites, by index, for the page's evidence list.
    #[serde(skip)]
    pub cited_observations: Vec<usize>,
    #[serde(skip)]
    pub cited_notes: Vec<usize>,
}

impl<'a> SupportRow<'a> {
    /// What the row cites, for its page's evidence list.
    fn citing<'r>(&'r mut self, citer: Citer<'a>) -> Citing<'a, 'r> {
        Citing {
            refs: &mut self.refs,
            observations: &self.cited_observations,
            notes: &self.cited_notes,
            sources: &self.sources,
            citer,
        }
    }
}

/// Why a cell is unknown: an id of `site.yaml`'s `unknownReasons` and how pages say it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ReasonView<'a> {
    pub id: &'a str,
    pub title: &'a str,
}

/// The view of reason `id` (its id as the title when site.yaml does not list it).
pub(super) fn reason_view<'a>(ctx: &Ctx<'a>, id: &'a str) -> ReasonView<'a> {
    let title = (ctx.config().unknown_reason(id)).map_or(id, |r| r.display_title());
    ReasonView { id, title }
}

/// A capability group's band of rows.
#[derive(Debug, Serialize)]
pub struct SupportGroup<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub rows: Vec<SupportRow<'a>>,
}

/// What a client's page and the data API both say of the client, read once
/// ([`client_profile`]). URLs are as written; a page keeps only those it may link to
/// ([`ClientProfile::linkable`]).
#[derive(Debug, Serialize)]
pub struct ClientProfile<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub vendor: Option<&'a str>,
    pub homepage: Option<&'a str>,
    pub repository: Option<&'a str>,
    pub client_info_names: Vec<&'a str>,
    pub platforms: Vec<&'a str>,
    pub tally: TallyView,
}

/// Client `i`'s profile.
pub(super) fn client_profile<'a>(ctx: &Ctx<'a>, i: usize) -> ClientProfile<'a> {
    let client = ctx.client(i);
    ClientProfile {
        id: doc_id(&client.id, &client.doc),
        title: client.display_title(),
        vendor: some(&client.vendor),
        homepage: some(&client.homepage),
        repository: some(&client.repository),
        client_info_names: texts(&client.client_info_names),
        platforms: texts(&client.platforms),
        tally: tally(ctx.matrix().tallies.get(i)),
    }
}

impl<'a> ClientProfile<'a> {
    /// The profile as a page shows it: a homepage or repository that is not a URL a page may
    /// link to (see [`safe_href`]) left out.
    fn linkable(self) -> ClientProfile<'a> {
        ClientProfile {
            homepage: self.homepage.and_then(safe_href),
            repository: self.repository.and_then(safe_href),
            ..self
        }
    }
}

/// A client page.
#[derive(Debug, Serialize)]
pub struct ClientView<'a> {
    /// Its fields stand at the top level of the view (`client.title`, `client.homepage`), the
    /// homepage and repository only when a page may link to them.
    #[serde(flatten)]
    pub profile: ClientProfile<'a>,
    /// The cells that are not unknown, by group (groups without one left out): the page's
    /// one support table.
    pub researched: Vec<SupportGroup<'a>>,
    /// The capabilities whose cell is unknown for this client, folded into one line.
    pub unresearched: Vec<Unresearched<'a>>,
    /// The same, one line per reason they are unknown for.
    pub unknown_by_reason: Vec<UnknownGroup<'a>>,
    /// Every piece of evidence the support rows cite, once, numbered.
    pub evidence: Vec<EvidenceItem<'a>>,
    pub notes: Vec<NoteCard<'a>>,
    pub backlinks: Vec<LinkView<'a>>,
    pub body: BodyView<'a>,
    /// The choices of the forms that ask the home page which clients support a set of
    /// capabilities, and compare this client with others.
    pub pickers: Pickers<'a>,
    /// What the client was seen doing against `fieldnotes probe`, newest version first.
    pub observations: Vec<ObservationItem<'a>>,
    /// The client versions those observations saw, newest first.
    pub versions_seen: Vec<std::borrow::Cow<'a, str>>,
}

/// A client or capability with an unknown cell, in a page's "not researched yet" line.
#[derive(Debug, Clone, Serialize)]
pub struct Unresearched<'a> {
    pub link: LinkView<'a>,
    /// The anchor its row would have (`support-<capability>`), kept so links to it land.
    pub anchor: Option<String>,
    /// Why it is unknown.
    pub reason: Option<ReasonView<'a>>,
}

/// The unknown cells of a page that are unknown for one reason.
#[derive(Debug, Serialize)]
pub struct UnknownGroup<'a> {
    /// `None` on a site that declares no `unknownReasons`.
    pub reason: Option<ReasonView<'a>>,
    /// What the line starts with: the reason's title ("Not researched yet" without one).
    pub title: &'a str,
    pub items: Vec<Unresearched<'a>>,
}

/// `items` grouped by reason, in the order of `site.yaml`'s `unknownReasons` (an undeclared
/// reason after them), each group in the order of `items`.
fn by_reason<'a>(ctx: &Ctx<'a>, items: &[Unresearched<'a>]) -> Vec<UnknownGroup<'a>> {
    let reasons = &ctx.config().unknown_reasons;
    let rank = |u: &Unresearched<'_>| {
        let id = u.reason.map(|r| r.id);
        (reasons.iter().position(|r| Some(r.id.as_str()) == id)).unwrap_or(reasons.len())
    };
    let mut sorted: Vec<&Unresearched<'a>> = items.iter().collect();
    sorted.sort_by_key(|u| (rank(u), u.reason.map(|r| r.id)));
    let mut groups: Vec<UnknownGroup<'a>> = Vec::new();
    for item in sorted {
        let id = item.reason.map(|r| r.id);
        match groups.last_mut() {
            Some(group) if group.reason.map(|r| r.id) == id => group.items.push(item.clone()),
            _ => groups.push(UnknownGroup {
                reason: item.reason,
                title: item.reason.map_or("Not researched yet", |r| r.title),
                items: vec![item.clone()],
            }),
        }
    }
    groups
}

/// A spec revision named by a capability, linked when the site knows it.
#[derive(Debug, Serialize)]
pub struct RevisionView<'a> {
    pub id: &'a str,
    pub link: Option<LinkView<'a>>,
}

/// The title of a client page's last group: the researched capabilities the newest revision
/// no longer has.
const REMOVED_GROUP: &str = "Removed from the current revision";

/// A capability page.
#[derive(Debug, Serialize)]
pub struct CapabilityView<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub group: Option<&'a str>,
    /// `None` when absent or not a URL a page may link to (see [`safe_href`]).
    pub spec_url: Option<&'a str>,
    /// The extension's identifier, when the capability is an official extension.
    pub extension: Option<&'a str>,
    pub introduced: Option<RevisionView<'a>>,
    pub deprecated: Option<RevisionView<'a>>,
    pub removed: Option<RevisionView<'a>>,
    /// Its state at the newest revision, and that revision.
    pub state: State,
    pub current: Option<RevisionView<'a>>,
    pub aliases: Vec<&'a str>,
    /// The cells that are not unknown, in matrix column order: the page's support table.
    pub researched: Vec<SupportRow<'a>>,
    /// The clients whose cell for this capability is unknown, folded into one line.
    pub unresearched: Vec<Unresearched<'a>>,
    /// The same, one line per reason they are unknown for.
    pub unknown_by_reason: Vec<UnknownGroup<'a>>,
    /// Every piece of evidence the support rows cite, once, numbered.
    pub evidence: Vec<EvidenceItem<'a>>,
    pub tally: TallyView,
    pub notes: Vec<NoteCard<'a>>,
    pub backlinks: Vec<LinkView<'a>>,
    pub body: BodyView<'a>,
    /// The choices of the forms that ask the home page which clients support this capability
    /// and others, and compare clients on it.
    pub pickers: Pickers<'a>,
}

/// One choice in a picker: a client or capability id and its title.
#[derive(Debug, Serialize)]
pub struct Pick<'a> {
    pub id: &'a str,
    pub title: std::borrow::Cow<'a, str>,
}

/// Every client (in matrix column order) and capability (in group order), for the forms on
/// client and capability pages that send a reader to the home page's question
/// (`/?need=a&need=b`) and comparison (`/?compare=x&compare=y`).
#[derive(Debug, Serialize)]
pub struct Pickers<'a> {
    pub clients: Vec<Pick<'a>>,
    pub capabilities: Vec<Pick<'a>>,
}

pub(super) fn pickers<'a>(ctx: &Ctx<'a>) -> Pickers<'a> {
    let clients = (ctx.matrix().clients.iter())
        .map(|&c| Pick {
            id: doc_id(&ctx.client(c).id, &ctx.client(c).doc),
            title: ctx.title(Page::Client(c)),
        })
        .collect();
    let capabilities = (ctx.groups().flat_map(|(_, caps)| caps.iter()))
        .map(|&c| {
            let cap = ctx.capability(c);
            Pick {
                id: doc_id(&cap.id, &cap.doc),
                title: std::borrow::Cow::Borrowed(cap.display_title()),
            }
        })
        .collect();
    Pickers {
        clients,
        capabilities,
    }
}

pub(super) fn some(value: &Option<Spanned<String>>) -> Option<&str> {
    Some(text(value)).filter(|v| !v.is_empty())
}

pub(super) fn texts(values: &[Spanned<String>]) -> Vec<&str> {
    values.iter().map(|v| v.value.as_str()).collect()
}

/// The anchor of a capability's row on a client page.
pub fn row_anchor(capability_id: &str) -> String {
    format!("support-{capability_id}")
}

/// The cell of `client` for `capability`; `unknown` with no evidence when the map has none.
pub fn support_row<'a>(ctx: &Ctx<'a>, client: usize, capability: usize) -> SupportRow<'a> {
    let cap = ctx.capability(capability);
    let cap_id = doc_id(&cap.id, &cap.doc);
    let cell = ctx.cell(client, capability);
    let anchor = row_anchor(cap_id);
    let notes = cell.map_or("", |c| text(&c.notes));
    let (evidence, observations) = evidence_view(ctx, client, capability);
    let cited_observations = cell.map_or_else(Vec::new, |c| {
        (c.observations.iter())
            .filter_map(|o| ctx.find_observation(&o.value))
            .collect()
    });
    let cited_notes: Vec<usize> = cell.map_or_else(Vec::new, |c| {
        (c.research.iter())
            .filter_map(|r| ctx.find_note(&r.value))
            .collect()
    });
    let client_doc = ctx.client(client);
    SupportRow {
        client_id: doc_id(&client_doc.id, &client_doc.doc),
        refs: Vec::new(),
        cited_observations,
        evidence,
        observations,
        reason: ctx.reason(client, capability).map(|r| reason_view(ctx, r)),
        evidence_url: format!("{}#{anchor}", ctx.href(Page::Client(client))),
        anchor,
        capability: ctx.link(Page::Capability(capability)),
        capability_id: cap_id,
        client: ctx.link(Page::Client(client)),
        status: status(ctx.status(client, capability)),
        notes,
        notes_html: ctx.inline(notes, Section::Clients, Page::Client(client)),
        research: (cited_notes.iter())
            .map(|&n| ctx.link(Page::Note(n)))
            .collect(),
        cited_notes,
        sources: cell.map_or_else(Vec::new, |c| {
            c.sources
                .iter()
                .map(|s| {
                    let max_highlight = ctx.config().limits.max_highlight_bytes;
                    source_view_with(s, ctx.excerpts(), max_highlight, ctx.shown())
                })
                .collect()
        }),
        verified: cell.and_then(|c| ctx.maybe_date(&c.last_verified)),
        version: cell.and_then(|c| some(&c.version)),
        state: state_at(ctx.config(), cap, current(ctx.config())),
    }
}

pub fn client_view<'a>(ctx: &Ctx<'a>, i: usize) -> ClientView<'a> {
    let page = Page::Client(i);
    let mut researched = Vec::new();
    let mut unresearched = Vec::new();
    let mut removed = Vec::new();
    for (group, capabilities) in ctx.groups() {
        let rows = capabilities.iter().map(|&cap| support_row(ctx, i, cap));
        let (known, unknown) =
            partition(rows, |row| Some(row.anchor.clone()), |row| row.capability);
        unresearched.extend(unknown);
        let (gone, known): (Vec<_>, Vec<_>) = known
            .into_iter()
            .partition(|row| row.state == State::Removed);
        removed.extend(gone);
        if !known.is_empty() {
            researched.push(SupportGroup {
                id: &group.id,
                title: &group.title,
                rows: known,
            });
        }
    }
    // What the newest revision removed is set apart, after every group.
    if !removed.is_empty() {
        researched.push(SupportGroup {
            id: "removed",
            title: REMOVED_GROUP,
            rows: removed,
        });
    }
    let (observations, versions_seen) = client_observations(ctx, i);
    let evidence = page_evidence::number(
        ctx,
        (researched.iter_mut().flat_map(|g| g.rows.iter_mut())).map(|row| {
            let citer = Citer {
                title: row.capability.title.clone(),
                anchor: row.anchor.clone(),
            };
            row.citing(citer)
        }),
    );
    ClientView {
        evidence,
        observations,
        versions_seen,
        profile: client_profile(ctx, i).linkable(),
        researched,
        unknown_by_reason: by_reason(ctx, &unresearched),
        unresearched,
        notes: ctx
            .notes_of(page)
            .iter()
            .map(|&n| ctx.note_card(n))
            .collect(),
        backlinks: ctx.backlinks(page),
        body: ctx.body(page),
        pickers: pickers(ctx),
    }
}

fn revision<'a>(ctx: &Ctx<'a>, value: &'a Option<Spanned<String>>) -> Option<RevisionView<'a>> {
    let id = some(value)?;
    Some(RevisionView {
        id,
        link: ctx.find_spec(id).map(|s| ctx.link_as(Page::Spec(s), id)),
    })
}

pub fn capability_view<'a>(ctx: &Ctx<'a>, i: usize) -> CapabilityView<'a> {
    let cap = ctx.capability(i);
    let page = Page::Capability(i);
    let rows: Vec<SupportRow<'a>> = ctx
        .matrix()
        .clients
        .iter()
        .map(|&client| support_row(ctx, client, i))
        .collect();
    let mut counts = TallyView::default();
    for row in &rows {
        counts.add(row.status.value);
    }
    let (mut researched, unresearched) = partition(rows.into_iter(), |_| None, |row| row.client);
    let evidence = page_evidence::number(
        ctx,
        researched.iter_mut().map(|row| {
            let citer = Citer {
                title: row.client.title.clone(),
                anchor: format!("client-{}", row.client_id),
            };
            row.citing(citer)
        }),
    );
    CapabilityView {
        evidence,
        id: doc_id(&cap.id, &cap.doc),
        title: cap.display_title(),
        group: ctx
            .config()
            .group(text(&cap.group))
            .map(|g| g.title.as_str())
            .or(some(&cap.group)),
        spec_url: some(&cap.spec_url).and_then(safe_href),
        extension: some(&cap.extension),
        introduced: revision(ctx, &cap.introduced),
        deprecated: revision(ctx, &cap.deprecated),
        removed: revision(ctx, &cap.removed),
        state: state_at(ctx.config(), cap, current(ctx.config())),
        current: current(ctx.config()).map(|rank| {
            let id = ctx.config().spec_versions[rank].id.as_str();
            RevisionView {
                id,
                link: Some(ctx.link_as(Page::Spec(rank), id)),
            }
        }),
        aliases: texts(&cap.aliases),
        researched,
        unknown_by_reason: by_reason(ctx, &unresearched),
        unresearched,
        tally: counts,
        notes: ctx
            .notes_of(page)
            .iter()
            .map(|&n| ctx.note_card(n))
            .collect(),
        backlinks: ctx.backlinks(page),
        body: ctx.body(page),
        pickers: pickers(ctx),
    }
}

/// Splits `rows` into those that are not unknown and, for the unknown ones, the page each
/// is about (`link`) and the anchor it keeps (`anchor`).
fn partition<'a>(
    rows: impl Iterator<Item = SupportRow<'a>>,
    anchor: impl Fn(&SupportRow<'a>) -> Option<String>,
    link: impl Fn(SupportRow<'a>) -> LinkView<'a>,
) -> (Vec<SupportRow<'a>>, Vec<Unresearched<'a>>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for row in rows {
        if row.status.value == "unknown" {
            let anchor = anchor(&row);
            unknown.push(Unresearched {
                reason: row.reason,
                link: link(row),
                anchor,
            });
        } else {
            known.push(row);
        }
    }
    (known, unknown)
}

/// The description of a client's page (its `<meta name="description">`).
pub fn client_description(title: &str) -> String {
    format!("Which protocol capabilities {title} supports, with the evidence for each.")
}

/// The description of a capability's page.
pub fn capability_description(title: &str) -> String {
    format!("Which clients support {title}, with the evidence for each.")
}
