//! How each support cell's claim was checked, derived once from what it cites: `observed`
//! (an observation of the client, with its version and day), `source` (a source pinned to a
//! commit, its own or a cited note's), `docs` (a URL without a commit), `reported` (only a
//! vendor's self-report in a shared list, at a pinned commit), else `none`.

use super::observations::newest_first;
use super::Ids;
use crate::model::{text, Content, SourceRef, SupportCell};
use serde::Serialize;

/// The ways a claim can have been checked, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Observed,
    Source,
    Docs,
    Reported,
    None,
}

/// Every method, in the order a filter lists them.
pub const METHODS: [Method; 5] = [
    Method::Observed,
    Method::Source,
    Method::Docs,
    Method::Reported,
    Method::None,
];

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Observed => "observed",
            Method::Source => "source",
            Method::Docs => "docs",
            Method::Reported => "reported",
            Method::None => "none",
        }
    }

    /// How a page says it, after "Checked: ".
    pub fn label(self) -> &'static str {
        match self {
            Method::Observed => "observed",
            Method::Source => "read in source",
            Method::Docs => "from the docs",
            Method::Reported => "self-reported by the vendor",
            Method::None => "no evidence",
        }
    }
}

/// How one cell was checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub method: Method,
    /// `observed`: the newest cited observation's client version; otherwise the cell's
    /// `version`, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `observed`: the package that ran in that observation (its `package.name`), when it
    /// names one: the version is that package's, which need not be the client's own
    /// numbering (code-server 4.139.1 serves VS Code 1.139.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// `observed`: the day of that observation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<String>,
    /// `observed`: that observation's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<String>,
    /// `source` and `reported`: the commit the first pinned source is read at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The shared lists that report the cell (their ids): the cell's own evidence when the
    /// method is `reported`, else named beside the stronger evidence shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reported: Vec<String>,
}

impl Evidence {
    /// What a cell the support map does not name has: nothing.
    pub fn none() -> Evidence {
        Evidence {
            method: Method::None,
            version: None,
            package: None,
            observed: None,
            observation: None,
            commit: None,
            reported: Vec::new(),
        }
    }
}

/// The evidence of `cell`, from its observations, sources and research notes.
pub fn of_cell(content: &Content, ids: &Ids, cell: &SupportCell) -> Evidence {
    let version = Some(text(&cell.version)).filter(|v| !v.is_empty());
    let cited = (cell.observations.iter()).filter_map(|o| ids.observation(&o.value));
    if let Some(o) = cited.min_by(|&a, &b| newest_first(content, a, b)) {
        let observation = &content.observations[o];
        return Evidence {
            method: Method::Observed,
            version: observation.client_version().map(str::to_string),
            package: (observation.package.as_ref())
                .map(|p| text(&p.name).to_string())
                .filter(|name| !name.is_empty() && observation.package_version().is_some()),
            observed: Some(text(&observation.observed).to_string()).filter(|d| !d.is_empty()),
            observation: Some(crate::model::doc_id(&observation.id, &observation.doc).into()),
            commit: None,
            reported: Vec::new(),
        };
    }
    let notes = (cell.research.iter())
        .filter_map(|r| ids.note(&r.value))
        .flat_map(|n| content.notes[n].sources.iter());
    let sources: Vec<&SourceRef> = cell.sources.iter().chain(notes).collect();
    let method = |method, commit| Evidence {
        method,
        version: version.map(str::to_string),
        package: None,
        observed: None,
        observation: None,
        commit,
        reported: Vec::new(),
    };
    if let Some(commit) = sources.iter().find_map(|s| pinned_commit(s)) {
        return method(Method::Source, Some(commit));
    }
    if sources.iter().any(|s| s.url.is_some()) {
        return method(Method::Docs, None);
    }
    method(Method::None, None)
}

/// The commit a source is pinned to: its `commit`, else the one its URL names.
fn pinned_commit(source: &SourceRef) -> Option<String> {
    let commit = (source.commit.as_ref()).map(|c| c.value.trim().to_ascii_lowercase());
    commit
        .filter(|c| (7..=40).contains(&c.len()) && c.chars().all(|c| c.is_ascii_hexdigit()))
        .or_else(|| source.url_pin.as_ref().map(|p| p.commit.value.clone()))
}

/// The evidence of the cell of `client` for `capability` in `matrix`: the cell's own, or
/// `reported` when only a self-report names it; the lists that report it named either way.
pub fn of_position(
    content: &Content,
    ids: &Ids,
    matrix: &super::Matrix,
    client: usize,
    capability: usize,
) -> Evidence {
    let Some(cell) = matrix.cell(content, client, capability) else {
        return Evidence::none();
    };
    let mut evidence = of_cell(content, ids, cell);
    if matrix.shows_report(client, capability) {
        evidence.method = Method::Reported;
    }
    for &r in matrix.reports(client, capability) {
        let list = &content.lists[content.reports[r].list].id;
        if !evidence.reported.contains(list) {
            evidence.reported.push(list.clone());
        }
    }
    evidence
}
