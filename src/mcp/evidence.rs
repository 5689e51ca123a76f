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
    }
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
