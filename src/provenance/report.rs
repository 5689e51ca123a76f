//! Reports of drift, as a table for people and JSON for tools: every source's drift
//! ([`drift_table`], [`drift_json`]), and the re-verification queue ([`queue`]): the notes and
//! support cells to read again, most drifted first, then longest unverified first.

use super::verdict::{Closest, Drift, DriftReport, State};
use super::{short, Holder};
use crate::dates::parse_date;
use crate::index::SiteIndex;
use crate::model::{doc_id, text};
use crate::terminal;
use crate::text_file::Span;
use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Every drift state with how many sources are in it, in order.
fn counts(states: impl Iterator<Item = State>) -> BTreeMap<State, usize> {
    let mut counts: BTreeMap<State, usize> = [
        State::Unchanged,
        State::Moved,
        State::Changed,
        State::Gone,
        State::Broken,
        State::Unchecked,
    ]
    .into_iter()
    .map(|s| (s, 0))
    .collect();
    for state in states {
        *counts.entry(state).or_default() += 1;
    }
    counts
}

/// `5 sources: 2 unchanged, 1 moved, …`.
fn summary_line(report: &DriftReport<'_>) -> String {
    let counts = counts(report.sources.iter().map(|d| d.state));
    let parts: Vec<String> = counts
        .iter()
        .map(|(state, n)| format!("{n} {}", state.as_str()))
        .collect();
    let fixed = report.sources.iter().filter(|d| d.fixed_drift()).count();
    let fixed = match fixed {
        0 => String::new(),
        n => format!(
            "; {n} of them `pin: fixed` (the commit is the point: not queued, not re-pinned)"
        ),
    };
    format!(
        "{} pinned source{}: {}{fixed}",
        report.sources.len(),
        if report.sources.len() == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// The source's pinned path and commit: `src/a.py:5-8 @ 3f4e5d6`, and ` (pin: fixed)` when
/// the commit is the point of it.
fn pinned_text(drift: &Drift<'_>) -> String {
    let path = drift.pinned.pinned_path();
    let fixed = match drift.pinned.source.fixed() {
        true => " (pin: fixed)",
        false => "",
    };
    format!("{path} @ {}{fixed}", short(&drift.pinned.commit.value))
}

/// Where the lines are on the default branch: `src/a.py:8-11 @ 1b2c3d4`; a range not found as
/// it was shows its closest match and how many of its lines differ (`?` when none is left);
/// `(gone in 5e6f7a8) @ …`; or why the source was not checked.
fn now_text(drift: &Drift<'_>) -> String {
    let head = drift.head.as_deref().map(short).unwrap_or_default();
    if matches!(drift.state, State::Unchecked | State::Broken) {
        return drift.reason.clone().unwrap_or_default();
    }
    if drift.state == State::Gone {
        return match &drift.gone_in {
            // Read at its last version on purpose (a list a project took down, say).
            Some(commit) if drift.pinned.source.fixed() => {
                format!("(removed upstream at {}) @ {head}", short(commit))
            }
            Some(commit) => format!("(gone in {}) @ {head}", short(commit)),
            None => format!("(never on the default branch) @ {head}"),
        };
    }
    let file_now = drift.file_now.as_deref().unwrap_or_default();
    let pieces: Vec<(&str, String)> = drift
        .ranges
        .iter()
        .map(|r| match (&r.file, r.now, &r.closest) {
            (Some(file), Some(now), _) => (file.as_str(), now.to_string()),
            (_, _, Some(closest)) => (closest.file.as_str(), closest_text(closest)),
            _ => (file_now, "?".to_string()),
        })
        .collect();
    let place = match pieces.first() {
        None => match &drift.closest {
            Some(closest) => format!("{} {}", closest.file, differing_text(closest)),
            None => file_now.to_string(),
        },
        Some((first, _)) if pieces.iter().all(|(file, _)| file == first) => {
            let lines: Vec<&str> = pieces.iter().map(|(_, lines)| lines.as_str()).collect();
            format!("{first}:{}", lines.join(","))
        }
        Some(_) => {
            let each: Vec<String> = (pieces.iter())
                .map(|(file, lines)| format!("{file}:{lines}"))
                .collect();
            each.join(", ")
        }
    };
    format!("{place} @ {head}")
}

/// `12-15 (2 of 4 lines differ)`: a closest match.
fn closest_text(closest: &Closest) -> String {
    let lines = closest.lines.map_or("?".to_string(), |l| l.to_string());
    format!("{lines} {}", differing_text(closest))
}

fn differing_text(closest: &Closest) -> String {
    format!("({} of {} lines differ)", closest.differing, closest.of)
}

/// Where drift's finding about `drift` stands (its `path`, else the source) and what it says:
/// where the lines are now (FN956–FN958, reported by the lint rules).
pub(crate) fn drift_finding(drift: &Drift<'_>) -> (Span, String) {
    let source = drift.pinned.source;
    let span = source.path.as_ref().map_or(source.span, |p| p.span);
    let branch = drift.branch.as_deref().unwrap_or("the default branch");
    let pinned = pinned_text(drift);
    let message = match drift.state {
        State::Moved => format!("{pinned} moved on {branch}: now {}", now_text(drift)),
        State::Changed => format!("{pinned} changed on {branch}: {}", now_text(drift)),
        _ => match &drift.gone_in {
            Some(commit) => format!(
                "{pinned} is gone from {branch}: its file was deleted in {}",
                short(commit)
            ),
            None => format!("{pinned} is gone: its file was never on {branch}"),
        },
    };
    (span, terminal::escape(&message).into_owned())
}

/// The drift of every source as an aligned table, a summary line and the notices.
pub fn drift_table(index: &SiteIndex, report: &DriftReport<'_>) -> String {
    let rows: Vec<[String; 4]> = report
        .sources
        .iter()
        .map(|d| {
            let (file, line) = d.pinned.place(index);
            [
                d.state.as_str().to_string(),
                format!("{file}:{line}"),
                pinned_text(d),
                now_text(d),
            ]
        })
        .collect();
    let header = ["STATE", "SOURCE", "PINNED", "DEFAULT BRANCH"].map(str::to_string);
    let mut out = table(&header, &rows);
    out.push_str(&summary_line(report));
    out.push('\n');
    if report.sources.iter().any(|d| {
        (d.state == State::Changed)
            && d.ranges
                .iter()
                .any(|r| r.closest.is_none() && r.now.is_none())
    }) {
        out.push_str("?: no line of the pinned block is left in the file on the default branch\n");
    }
    for notice in &report.notices {
        out.push_str(&format!(
            "note: {}; default branches are as of its last fetch\n",
            terminal::escape(notice)
        ));
    }
    out
}

/// The drift of every source as JSON: `{sources: [...], summary: {...}, notices: [...]}`.
pub fn drift_json(index: &SiteIndex, report: &DriftReport<'_>) -> String {
    to_text(&drift_value(index, report))
}

/// [`drift_json`] with the findings of lint's JSON format `lint_json` (its `diagnostics`)
/// beside the sources.
pub fn drift_json_with(index: &SiteIndex, report: &DriftReport<'_>, lint_json: &str) -> String {
    let mut value = drift_value(index, report);
    let lint: Value = serde_json::from_str(lint_json).unwrap_or_default();
    value["diagnostics"] = lint["diagnostics"].clone();
    to_text(&value)
}

fn drift_value(index: &SiteIndex, report: &DriftReport<'_>) -> Value {
    let sources: Vec<Value> = report
        .sources
        .iter()
        .map(|d| {
            let (file, line) = d.pinned.place(index);
            json!({
                "file": file,
                "line": line,
                "holder": d.pinned.holder.describe(index),
                "repository": d.pinned.repository,
                "commit": d.pinned.commit.value,
                "resolvedCommit": d.commit,
                "path": d.pinned.path(),
                "state": d.state,
                "fixed": d.pinned.source.fixed(),
                "branch": d.branch,
                "head": d.head,
                "fileNow": d.file_now,
                "ranges": d.ranges.iter().map(|r| json!({
                    "pinned": r.pinned.to_string(),
                    "state": r.state,
                    "file": r.file,
                    "now": r.now.map(|n| n.to_string()),
                    "closest": r.closest.as_ref().map(closest_json),
                })).collect::<Vec<_>>(),
                "closest": d.closest.as_ref().map(closest_json),
                "goneIn": d.gone_in,
                "reason": d.reason,
            })
        })
        .collect();
    let summary: serde_json::Map<String, Value> = counts(report.sources.iter().map(|d| d.state))
        .into_iter()
        .map(|(state, n)| (state.as_str().to_string(), json!(n)))
        .collect();
    json!({
        "sources": sources,
        "summary": summary,
        "notices": report.notices,
    })
}

fn closest_json(closest: &Closest) -> Value {
    json!({
        "file": closest.file,
        "lines": closest.lines.map(|l| l.to_string()),
        "differing": closest.differing,
        "of": closest.of,
    })
}

/// One note or support cell in the re-verification queue.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueEntry {
    /// `note` or `cell`.
    pub kind: &'static str,
    /// The note's id, or the client's.
    pub id: String,
    /// The support cell's capability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// Where to update `lastVerified` once re-read: its line, or the holder's.
    pub file: String,
    pub line: usize,
    pub last_verified: Option<String>,
    /// Days from `lastVerified` to today (`None` when it is missing or not a date).
    pub age_days: Option<i64>,
    /// The most drifted of its sources (`None`: no source is pinned to a commit).
    pub state: Option<State>,
    /// Pinned sources, and how many of them are not as pinned (moved, changed, gone, broken).
    /// A `pin: fixed` source whose lines drifted counts as unchanged: its commit is the point.
    pub pinned: usize,
    pub drifted: usize,
    /// How many of its sources say `pin: fixed` and drifted (reported, not queued).
    pub fixed: usize,
    /// `lastVerified` is missing, or older than `lint.staleAfterDays`.
    pub stale: bool,
    /// A person must read it again: a source is broken, gone or changed, or it is stale
    /// (sources that only moved are re-pinned by `sources bump`).
    pub needs_person: bool,
}

impl QueueEntry {
    /// Queue order: what needs a person first; then broken, gone, changed, moved,
    /// unchecked, the rest; within each, the longest unverified first (no date at all before
    /// any date).
    fn order(&self) -> (bool, u8, i64) {
        let rank = match self.state {
            Some(State::Broken) => 0,
            Some(State::Gone) => 1,
            Some(State::Changed) => 2,
            Some(State::Moved) => 3,
            Some(State::Unchecked) => 4,
            Some(State::Unchanged) | None => 5,
        };
        (!self.needs_person, rank, -self.age_days.unwrap_or(i64::MAX))
    }
}

/// The re-verification queue: every current note (superseded and retracted ones are not
/// re-read) and every support cell, in [`QueueEntry::order`].
pub fn queue(index: &SiteIndex, report: &DriftReport<'_>, today: NaiveDate) -> Vec<QueueEntry> {
    let stale_after = i64::from(index.config.lint.stale_after_days);
    let mut states: BTreeMap<Holder, Vec<State>> = BTreeMap::new();
    let mut fixed: BTreeMap<Holder, usize> = BTreeMap::new();
    for d in &report.sources {
        states
            .entry(d.pinned.holder)
            .or_default()
            .push(d.queued_state());
        *fixed.entry(d.pinned.holder).or_default() += usize::from(d.fixed_drift());
    }
    let content = &index.content;
    let mut entries: Vec<QueueEntry> = Holder::all(index)
        .filter(|h| match h {
            Holder::Note(n) => {
                !matches!(text(&content.notes[*n].status), "superseded" | "retracted")
            }
            Holder::Cell { .. } => true,
            // A vendor's claim, not this site's: drift shows it, nobody here re-verifies it.
            Holder::Report(_) => false,
        })
        .map(|holder| {
            let states = states.get(&holder).map(Vec::as_slice).unwrap_or_default();
            let drifted = states.iter().filter(|s| s.drifted()).count();
            let worst_drift = states.iter().copied().filter(|s| s.drifted()).max();
            let unchecked = states
                .contains(&State::Unchecked)
                .then_some(State::Unchecked);
            let state = worst_drift
                .or(unchecked)
                .or_else(|| (!states.is_empty()).then_some(State::Unchanged));
            let verified = holder.last_verified(index);
            let (kind, id, capability, span) = match holder {
                Holder::Note(n) => {
                    let note = &content.notes[n];
                    let start = crate::text_file::Span::file_start(note.doc.file);
                    ("note", doc_id(&note.id, &note.doc), None, start)
                }
                Holder::Cell { client, cell } => {
                    let c = &content.clients[client];
                    let cell = &c.support[cell];
                    let capability = Some(cell.capability.value.clone());
                    ("cell", doc_id(&c.id, &c.doc), capability, cell.span)
                }
                Holder::Report(r) => {
                    let report = &content.reports[r];
                    let capability = Some(report.cell.capability.value.clone());
                    (
                        "report",
                        report.client.value.as_str(),
                        capability,
                        report.cell.span,
                    )
                }
            };
            let span = verified.map_or(span, |v| v.span);
            let file = &index.files[span.file];
            let age_days = verified
                .and_then(|v| parse_date(&v.value))
                .map(|d| (today - d).num_days());
            let stale = age_days.is_none_or(|age| age > stale_after);
            let needs_person = stale || states.iter().any(|s| s.needs_person());
            QueueEntry {
                kind,
                id: id.to_string(),
                capability,
                file: file.display_path(),
                line: file.line_col(span.start).line,
                last_verified: verified.map(|v| v.value.clone()),
                age_days,
                state,
                pinned: states.len(),
                drifted,
                fixed: fixed.get(&holder).copied().unwrap_or_default(),
                stale,
                needs_person,
            }
        })
        .collect();
    entries.sort_by_key(QueueEntry::order);
    entries
}

/// The queue as an aligned table.
pub fn queue_table(entries: &[QueueEntry]) -> String {
    let rows: Vec<[String; 6]> = entries
        .iter()
        .map(|e| {
            let what = match &e.capability {
                Some(capability) => format!("cell {} / {capability}", e.id),
                None => format!("note {}", e.id),
            };
            [
                e.state.map_or("-", State::as_str).to_string(),
                format!("{}/{}", e.drifted, e.pinned),
                e.age_days.map_or("?".to_string(), |d| format!("{d} d")),
                what,
                format!("{}:{}", e.file, e.line),
                e.last_verified.clone().unwrap_or_else(|| "-".to_string()),
            ]
        })
        .collect();
    let header = ["STATE", "DRIFTED", "AGE", "WHAT", "WHERE", "LAST VERIFIED"].map(str::to_string);
    let mut out = table(&header, &rows);
    let count = QueueCount::of(entries);
    out.push_str(&format!(
        "{} to re-verify by a person ({} broken, {} gone, {} changed, {} stale); {} only \
         moved (`fieldnotes sources bump` re-pins them); {} could not be checked\n",
        count.need_person,
        count.broken,
        count.gone,
        count.changed,
        count.stale,
        count.moved,
        count.unchecked
    ));
    out
}

/// What the queue holds, by what it needs.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueCount {
    /// Entries a person must read again; of them, those with a broken pin, a source gone or
    /// changed (the worst counted), or only stale.
    pub need_person: usize,
    pub broken: usize,
    pub gone: usize,
    pub changed: usize,
    pub stale: usize,
    /// Entries whose sources only moved, and are not stale.
    pub moved: usize,
    /// Entries with a source that could not be checked and nothing else to do.
    pub unchecked: usize,
}

impl QueueCount {
    pub fn of(entries: &[QueueEntry]) -> QueueCount {
        let mut count = QueueCount::default();
        for entry in entries {
            let tally = match (entry.needs_person, entry.state) {
                (true, Some(State::Broken)) => &mut count.broken,
                (true, Some(State::Gone)) => &mut count.gone,
                (true, Some(State::Changed)) => &mut count.changed,
                (true, _) => &mut count.stale,
                (false, Some(State::Moved)) => &mut count.moved,
                (false, Some(State::Unchecked)) => &mut count.unchecked,
                (false, _) => continue,
            };
            *tally += 1;
            count.need_person += usize::from(entry.needs_person);
        }
        count
    }
}

/// The queue as JSON: `{queue: [...], count: {...}}`.
pub fn queue_json(entries: &[QueueEntry]) -> String {
    to_text(&json!({ "queue": entries, "count": QueueCount::of(entries) }))
}

/// Rows under a header, each column as wide as its widest cell, the last one not padded.
/// Cells hold file names and text from repositories and content: their control characters
/// are shown escaped ([`terminal::escape`]).
fn table<const N: usize>(header: &[String; N], rows: &[[String; N]]) -> String {
    let rows: Vec<[String; N]> = rows
        .iter()
        .map(|row| {
            row.each_ref()
                .map(|cell| terminal::escape(cell).into_owned())
        })
        .collect();
    let rows = rows.as_slice();
    let mut widths = [0; N];
    for row in std::iter::once(header).chain(rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < N {
                let pad = widths[i] - cell.chars().count() + 2;
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn to_text(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON serializes");
    text.push('\n');
    text
}
