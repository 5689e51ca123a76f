//! What a build tells readers about each pinned source: whether it holds, moved (to where),
//! changed, is gone, is broken, or could not be checked — read from a drift report
//! (`build --sources REPORT.json`, the JSON of `fieldnotes sources drift --format json`) or
//! from verification run by the build (`build --excerpts`), and the commit's full hash once
//! resolved, for links that stay unambiguous.

use super::verify::{Problem, Verification};
use super::{pinned, short};
use crate::error::{Error, Result};
use crate::index::SiteIndex;
use crate::text_file::Span;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// A source's status, as pages show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatusState {
    /// Verification found its commit, file and lines (nothing said about the default branch).
    Verified,
    /// Drift found its lines on the default branch as pinned.
    Unchanged,
    Moved,
    Changed,
    Gone,
    /// Its commit, path or lines are not in the repository (FN951–FN954).
    Broken,
    /// It could not be checked (no repository, a malformed pin, a report that does not have
    /// it): it must never look checked.
    Unchecked,
}

/// One source's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub state: StatusState,
    /// What a reader is told: `holds on main`, `moved: now src/b.py:8-11 on main`, why it
    /// could not be checked.
    pub label: String,
    /// The pinned commit's full hash, when it resolved.
    pub commit: Option<String>,
}

impl Status {
    /// Whether the source was checked (any state but [`StatusState::Unchecked`]).
    pub fn checked(&self) -> bool {
        self.state != StatusState::Unchecked
    }
}

/// The statuses of a site's pinned sources, by the source they belong to.
#[derive(Debug, Default)]
pub struct Statuses {
    by_source: HashMap<Span, Status>,
}

impl Statuses {
    /// Sets the status of the source at `span`.
    pub fn insert(&mut self, span: Span, status: Status) {
        self.by_source.insert(span, status);
    }

    /// The status of the source at `span`, if it is pinned.
    pub fn get(&self, span: Span) -> Option<&Status> {
        self.by_source.get(&span)
    }

    pub fn len(&self) -> usize {
        self.by_source.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_source.is_empty()
    }

    /// The statuses verification gives: verified, broken or unchecked.
    pub fn of_verification(verification: &Verification<'_>) -> Statuses {
        let by_source = (verification.sources.iter())
            .map(|checked| {
                let status = match checked.problems.first() {
                    None => Status {
                        state: StatusState::Verified,
                        label: "pin verified: its commit, file and lines exist".to_string(),
                        commit: checked.commit.clone(),
                    },
                    Some(Problem::NotChecked(why)) => unchecked(why),
                    Some(problem) => Status {
                        state: StatusState::Broken,
                        label: format!("broken pin: {}", problem.reason()),
                        commit: checked.commit.clone(),
                    },
                };
                (checked.pinned.source.span, status)
            })
            .collect();
        Statuses { by_source }
    }

    /// The statuses a drift report (`sources drift --format json`) gives each pinned source
    /// of the site, matched by its file and line and checked against its `commit` and
    /// `path` as they are now; a source the report does not have as it is now is unchecked.
    pub fn of_report(index: &SiteIndex, report: &Path) -> Result<Statuses> {
        let refuse = |why: String| Error::Usage {
            message: format!("--sources {}: {why}", report.display()),
        };
        let text = std::fs::read_to_string(report).map_err(|e| refuse(e.to_string()))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| {
            refuse(format!(
                "not JSON ({e}); give the output of `fieldnotes sources drift --format json`"
            ))
        })?;
        let sources = value["sources"].as_array().ok_or_else(|| {
            refuse(
                "no `sources` list: give the output of `fieldnotes sources drift --format json`"
                    .to_string(),
            )
        })?;
        let mut reported: HashMap<(String, u64), &Value> = HashMap::new();
        for source in sources {
            if let (Some(file), Some(line)) = (source["file"].as_str(), source["line"].as_u64()) {
                reported.insert((file.to_string(), line), source);
            }
        }
        let mut by_source = HashMap::new();
        for pin in pinned(index) {
            let (file, line) = pin.place(index);
            let entry = reported
                .get(&(file, line as u64))
                .filter(|r| r["commit"] == pin.commit.value.as_str() && r["path"] == pin.path());
            let status = match entry {
                Some(entry) => from_report(entry),
                None => {
                    unchecked("the drift report given to the build does not have it as it is now")
                }
            };
            by_source.insert(pin.source.span, status);
        }
        Ok(Statuses { by_source })
    }
}

fn unchecked(why: &str) -> Status {
    Status {
        state: StatusState::Unchecked,
        label: format!("not checked: {why}"),
        commit: None,
    }
}

/// One source's status from its entry in a drift report.
fn from_report(entry: &Value) -> Status {
    let field = |name: &str| entry[name].as_str().unwrap_or_default();
    let branch = entry["branch"].as_str().unwrap_or("the default branch");
    let head = short(field("head"));
    let commit = entry["resolvedCommit"].as_str().map(str::to_string);
    let (state, label) = match field("state") {
        "unchanged" => (
            StatusState::Unchanged,
            format!("holds on {branch} (as of {head})"),
        ),
        "moved" => (
            StatusState::Moved,
            format!("moved: now {} on {branch} ({head})", now(entry)),
        ),
        "changed" => (
            StatusState::Changed,
            format!("changed on {branch} ({head}): {}", now(entry)),
        ),
        "gone" => (
            StatusState::Gone,
            match entry["goneIn"].as_str() {
                Some(commit) => format!("gone from {branch}: deleted in {}", short(commit)),
                None => format!("gone: never on {branch}"),
            },
        ),
        "broken" => (
            StatusState::Broken,
            format!("broken pin: {}", field("reason")),
        ),
        _ => return unchecked(entry["reason"].as_str().unwrap_or("no reason given")),
    };
    Status {
        state,
        label,
        commit,
    }
}

/// Where a report says a source's lines are now: `src/b.py:8-11`, or the closest match and
/// how many lines differ.
fn now(entry: &Value) -> String {
    let file_now = entry["fileNow"].as_str().unwrap_or_default();
    let ranges = entry["ranges"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let pieces: Vec<String> = ranges
        .iter()
        .map(|r| {
            match (
                r["file"].as_str(),
                r["now"].as_str(),
                r["closest"].as_object(),
            ) {
                (Some(file), Some(now), _) => format!("{file}:{now}"),
                (_, _, Some(closest)) => format!(
                    "closest {}:{}, {} of {} lines differ",
                    closest["file"].as_str().unwrap_or(file_now),
                    closest["lines"].as_str().unwrap_or("?"),
                    closest["differing"],
                    closest["of"]
                ),
                _ => file_now.to_string(),
            }
        })
        .collect();
    match pieces.is_empty() {
        true => match entry["closest"].as_object() {
            Some(closest) => format!("{} of {} lines differ", closest["differing"], closest["of"]),
            None => file_now.to_string(),
        },
        false => pieces.join("; "),
    }
}
