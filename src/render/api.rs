//! The JSON data API: `/api/notes.json`, `/api/clients.json` and `/api/matrix.json` (the
//! whole matrix with its evidence), each beside the JSON Schema that describes it
//! (`/api/<name>.schema.json`, kept in `schemas/api/`).

use super::citations::{source_view, RangeLink};
use super::inputs::Inputs;
use super::memo::Kept;
use super::support::{client_profile, some, texts};
use super::views::{tally, Ctx, TallyView};
use crate::config::{SpecVersion, UnknownReason};
use crate::error::Result;
use crate::index::routes::Page;
use crate::model::{doc_id, text, SourceRef};
use crate::render::output::Shared;
use crate::text_file::Section;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The schemas, as shipped: `schemas/api/` is their one source.
pub const SCHEMAS: &[(&str, &[u8])] = &[
    (
        "clients",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/api/clients.schema.json"
        )),
    ),
    (
        "matrix",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/api/matrix.schema.json"
        )),
    ),
    (
        "notes",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/api/notes.schema.json"
        )),
    ),
];

/// A schema of [`SCHEMAS`] as a site serves it: its own title and description (the top-level
/// `"title"` and `"description"`, at two spaces' indent) in the site's words, every other
/// byte as shipped.
pub fn in_site_words(schema: &[u8], vocabulary: &crate::config::Vocabulary) -> Vec<u8> {
    let text = String::from_utf8_lossy(schema);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let top = ["  \"title\": ", "  \"description\": "]
            .iter()
            .find_map(|key| line.strip_prefix(key).map(|value| (key, value)));
        let reworded = top.and_then(|(key, value)| {
            let (value, end) = match value.trim_end().strip_suffix(',') {
                Some(value) => (value, ",\n"),
                None => (value.trim_end(), "\n"),
            };
            let value: String = serde_json::from_str(value).ok()?;
            let value = serde_json::to_string(&vocabulary.reword(&value)).ok()?;
            Some(format!("{key}{value}{end}"))
        });
        out.push_str(reworded.as_deref().unwrap_or(line));
    }
    out.into_bytes()
}

/// A pinned source, as the API gives it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiSource<'a> {
    pub url: &'a str,
    pub title: Option<&'a str>,
    pub commit: Option<&'a str>,
    pub path: Option<&'a str>,
    pub date: Option<&'a str>,
    /// A page without a commit: the sentence relied on, verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<&'a str>,
    /// A page without a commit: the day it was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retrieved: Option<&'a str>,
    /// The file at the pinned commit (or `url` when it cannot be pinned).
    pub href: String,
    /// One link per line range of `path`.
    pub ranges: Vec<RangeLink>,
}

/// Where the notes' data goes.
pub(super) const NOTES_JSON: &str = "api/notes.json";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiNote<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub url: String,
    pub markdown_url: String,
    pub kind: &'a str,
    pub summary: &'a str,
    pub status: &'a str,
    pub superseded_by: Option<&'a str>,
    pub capabilities: Vec<&'a str>,
    pub clients: Vec<&'a str>,
    pub spec_versions: Vec<&'a str>,
    pub sources: Vec<ApiSource<'a>>,
    pub last_verified: Option<&'a str>,
    pub last_updated: Option<&'a str>,
    pub related: Vec<&'a str>,
}

/// `/api/clients.json`.
#[derive(Debug, Serialize)]
pub struct ClientsDoc<'a> {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub clients: Vec<ApiClient<'a>>,
}

/// A client in `/api/clients.json`: its profile (`support::ClientProfile`, which a page
/// flattens under snake_case names) under the camelCase names of the API's schema, its URLs
/// and its support.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiClient<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub vendor: Option<&'a str>,
    pub homepage: Option<&'a str>,
    pub repository: Option<&'a str>,
    pub client_info_names: Vec<&'a str>,
    pub platforms: Vec<&'a str>,
    pub url: String,
    pub markdown_url: String,
    pub tally: TallyView,
    /// Every capability id to this client's status for it.
    pub support: BTreeMap<&'a str, &'static str>,
}

/// `/api/matrix.json`: every capability × client cell with its evidence.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatrixDoc<'a> {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub title: &'a str,
    pub url: String,
    pub statuses: [&'static str; 4],
    /// Why a cell can be unknown: `site.yaml`'s `unknownReasons`, the first the default.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub unknown_reasons: &'a [UnknownReason],
    pub spec_versions: &'a [SpecVersion],
    pub groups: Vec<ApiGroup<'a>>,
    pub capabilities: Vec<ApiCapability<'a>>,
    pub clients: Vec<ApiMatrixClient<'a>>,
    /// Client id → capability id → cell.
    pub support: BTreeMap<&'a str, BTreeMap<&'a str, ApiCell<'a>>>,
}

#[derive(Debug, Serialize)]
pub struct ApiGroup<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub capabilities: Vec<&'a str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiCapability<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub group: &'a str,
    pub url: String,
    pub spec_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extension: Option<&'a str>,
    pub introduced: Option<&'a str>,
    pub deprecated: Option<&'a str>,
    pub removed: Option<&'a str>,
    pub aliases: Vec<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct ApiMatrixClient<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub url: String,
    pub tally: TallyView,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiCell<'a> {
    pub status: &'static str,
    pub notes: Option<&'a str>,
    /// Research notes backing the cell, by id.
    pub research: Vec<&'a str>,
    pub sources: Vec<ApiSource<'a>>,
    pub last_verified: Option<&'a str>,
    pub version: Option<&'a str>,
    /// Observations backing the cell, by id.
    pub observations: Vec<&'a str>,
    /// How the claim was checked, derived from what the cell cites.
    pub evidence: crate::index::evidence::Evidence,
    /// Why an unknown cell is unknown: an id of `unknownReasons`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// The cell's row on the client page.
    pub url: String,
}

fn sources(list: &[SourceRef]) -> Vec<ApiSource<'_>> {
    list.iter()
        .map(|s| {
            let view = source_view(s);
            let url = text(&s.url);
            ApiSource {
                url,
                title: some(&s.title),
                commit: view.commit,
                path: some(&s.path),
                date: view.date,
                quote: view.quote,
                retrieved: view.retrieved,
                // Data as written: a URL no page may link to is left out of pages, not here.
                href: view.href.unwrap_or_else(|| url.to_string()),
                ranges: view.ranges,
            }
        })
        .collect()
}

fn schema_url(ctx: &Ctx<'_>, name: &str) -> String {
    ctx.config().url_for(&format!("/api/{name}.schema.json"))
}

/// `/api/notes.json`: `{"$schema": …, "notes": [ … ]}` as compact JSON, as serde_json writes
/// the whole document, made from each note's record. With `previous` (the records an earlier
/// render kept, and what inputs are now), a record is serialized anew (in parallel, with a
/// context of its own) only when an input it read changed: a rebuild after an edit serializes
/// the edited note's alone. Returns the file and, with `previous`, the records to keep; the
/// file reads what every record read.
pub(super) fn notes_json(
    ctx: &Ctx<'_>,
    previous: Option<(&[Kept<Shared>], &dyn Inputs)>,
) -> Result<(Vec<u8>, Vec<Kept<Shared>>)> {
    let inputs = previous.map(|(_, inputs)| inputs);
    let kept = previous.map_or(&[][..], |(kept, _)| kept);
    let site = ctx.shared();
    let records: Vec<Result<Kept<Shared>>> = (0..ctx.count(Section::Research))
        .into_par_iter()
        .map(|i| {
            if let (Some(old), Some(inputs)) = (kept.get(i), inputs) {
                if old.fresh(inputs) {
                    return Ok(old.clone());
                }
            }
            let record = site.ctx();
            let bytes = Arc::new(compact(NOTES_JSON, &api_note(&record, i))?);
            Ok(Kept::new(bytes, record.reads(), inputs))
        })
        .collect();
    let records = records.into_iter().collect::<Result<Vec<Kept<Shared>>>>()?;
    for record in &records {
        ctx.extend(record.reads());
    }
    let schema = compact(NOTES_JSON, &schema_url(ctx, "notes"))?;
    let size: usize = records.iter().map(|r| r.made.len() + 1).sum();
    let mut out = Vec::with_capacity(size + schema.len() + 32);
    out.extend_from_slice(b"{\"$schema\":");
    out.extend_from_slice(&schema);
    out.extend_from_slice(b",\"notes\":[");
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&record.made);
    }
    out.extend_from_slice(b"]}\n");
    let records = if previous.is_some() {
        records
    } else {
        Vec::new()
    };
    Ok((out, records))
}

/// Note `i`'s record in `/api/notes.json`.
fn api_note<'a>(ctx: &Ctx<'a>, i: usize) -> ApiNote<'a> {
    let n = ctx.note(i);
    let id = doc_id(&n.id, &n.doc);
    ApiNote {
        id,
        title: n.display_title(),
        url: ctx.canonical_url(Page::Note(i)),
        markdown_url: ctx.md_canonical_url(Page::Note(i)),
        kind: text(&n.kind),
        summary: text(&n.summary),
        status: text(&n.status),
        superseded_by: some(&n.superseded_by),
        capabilities: n
            .capabilities
            .iter()
            .map(|c| match ctx.find_capability(&c.value) {
                Some((cap, _)) => capability_id(ctx, cap),
                None => c.value.as_str(),
            })
            .collect(),
        clients: texts(&n.clients),
        spec_versions: texts(&n.spec_versions),
        sources: sources(&n.sources),
        last_verified: some(&n.last_verified),
        last_updated: some(&n.last_updated),
        related: texts(&n.related),
    }
}

/// `value` as compact JSON (serde_json escapes every string), for the file at `path`.
pub(super) fn compact<T: Serialize>(path: &str, value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| crate::error::Error::io(path, "serialize", e.into()))
}

pub(super) fn capability_id<'a>(ctx: &Ctx<'a>, cap: usize) -> &'a str {
    let c = ctx.capability(cap);
    doc_id(&c.id, &c.doc)
}

pub(super) fn client_id<'a>(ctx: &Ctx<'a>, client: usize) -> &'a str {
    let c = ctx.client(client);
    doc_id(&c.id, &c.doc)
}

/// Every capability in matrix order.
pub(super) fn matrix_capabilities<'a>(ctx: &Ctx<'a>) -> impl Iterator<Item = usize> + 'a {
    ctx.groups()
        .flat_map(|(_, capabilities)| capabilities.iter().copied())
}

pub fn clients_doc<'a>(ctx: &Ctx<'a>) -> ClientsDoc<'a> {
    let matrix = ctx.matrix();
    let clients = matrix
        .clients
        .iter()
        .map(|&i| {
            // Data as written: a URL no page may link to is left out of pages, not here.
            let profile = client_profile(ctx, i);
            ApiClient {
                id: profile.id,
                title: profile.title,
                vendor: profile.vendor,
                homepage: profile.homepage,
                repository: profile.repository,
                client_info_names: profile.client_info_names,
                platforms: profile.platforms,
                url: ctx.canonical_url(Page::Client(i)),
                markdown_url: ctx.md_canonical_url(Page::Client(i)),
                tally: profile.tally,
                support: matrix_capabilities(ctx)
                    .map(|cap| (capability_id(ctx, cap), ctx.status(i, cap)))
                    .collect(),
            }
        })
        .collect();
    ClientsDoc {
        schema: schema_url(ctx, "clients"),
        clients,
    }
}

pub fn matrix_doc<'a>(ctx: &Ctx<'a>) -> MatrixDoc<'a> {
    let matrix = ctx.matrix();
    let groups = ctx
        .groups()
        .map(|(group, capabilities)| ApiGroup {
            id: &group.id,
            title: &group.title,
            capabilities: capabilities
                .iter()
                .map(|&c| capability_id(ctx, c))
                .collect(),
        })
        .collect();
    let capabilities = matrix_capabilities(ctx)
        .map(|i| {
            let c = ctx.capability(i);
            let id = capability_id(ctx, i);
            ApiCapability {
                id,
                title: c.display_title(),
                group: text(&c.group),
                url: ctx.canonical_url(Page::Capability(i)),
                spec_url: some(&c.spec_url),
                extension: some(&c.extension),
                introduced: some(&c.introduced),
                deprecated: some(&c.deprecated),
                removed: some(&c.removed),
                aliases: texts(&c.aliases),
            }
        })
        .collect();
    let clients = matrix
        .clients
        .iter()
        .map(|&i| ApiMatrixClient {
            id: client_id(ctx, i),
            title: ctx.client(i).display_title(),
            url: ctx.canonical_url(Page::Client(i)),
            tally: tally(matrix.tallies.get(i)),
        })
        .collect();
    let support = matrix
        .clients
        .iter()
        .map(|&client| {
            let cells = matrix_capabilities(ctx)
                .map(|cap| {
                    let cell = ctx.cell(client, cap);
                    let anchor = super::support::row_anchor(capability_id(ctx, cap));
                    let api = ApiCell {
                        status: ctx.status(client, cap),
                        notes: cell.and_then(|c| some(&c.notes)),
                        research: cell.map_or_else(Vec::new, |c| texts(&c.research)),
                        sources: cell.map_or_else(Vec::new, |c| sources(&c.sources)),
                        last_verified: cell.and_then(|c| some(&c.last_verified)),
                        version: cell.and_then(|c| some(&c.version)),
                        observations: cell.map_or_else(Vec::new, |c| texts(&c.observations)),
                        evidence: ctx.evidence(client, cap),
                        reason: ctx.reason(client, cap),
                        url: format!("{}#{anchor}", ctx.canonical_url(Page::Client(client))),
                    };
                    (capability_id(ctx, cap), api)
                })
                .collect();
            (client_id(ctx, client), cells)
        })
        .collect();
    MatrixDoc {
        schema: schema_url(ctx, "matrix"),
        title: &ctx.config().title,
        url: ctx.canonical_url(Page::Home),
        statuses: crate::model::SUPPORT_STATUSES,
        unknown_reasons: &ctx.config().unknown_reasons,
        spec_versions: &ctx.config().spec_versions,
        groups,
        capabilities,
        clients,
        support,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schema_speaks_the_site_words_in_its_title_and_description_only() {
        let vocabulary = crate::config::Vocabulary {
            protocol: "LSP".into(),
            clients: "editors".into(),
            client: "editor".into(),
            ..Default::default()
        };
        let clients = SCHEMAS[0].1;
        let served = String::from_utf8(in_site_words(clients, &vocabulary)).expect("UTF-8");
        assert!(
            served.contains("\"description\": \"Every LSP editor of the site"),
            "{served}"
        );
        assert!(served.contains("\"title\": \"Editors\""), "{served}");
        assert!(served.contains("\"clients\""), "field names stay");
        let json: serde_json::Value = serde_json::from_str(&served).expect("still JSON");
        assert!(json.is_object());
        let mcp = crate::config::Vocabulary {
            protocol: "MCP".into(),
            ..Default::default()
        };
        assert_eq!(
            in_site_words(clients, &mcp),
            clients,
            "the bundled words change nothing"
        );
    }
}
