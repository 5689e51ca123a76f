//! Walks over the content that several rules share: every list of sources with the date it
//! was verified, every date field, every id, title and body link; and the report of values
//! that clash (the same id or title in two files).

use crate::index::links::LinkTarget;
use crate::index::SiteIndex;
use crate::lint::{RuleMeta, Sink};
use crate::model::{text, BodyLink, Content, Document, SourceRef, Spanned};
use crate::text_file::Span;

/// A list of sources and what holds it: a research note, or one cell of a client's support map.
pub struct SourceList<'a> {
    /// The capability of the support cell, when a cell holds the list.
    pub cell: Option<&'a Spanned<String>>,
    pub sources: &'a [SourceRef],
    pub last_verified: Option<&'a Spanned<String>>,
    /// A superseded or retracted note: its sources are no longer re-read.
    pub retired: bool,
}

impl SourceList<'_> {
    /// What holds the list, in messages: "note" or "support cell `transports.sse`".
    pub fn holder(&self) -> String {
        match self.cell {
            None => "note".to_string(),
            Some(capability) => format!("support cell `{}`", capability.value),
        }
    }
}

/// Every note's sources, then every support cell's.
pub fn source_lists(content: &Content) -> impl Iterator<Item = SourceList<'_>> {
    let notes = content.notes.iter().map(|n| SourceList {
        cell: None,
        sources: &n.sources,
        last_verified: n.last_verified.as_ref(),
        retired: matches!(text(&n.status), "superseded" | "retracted"),
    });
    let cells = content.clients.iter().flat_map(|c| {
        c.support.iter().map(move |cell| SourceList {
            cell: Some(&cell.capability),
            sources: &cell.sources,
            last_verified: cell.last_verified.as_ref(),
            retired: false,
        })
    });
    notes.chain(cells)
}

/// Every source of the site, notes' and support cells'.
pub fn sources(content: &Content) -> impl Iterator<Item = &SourceRef> {
    source_lists(content).flat_map(|list| list.sources.iter())
}

/// A date-valued field and its value.
pub struct DateField<'a> {
    /// The field as written (`lastVerified`, `date`, `retrieved`, `last-updated`).
    pub field: &'static str,
    pub value: &'a Spanned<String>,
}

/// Every date field of the site's content.
pub fn dates(content: &Content) -> Vec<DateField<'_>> {
    let mut out = Vec::new();
    for list in source_lists(content) {
        out.extend(date_field("lastVerified", list.last_verified));
        for source in list.sources {
            out.extend(date_field("date", source.date.as_ref()));
            out.extend(date_field("retrieved", source.retrieved.as_ref()));
        }
    }
    let updated = content
        .notes
        .iter()
        .map(|n| &n.last_updated)
        .chain(content.guides.iter().map(|g| &g.last_updated));
    out.extend(updated.filter_map(|u| date_field("last-updated", u.as_ref())));
    out
}

fn date_field<'a>(
    field: &'static str,
    value: Option<&'a Spanned<String>>,
) -> Option<DateField<'a>> {
    value.map(|value| DateField { field, value })
}

/// A front matter field every kind of document may have, for rules that treat them alike.
#[derive(Debug, Clone, Copy)]
pub enum Common {
    Id,
    Title,
}

impl Common {
    fn pick<'a>(
        self,
        id: &'a Option<Spanned<String>>,
        title: &'a Option<Spanned<String>>,
    ) -> Option<&'a Spanned<String>> {
        match self {
            Common::Id => id.as_ref(),
            Common::Title => title.as_ref(),
        }
    }
}

/// Each document that has `field`, with its value (guides have no `id`).
pub fn common(
    content: &Content,
    field: Common,
) -> impl Iterator<Item = (&Document, &Spanned<String>)> {
    let pick = move |id, title| field.pick(id, title);
    let notes = content
        .notes
        .iter()
        .map(move |n| (&n.doc, pick(&n.id, &n.title)));
    let clients = content
        .clients
        .iter()
        .map(move |c| (&c.doc, pick(&c.id, &c.title)));
    let capabilities = content
        .capabilities
        .iter()
        .map(move |c| (&c.doc, pick(&c.id, &c.title)));
    let guides = content.guides.iter().map(move |g| match field {
        Common::Id => (&g.doc, None),
        Common::Title => (&g.doc, g.title.as_ref()),
    });
    let observations = content.observations.iter().map(move |o| match field {
        Common::Id => (&o.doc, o.id.as_ref()),
        Common::Title => (&o.doc, None),
    });
    notes
        .chain(clients)
        .chain(capabilities)
        .chain(guides)
        .chain(observations)
        .filter_map(|(doc, value)| value.map(|v| (doc, v)))
}

/// Every body link of the site: what it resolved to, and the link as written.
pub fn links(index: &SiteIndex) -> impl Iterator<Item = (&LinkTarget, &BodyLink)> {
    index.links.iter().map(|link| {
        let doc = index
            .document(link.from)
            .expect("links come from documents");
        (&link.target, &doc.body.links[link.link])
    })
}

/// Reports each of several values that clash (the same id, the same title), naming the file of
/// another: the first for the rest, the second for the first.
pub fn report_clashes(
    index: &SiteIndex,
    sink: &mut Sink<'_>,
    rule: &RuleMeta,
    spans: &[Span],
    message: impl Fn(&str) -> String,
    help: &str,
) {
    for (n, span) in spans.iter().enumerate() {
        let other = if n == 0 { spans[1] } else { spans[0] };
        let other = index.files[other.file].display_path();
        sink.report(rule, *span, message(&other), Some(help.to_string()));
    }
}

/// The text a span covers.
pub fn span_text(index: &SiteIndex, span: Span) -> &str {
    index.files[span.file]
        .text
        .get(span.start..span.end)
        .unwrap_or("")
}
