//! What the site says about clients and capabilities, as the tools hand it out: support
//! cells with their sources and notes, the clients, the capabilities, two clients side by
//! side. Read from the data API ([`Snapshot::matrix`]), so each fact reads as on the site.

use super::site::Snapshot;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A source as the site pins it: the URL as written, and, in a repository, the commit, the
/// file and line ranges, and links to them at that commit.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Source {
    pub url: Option<String>,
    pub title: Option<String>,
    /// The commit the source is pinned to.
    pub commit: Option<String>,
    /// `file`, `file:L`, `file:L-L` or `file:L-L,L-L`.
    pub path: Option<String>,
    /// When the author read it.
    pub date: Option<String>,
    /// The file at the pinned commit (or the URL as written, when it cannot be pinned).
    pub href: Option<String>,
    /// One link per pinned line range.
    pub ranges: Vec<LineLink>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct LineLink {
    /// `L14-L88` or `L12`.
    pub label: String,
    pub href: String,
}

/// A research note in brief, with its sources.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoteBrief {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// `current`, `superseded`, `retracted` or `draft`.
    pub status: String,
    pub url: String,
    pub markdown_url: String,
    pub last_verified: Option<String>,
    /// Days from `lastVerified` to today.
    pub age_days: Option<i64>,
    pub sources: Vec<Source>,
}

/// One client's support for one capability, with its evidence.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    pub client: String,
    pub client_title: String,
    pub capability: String,
    pub capability_title: String,
    /// `yes`, `partial`, `no` or `unknown` (unknown when the client's support map does not
    /// name the capability).
    pub status: String,
    /// The cell's notes: how the client supports it, or why not.
    pub notes: Option<String>,
    /// The client version the cell was checked against.
    pub version: Option<String>,
    pub last_verified: Option<String>,
    /// Days from `lastVerified` to today.
    pub age_days: Option<i64>,
    /// The cell on the client's page.
    pub url: Option<String>,
    pub sources: Vec<Source>,
    /// The notes the cell cites, then every other note about both the client and the
    /// capability.
    pub research: Vec<NoteBrief>,
    /// How the claim was checked: `observed`, `source`, `docs` or `none`, as the data API
    /// says it.
    #[schemars(schema_with = "evidence_object")]
    pub evidence: Value,
    /// The observations the cell cites, then every other observation of the client that has
    /// a result for the capability (newest client version first).
    pub observations: Vec<ObservationBrief>,
}

/// The schema of a cell's `evidence`: the data API's object (`method`, and where known
/// `version`, `observed`, `commit`).
fn evidence_object(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object"})
}

/// What one `fieldnotes probe` session saw of a capability, with the transcript lines that
/// show it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ObservationBrief {
    pub id: String,
    pub title: String,
    pub url: String,
    pub markdown_url: String,
    /// Whether the cell cites it.
    pub cited: bool,
    /// The version that ran: the observation's `package.version`, else `clientInfo.version`.
    pub client_version: Option<String>,
    /// `clientInfo.version` as the client sent it, when it differs from the package's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_info_version: Option<String>,
    /// The day of the session.
    pub observed: Option<String>,
    pub transport: Option<String>,
    /// How the client was driven.
    pub command: Option<String>,
    /// What the session showed of the capability: `yes`, `partial`, `no` or `unknown`.
    pub status: String,
    pub why: Option<String>,
    /// The transcript lines that show it.
    pub messages: Vec<TranscriptLine>,
}

/// One line of an observation's transcript.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TranscriptLine {
    /// 1-based.
    pub line: usize,
    /// The line as recorded (a JSON object), cut at 4,000 bytes.
    pub text: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SupportAnswer {
    /// The day ages count to.
    pub today: String,
    pub cells: Vec<Cell>,
}

/// The support cell of client `client` for capability `capability` (content indexes).
pub fn cell(site: &Snapshot, client: usize, capability: usize) -> Cell {
    let client_id = site.client_id(client);
    let capability_id = site.capability_id(capability);
    let raw = &site.matrix["support"][client_id][capability_id];
    let text = |key: &str| raw[key].as_str().map(str::to_string);
    let mut research: Vec<String> = strings(&raw["research"]);
    let about_capability: std::collections::HashSet<usize> = site.index.notes_by_capability
        [capability]
        .iter()
        .copied()
        .collect();
    for &note in &site.index.notes_by_client[client] {
        let id = site.note_id(note);
        if about_capability.contains(&note) && !research.iter().any(|r| r == id) {
            research.push(id.to_string());
        }
    }
    let last_verified = text("lastVerified");
    Cell {
        client: client_id.to_string(),
        client_title: site.index.content.clients[client]
            .display_title()
            .to_string(),
        capability: capability_id.to_string(),
        capability_title: site.index.content.capabilities[capability]
            .display_title()
            .to_string(),
        status: text("status").unwrap_or_else(|| "unknown".to_string()),
        notes: text("notes"),
        version: text("version"),
        age_days: site.age_days(last_verified.as_deref()),
        last_verified,
        url: text("url"),
        sources: sources(&raw["sources"]),
        research: research
            .iter()
            .filter_map(|id| note_brief(site, id))
            .collect(),
        evidence: raw["evidence"].clone(),
        observations: observations(site, client, capability, &strings(&raw["observations"])),
    }
}

/// A transcript line is handed out up to this many bytes.
const LINE_LIMIT: usize = 4000;

/// The observations of `client` with a result for `capability`: those `cited` first.
fn observations(
    site: &Snapshot,
    client: usize,
    capability: usize,
    cited: &[String],
) -> Vec<ObservationBrief> {
    let index = &site.index;
    let content = &index.content;
    let mut list: Vec<usize> = (cited.iter())
        .filter_map(|id| index.ids.observation(id))
        .collect();
    for &o in index
        .observations
        .by_client
        .get(client)
        .map_or(&[][..], Vec::as_slice)
    {
        if !list.contains(&o) {
            list.push(o);
        }
    }
    let text = |v: &Option<crate::model::Spanned<String>>| {
        Some(crate::model::text(v).to_string()).filter(|v| !v.is_empty())
    };
    list.into_iter()
        .filter_map(|o| {
            let observation = &content.observations[o];
            let result = (observation.results.iter()).find(|r| {
                index.ids.capability(&r.capability.value).map(|c| c.0) == Some(capability)
            });
            let is_cited = cited.iter().any(|c| Some(o) == index.ids.observation(c));
            if result.is_none() && !is_cited {
                return None;
            }
            let transcript = (index.observations.transcript.get(o).copied().flatten())
                .map(|t| &content.transcripts[t]);
            let page = crate::index::routes::Page::Observation(o);
            let url = index.canonical_url(page);
            Some(ObservationBrief {
                id: crate::model::doc_id(&observation.id, &observation.doc).to_string(),
                title: observation.display_title(),
                markdown_url: format!("{url}.md"),
                url,
                cited: is_cited,
                client_version: observation.client_version().map(str::to_string),
                client_info_version: observation
                    .differing_client_info_version()
                    .map(str::to_string),
                observed: text(&observation.observed),
                transport: text(&observation.transport),
                command: text(&observation.command),
                status: result.map_or("unknown".to_string(), |r| {
                    crate::model::text(&r.status).to_string()
                }),
                why: result.and_then(|r| text(&r.why)),
                messages: result.map_or_else(Vec::new, |r| {
                    r.messages
                        .iter()
                        .filter_map(|m| {
                            let line = transcript?.line(m.value)?;
                            let mut end = line.len().min(LINE_LIMIT);
                            while !line.is_char_boundary(end) {
                                end -= 1;
                            }
                            Some(TranscriptLine {
                                line: m.value,
                                text: line[..end].to_string(),
                            })
                        })
                        .collect()
                }),
            })
        })
        .collect()
}

/// A note in brief, from the data API.
pub fn note_brief(site: &Snapshot, id: &str) -> Option<NoteBrief> {
    let note = site.notes.get(id)?;
    let text = |key: &str| note[key].as_str().unwrap_or_default().to_string();
    let last_verified = note["lastVerified"].as_str().map(str::to_string);
    Some(NoteBrief {
        id: id.to_string(),
        title: text("title"),
        summary: text("summary"),
        status: text("status"),
        url: text("url"),
        markdown_url: text("markdownUrl"),
        age_days: site.age_days(last_verified.as_deref()),
        last_verified,
        sources: sources(&note["sources"]),
    })
}

fn sources(value: &Value) -> Vec<Source> {
    serde_json::from_value(value.clone()).unwrap_or_default()
}

fn strings(value: &Value) -> Vec<String> {
    serde_json::from_value(value.clone()).unwrap_or_default()
}

/// A client as the site lists it.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ClientEntry {
    pub id: String,
    pub title: String,
    pub vendor: Option<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    /// The names the client announces in `initialize`.
    pub client_info_names: Vec<String>,
    pub platforms: Vec<String>,
    pub url: String,
    pub markdown_url: String,
    /// How many capabilities have each status.
    pub tally: std::collections::BTreeMap<String, usize>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ClientsAnswer {
    pub clients: Vec<ClientEntry>,
}

pub fn clients(site: &Snapshot) -> ClientsAnswer {
    ClientsAnswer {
        clients: site
            .clients
            .iter()
            .filter_map(|c| serde_json::from_value(c.clone()).ok())
            .collect(),
    }
}

/// A capability as the site lists it.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CapabilityEntry {
    /// Dotted `group.name`.
    pub id: String,
    pub title: String,
    pub group: String,
    pub url: String,
    pub spec_url: Option<String>,
    /// The spec revision that introduced it.
    pub introduced: Option<String>,
    pub deprecated: Option<String>,
    pub removed: Option<String>,
    /// Other spellings the site accepts.
    pub aliases: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CapabilitiesAnswer {
    pub capabilities: Vec<CapabilityEntry>,
}

/// Every capability, in the matrix's order; of one group only when `group` is given.
pub fn capabilities(site: &Snapshot, group: Option<&str>) -> Result<CapabilitiesAnswer, String> {
    let all: Vec<CapabilityEntry> =
        serde_json::from_value(site.matrix["capabilities"].clone()).unwrap_or_default();
    let Some(group) = group.map(str::trim).filter(|g| !g.is_empty()) else {
        return Ok(CapabilitiesAnswer { capabilities: all });
    };
    let groups: Vec<&str> = site
        .index
        .config
        .capability_groups
        .iter()
        .map(|g| g.id.as_str())
        .collect();
    if !groups.contains(&group) {
        let help = crate::lint::suggest::did_you_mean(group, groups.iter().copied(), || {
            format!("the groups are {}", groups.join(", "))
        });
        return Err(format!("error: no capability group `{group}`; {help}"));
    }
    Ok(CapabilitiesAnswer {
        capabilities: all.into_iter().filter(|c| c.group == group).collect(),
    })
}

/// One client's cell, briefly, for a side-by-side row.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub status: String,
    pub notes: Option<String>,
    pub last_verified: Option<String>,
    pub age_days: Option<i64>,
    pub url: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub capability: String,
    pub title: String,
    pub group: String,
    /// The first client's cell.
    pub a: Side,
    /// The second client's cell.
    pub b: Side,
    /// Whether the two statuses differ.
    pub differs: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompareAnswer {
    pub a: ClientEntry,
    pub b: ClientEntry,
    /// Rows in the matrix's order (capability groups, then ids).
    pub rows: Vec<Row>,
    /// How many rows differ.
    pub differences: usize,
}

/// Clients `a` and `b` (content indexes) side by side, every capability or only those where
/// they differ.
pub fn compare(site: &Snapshot, a: usize, b: usize, only_differences: bool) -> CompareAnswer {
    let entry = |client: usize| {
        let id = site.client_id(client);
        site.clients
            .iter()
            .find(|c| c["id"].as_str() == Some(id))
            .and_then(|c| serde_json::from_value(c.clone()).ok())
            .unwrap_or_default()
    };
    let side = |client: usize, capability: &str| {
        let raw = &site.matrix["support"][site.client_id(client)][capability];
        let text = |key: &str| raw[key].as_str().map(str::to_string);
        let last_verified = text("lastVerified");
        Side {
            status: text("status").unwrap_or_else(|| "unknown".to_string()),
            notes: text("notes"),
            age_days: site.age_days(last_verified.as_deref()),
            last_verified,
            url: text("url"),
        }
    };
    let capabilities: Vec<CapabilityEntry> =
        serde_json::from_value(site.matrix["capabilities"].clone()).unwrap_or_default();
    let rows: Vec<Row> = capabilities
        .into_iter()
        .map(|c| {
            let (sa, sb) = (side(a, &c.id), side(b, &c.id));
            Row {
                differs: sa.status != sb.status,
                a: sa,
                b: sb,
                capability: c.id,
                title: c.title,
                group: c.group,
            }
        })
        .collect();
    let differences = rows.iter().filter(|r| r.differs).count();
    CompareAnswer {
        a: entry(a),
        b: entry(b),
        rows: rows
            .into_iter()
            .filter(|r| r.differs || !only_differences)
            .collect(),
        differences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Copies `from` over `to`, folders and all.
    fn copy(from: &Path, to: &Path) {
        for entry in std::fs::read_dir(from).expect("fixture") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("type").is_dir() {
                std::fs::create_dir_all(&target).expect("mkdir");
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }

    /// The `support` tool hands out how a cell was checked and what the observations of the
    /// client saw, with the transcript lines, as the observation page shows them.
    #[test]
    fn a_cell_carries_its_evidence_method_and_the_observations_with_their_lines() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = tempfile::tempdir().expect("temp dir");
        copy(&fixtures.join("basic"), dir.path());
        copy(&fixtures.join("observed"), dir.path());
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("day");
        let site = Snapshot::load(dir.path(), today).expect("site");
        let client = site.index.ids.client("client-a").expect("client-a");
        let tools = site
            .index
            .ids
            .capability("tools.call")
            .expect("tools.call")
            .0;
        let cell = cell(&site, client, tools);
        assert_eq!(
            cell.evidence["method"], "docs",
            "the cell cites no observation"
        );
        let [seen] = cell.observations.as_slice() else {
            panic!("one observation: {:?}", cell.observations);
        };
        assert_eq!(
            (
                seen.cited,
                seen.status.as_str(),
                seen.client_version.as_deref()
            ),
            (false, "yes", Some("1.3.0"))
        );
        let lines: Vec<usize> = seen.messages.iter().map(|m| m.line).collect();
        assert_eq!(lines, [4, 5]);
        assert!(seen.messages[0].text.contains("\"tools/call\""));
        let sse = site.index.ids.capability("transports.sse").expect("sse").0;
        let cell = super::cell(&site, client, sse);
        assert_eq!(cell.evidence["method"], "source");
        assert_eq!(cell.evidence["commit"], "0123abc");
        assert_eq!(cell.observations[0].status, "unknown");
    }
}
