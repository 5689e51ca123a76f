//! Section indexes (`/research`, `/clients`, `/capabilities`, `/spec`, `/guides`), spec
//! revision pages and `/llms.txt`.

use super::filters::{
    client_methods, client_platforms, evidence_options, platform_options, EvidenceOption,
    PlatformOption,
};
use super::matrix::{matrix_view, revisions, MatrixView};
use super::views::{safe_href, tally, Ctx, DateView, LinkView, NoteCard, TallyView};
use crate::config::Kind;
use crate::index::routes::Page;
use crate::model::{doc_id, text};
use crate::text_file::Section;
use serde::Serialize;
use std::borrow::Cow;

/// A section index: groups of linked items.
#[derive(Debug, Serialize)]
pub struct ListView<'a> {
    pub intro: Option<Cow<'a, str>>,
    pub groups: Vec<ListGroup<'a>>,
    pub count: usize,
    /// The filters above the list (the clients page: how checked, platform).
    pub filters: Option<ListFilters<'a>>,
}

/// The clients page's filters: how the cells were checked, and the platform.
#[derive(Debug, Serialize)]
pub struct ListFilters<'a> {
    pub evidence_methods: Vec<EvidenceOption>,
    pub platforms: Vec<PlatformOption<'a>>,
}

/// What an item's filters read: how its cells were checked and its platforms, each
/// space-separated (see [`super::filters`]).
#[derive(Debug, Serialize)]
pub struct ItemFilter {
    pub evidence: String,
    pub platforms: String,
}

#[derive(Debug, Serialize)]
pub struct ListGroup<'a> {
    /// `None` for a list that is not grouped.
    pub title: Option<&'a str>,
    pub id: Option<&'a str>,
    pub description: Option<&'a str>,
    pub items: Vec<ListItem<'a>>,
}

#[derive(Debug, Serialize)]
pub struct ListItem<'a> {
    pub link: LinkView<'a>,
    pub summary: &'a str,
    pub summary_html: String,
    /// Short facts shown after the summary (`current`, `3 yes, 1 partial`).
    pub meta: Vec<String>,
    /// When a research note was last verified, shown after `meta`.
    pub verified: Option<DateView<'a>>,
    /// What the list's filters read of it (clients only).
    pub filter: Option<ItemFilter>,
}

/// A spec revision page.
#[derive(Debug, Serialize)]
pub struct SpecView<'a> {
    pub id: &'a str,
    pub title: Option<&'a str>,
    pub date: Option<&'a str>,
    /// The revision's specification, when it is a URL a page may link to (see [`safe_href`]).
    pub url: Option<&'a str>,
    pub introduced: Vec<LinkView<'a>>,
    /// What is new in this revision: each capability it introduced, with its group and how
    /// many clients support it.
    pub new: Vec<ChangedCapability<'a>>,
    /// What it deprecates and removes, the same way.
    pub deprecated: Vec<ChangedCapability<'a>>,
    pub removed: Vec<ChangedCapability<'a>>,
    pub notes: Vec<NoteCard<'a>>,
    pub previous: Option<LinkView<'a>>,
    pub next: Option<LinkView<'a>>,
    /// The capabilities this revision has × every client: what each client supports of it.
    pub matrix: MatrixView<'a>,
    /// The clients left out of the matrix because only their vendors' self-reports speak
    /// for them (as on the home page: a matrix of every listed client is too big a page).
    pub self_reported_only: usize,
    /// The clients page, where every client is.
    pub clients_url: String,
    /// What changed, in the site's words, and the changelog it comes from (a URL a page may
    /// link to).
    pub summary: Option<&'a str>,
    pub changelog: Option<&'a str>,
    /// Who speaks it: seen offering it, or supporting what it introduced.
    pub speakers: Vec<super::revision::Speaker<'a>>,
    /// How many capabilities it introduced (the speakers table counts against it).
    pub introduced_count: usize,
}

/// A capability a spec revision introduced, deprecated or removed.
#[derive(Debug, Serialize)]
pub struct ChangedCapability<'a> {
    pub link: LinkView<'a>,
    pub group: Option<&'a str>,
    /// Every client's status for it.
    pub tally: TallyView,
    /// The clients whose cell says yes or partial, in matrix order.
    pub supporters: Vec<Supporter<'a>>,
}

/// A client that supports a changed capability, fully or in part.
#[derive(Debug, Serialize)]
pub struct Supporter<'a> {
    pub link: LinkView<'a>,
    pub status: &'static str,
}

/// `/llms.txt`: every page's Markdown rendition, by section.
#[derive(Debug, Serialize)]
pub struct LlmsView<'a> {
    pub sections: Vec<LlmsSection<'a>>,
}

#[derive(Debug, Serialize)]
pub struct LlmsSection<'a> {
    pub title: String,
    pub items: Vec<LlmsItem<'a>>,
}

#[derive(Debug, Serialize)]
pub struct LlmsItem<'a> {
    pub title: Cow<'a, str>,
    /// The absolute URL of the page's `.md` rendition.
    pub url: String,
    pub summary: Cow<'a, str>,
}

fn item<'a>(ctx: &Ctx<'a>, page: Page, summary: &'a str, meta: Vec<String>) -> ListItem<'a> {
    let section = match page {
        Page::Guide(_) => Section::Guides,
        Page::Client(_) => Section::Clients,
        Page::Capability(_) => Section::Capabilities,
        _ => Section::Research,
    };
    ListItem {
        link: ctx.link(page),
        summary,
        summary_html: match page {
            // The same HTML as on the note's cards, made once per render.
            Page::Note(n) => ctx.note_summary_html(n),
            _ => ctx.inline(summary, section, page),
        },
        meta,
        verified: None,
        filter: None,
    }
}

fn one_group(items: Vec<ListItem<'_>>) -> ListView<'_> {
    ListView {
        intro: None,
        count: items.len(),
        groups: vec![ListGroup {
            title: None,
            id: None,
            description: None,
            items,
        }],
        filters: None,
    }
}

/// The index of a content section.
pub fn section_view<'a>(ctx: &Ctx<'a>, section: Section) -> ListView<'a> {
    match section {
        Section::Research => research(ctx),
        Section::Clients => clients(ctx),
        Section::Capabilities => capabilities(ctx),
        Section::Observations => observations(ctx),
        Section::Guides => one_group(
            (0..ctx.count(Section::Guides))
                .map(|i| {
                    let g = ctx.guide(i);
                    let meta = ctx
                        .maybe_date(&g.last_updated)
                        .map(|d| format!("updated {}", d.date))
                        .into_iter()
                        .collect();
                    item(ctx, Page::Guide(i), text(&g.summary), meta)
                })
                .collect(),
        ),
    }
}

/// Notes grouped by kind, in `site.yaml` order; kinds it does not list come last.
fn research<'a>(ctx: &Ctx<'a>) -> ListView<'a> {
    let config = ctx.config();
    let notes: Vec<_> = (0..ctx.count(Section::Research))
        .map(|i| (i, ctx.note(i)))
        .collect();
    let mut groups: Vec<ListGroup<'a>> = Vec::new();
    let kinds = config.kinds.iter().map(|k| Some(k.id.as_str()));
    for kind in kinds.chain([None]) {
        let items: Vec<ListItem<'a>> = notes
            .iter()
            .copied()
            .filter(|(_, n)| match kind {
                Some(k) => text(&n.kind) == k,
                None => config.kind(text(&n.kind)).is_none(),
            })
            .map(|(i, n)| {
                let meta = vec![text(&n.status).to_string()];
                ListItem {
                    verified: ctx.maybe_date(&n.last_verified),
                    ..item(ctx, Page::Note(i), text(&n.summary), meta)
                }
            })
            .collect();
        if items.is_empty() {
            continue;
        }
        let config_kind = kind.and_then(|k| config.kind(k));
        groups.push(ListGroup {
            title: Some(config_kind.map_or("Other", Kind::display_title)),
            id: kind,
            description: config_kind.and_then(|k| k.description.as_deref()),
            items,
        });
    }
    ListView {
        intro: None,
        count: notes.len(),
        groups,
        filters: None,
    }
}

fn clients<'a>(ctx: &Ctx<'a>) -> ListView<'a> {
    let matrix = ctx.matrix();
    let items = matrix
        .clients
        .iter()
        .map(|&i| {
            let c = ctx.client(i);
            let t = tally(matrix.tallies.get(i));
            let mut meta: Vec<String> = Vec::new();
            if !text(&c.vendor).is_empty() {
                meta.push(text(&c.vendor).to_string());
            }
            if !c.platforms.is_empty() {
                let platforms: Vec<&str> = c.platforms.iter().map(|p| p.value.as_str()).collect();
                meta.push(platforms.join(", "));
            }
            meta.push(format!(
                "{} yes, {} partial, {} no, {} unknown",
                t.yes, t.partial, t.no, t.unknown
            ));
            ListItem {
                filter: Some(ItemFilter {
                    evidence: client_methods(ctx, i),
                    platforms: client_platforms(ctx, i),
                }),
                ..item(ctx, Page::Client(i), "", meta)
            }
        })
        .collect();
    ListView {
        filters: Some(ListFilters {
            evidence_methods: evidence_options(),
            platforms: platform_options(ctx, matrix.clients.iter().copied()),
        }),
        ..one_group(items)
    }
}

fn capabilities<'a>(ctx: &Ctx<'a>) -> ListView<'a> {
    let clients = &ctx.matrix().clients;
    let groups: Vec<ListGroup<'a>> = ctx
        .groups()
        .map(|(group, capabilities)| {
            let items = capabilities
                .iter()
                .map(|&i| {
                    let cap = ctx.capability(i);
                    let mut meta = vec![crate::model::doc_id(&cap.id, &cap.doc).to_string()];
                    for (label, value) in [
                        ("introduced", &cap.introduced),
                        ("deprecated", &cap.deprecated),
                        ("removed", &cap.removed),
                    ] {
                        if !text(value).is_empty() {
                            meta.push(format!("{label} {}", text(value)));
                        }
                    }
                    let yes = (clients.iter())
                        .filter(|&&c| ctx.status(c, i) == "yes")
                        .count();
                    let of = &ctx.config().vocabulary.clients;
                    meta.push(format!("{yes} of {} {of}: yes", clients.len()));
                    item(ctx, Page::Capability(i), "", meta)
                })
                .collect();
            ListGroup {
                title: Some(group.title.as_str()),
                id: Some(group.id.as_str()),
                description: group.description.as_deref(),
                items,
            }
        })
        .collect();
    ListView {
        intro: None,
        count: groups.iter().map(|g| g.items.len()).sum(),
        groups,
        filters: None,
    }
}

/// The index of spec revisions, newest first.
pub fn spec_index_view<'a>(ctx: &Ctx<'a>) -> ListView<'a> {
    let items = ctx
        .config()
        .spec_versions
        .iter()
        .enumerate()
        .rev()
        .map(|(i, v)| {
            let mut meta = Vec::new();
            if let Some(date) = &v.date {
                meta.push(date.clone());
            }
            let notes = ctx.notes_of(Page::Spec(i)).len();
            meta.push(format!("{notes} note{}", if notes == 1 { "" } else { "s" }));
            ListItem {
                link: ctx.link(Page::Spec(i)),
                summary: v.title.as_deref().unwrap_or(""),
                summary_html: ctx.inline(
                    v.title.as_deref().unwrap_or(""),
                    Section::Research,
                    Page::Spec(i),
                ),
                meta,
                verified: None,
                filter: None,
            }
        })
        .collect();
    one_group(items)
}

pub fn spec_view<'a>(ctx: &Ctx<'a>, i: usize) -> SpecView<'a> {
    let versions = &ctx.config().spec_versions;
    let v = &versions[i];
    let with = |field: Field| {
        (0..ctx.count(Section::Capabilities))
            .filter(|&c| text(field(ctx.capability(c))) == v.id)
            .map(|c| ctx.link(Page::Capability(c)))
            .collect::<Vec<_>>()
    };
    let version_link = |j: usize| ctx.link_as(Page::Spec(j), &versions[j].id);
    let introduced: Vec<usize> = (0..ctx.count(Section::Capabilities))
        .filter(|&c| text(&ctx.capability(c).introduced) == v.id)
        .collect();
    let mut matrix = matrix_view(ctx, Some(i), |cap| {
        revisions(ctx, cap).contains(&v.id.as_str())
    });
    SpecView {
        summary: v.summary.as_deref(),
        changelog: v.changelog.as_deref().and_then(safe_href),
        speakers: super::revision::speakers(ctx, &v.id, &introduced),
        introduced_count: introduced.len(),
        id: &v.id,
        title: v.title.as_deref(),
        date: v.date.as_deref(),
        url: v.url.as_deref().and_then(safe_href),
        introduced: with(|c| &c.introduced),
        new: changed_in(ctx, &v.id, |c| &c.introduced),
        deprecated: changed_in(ctx, &v.id, |c| &c.deprecated),
        removed: changed_in(ctx, &v.id, |c| &c.removed),
        notes: ctx
            .notes_of(Page::Spec(i))
            .iter()
            .map(|&n| ctx.note_card(n))
            .collect(),
        previous: i.checked_sub(1).map(version_link),
        next: (i + 1 < versions.len()).then(|| version_link(i + 1)),
        self_reported_only: matrix.leave_out_self_reported(),
        matrix,
        clients_url: ctx.href(Page::Index(Section::Clients)),
    }
}

/// One of a capability's revision fields (`introduced`, `deprecated`, `removed`).
type Field = fn(&crate::model::Capability) -> &Option<crate::model::Spanned<String>>;

/// The capabilities whose `field` is revision `id`, in matrix order, each with every client's
/// status and the clients that support it.
fn changed_in<'a>(ctx: &Ctx<'a>, id: &str, field: Field) -> Vec<ChangedCapability<'a>> {
    ctx.groups()
        .flat_map(|(group, capabilities)| capabilities.iter().map(move |&c| (group, c)))
        .filter(|&(_, c)| text(field(ctx.capability(c))) == id)
        .map(|(group, c)| {
            let mut tally = TallyView::default();
            let mut supporters = Vec::new();
            for &client in &ctx.matrix().clients {
                let status = ctx.status(client, c);
                tally.add(status);
                if status == "yes" || status == "partial" {
                    supporters.push(Supporter {
                        link: ctx.link(Page::Client(client)),
                        status,
                    });
                }
            }
            ChangedCapability {
                link: ctx.link(Page::Capability(c)),
                group: Some(group.title.as_str()),
                tally,
                supporters,
            }
        })
        .collect()
}

pub fn llms_view<'a>(ctx: &Ctx<'a>) -> LlmsView<'a> {
    let config = ctx.config();
    let words = |text: &str| config.vocabulary.reword(text);
    let entry = |page: Page, summary: Cow<'a, str>| LlmsItem {
        title: ctx.title(page),
        url: ctx.md_canonical_url(page),
        summary,
    };
    let mut overview = vec![entry(
        Page::Home,
        words("The support matrix: every capability by client.").into(),
    )];
    for (section, summary) in [
        (Section::Research, "Every research note, by kind."),
        (Section::Clients, "Every client, with its support counts."),
        (Section::Capabilities, "Every capability, by group."),
    ] {
        overview.push(entry(Page::Index(section), words(summary).into()));
    }
    overview.push(entry(
        Page::SpecIndex,
        words("Spec revisions and the notes that apply to each.").into(),
    ));
    if ctx.count(Section::Guides) > 0 {
        overview.push(entry(
            Page::Index(Section::Guides),
            "Long-form guides.".into(),
        ));
    }
    if ctx.count(Section::Observations) > 0 {
        overview.push(entry(
            Page::Index(Section::Observations),
            words("What shipped clients were seen doing against fieldnotes probe.").into(),
        ));
    }
    let sections = vec![
        LlmsSection {
            title: words("Overview"),
            items: overview,
        },
        LlmsSection {
            title: words("Research notes"),
            items: (0..ctx.count(Section::Research))
                .map(|i| entry(Page::Note(i), text(&ctx.note(i).summary).into()))
                .collect(),
        },
        LlmsSection {
            title: words("Clients"),
            items: ctx
                .matrix()
                .clients
                .iter()
                .map(|&i| entry(Page::Client(i), "".into()))
                .collect(),
        },
        LlmsSection {
            title: words("Capabilities"),
            items: (0..ctx.count(Section::Capabilities))
                .map(|i| entry(Page::Capability(i), "".into()))
                .collect(),
        },
        LlmsSection {
            title: words("Spec revisions"),
            items: config
                .spec_versions
                .iter()
                .enumerate()
                .map(|(i, v)| entry(Page::Spec(i), v.title.as_deref().unwrap_or("").into()))
                .collect(),
        },
        LlmsSection {
            title: words("Guides"),
            items: (0..ctx.count(Section::Guides))
                .map(|i| entry(Page::Guide(i), text(&ctx.guide(i).summary).into()))
                .collect(),
        },
        LlmsSection {
            title: words("Observations"),
            items: (0..ctx.count(Section::Observations))
                .map(|i| entry(Page::Observation(i), "".into()))
                .collect(),
        },
    ];
    LlmsView {
        sections: sections
            .into_iter()
            .filter(|s| !s.items.is_empty())
            .collect(),
    }
}

/// `/observations`: every observation, by client.
fn observations<'a>(ctx: &Ctx<'a>) -> ListView<'a> {
    let count = ctx.count(Section::Observations);
    let index = ctx.observations();
    let mut groups: Vec<ListGroup<'a>> = Vec::new();
    for &client in &ctx.matrix().clients {
        let list = index.by_client.get(client).map_or(&[][..], Vec::as_slice);
        if list.is_empty() {
            continue;
        }
        let c = ctx.client(client);
        groups.push(ListGroup {
            title: Some(c.display_title()),
            id: Some(doc_id(&c.id, &c.doc)),
            description: None,
            items: list.iter().map(|&o| observation_item(ctx, o)).collect(),
        });
    }
    let orphans: Vec<usize> = (0..count)
        .filter(|&o| index.client.get(o).copied().flatten().is_none())
        .collect();
    if !orphans.is_empty() {
        groups.push(ListGroup {
            title: Some("Clients the site does not have yet"),
            id: Some("unclaimed"),
            description: None,
            items: orphans.iter().map(|&o| observation_item(ctx, o)).collect(),
        });
    }
    ListView {
        intro: Some(Cow::Borrowed(
            "What shipped clients were seen doing against fieldnotes probe: each session's \
             results, with the transcript lines that show them.",
        )),
        groups,
        count,
        filters: None,
    }
}

fn observation_item<'a>(ctx: &Ctx<'a>, o: usize) -> ListItem<'a> {
    let item = super::evidence::observation_item(ctx, o);
    let mut meta = Vec::new();
    meta.extend(item.transport.map(std::borrow::Cow::into_owned));
    meta.extend(item.observed.map(|d| format!("observed {}", d.date)));
    let plural = if item.shown == 1 { "" } else { "s" };
    meta.push(format!("{} result{plural} shown", item.shown));
    ListItem {
        link: item.link,
        summary: "",
        summary_html: String::new(),
        meta,
        verified: None,
        filter: None,
    }
}
