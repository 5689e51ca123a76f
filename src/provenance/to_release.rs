//! Against the newest release: each source in a client's own repository (one whose client
//! names `releaseTags`) compared with the commit of that client's newest release, not with
//! the default branch's head (`sources drift --release`, `sources bump --release`).
//!
//! Releases are often tagged on a release branch, off the default branch's first-parent
//! line, so the history drift follows does not lead there; each pinned block is looked for
//! in the same file at the release commit instead: unchanged (same lines), moved (as it was,
//! elsewhere in the file), changed (not as it was: the closest lines), or gone (the file is
//! not in the release). The answer is a [`DriftReport`] whose `branch` is the release's tag
//! and `head` its commit, so the drift table and [`super::bump`] read it as they read drift.

use super::branch::blob;
use super::cache::Cache;
use super::compare::start;
use super::locate::Text;
use super::pin::LineRange;
use super::release::{self, Release, Tags};
use super::verdict::{Closest, Drift, DriftReport, RangeDrift, State};
use super::verify::{checkable, Problem};
use super::{pinned, Pinned};
use crate::index::SiteIndex;
use std::collections::HashMap;

/// Every source in a client's own repository compared with that client's newest release.
pub fn drift_to_release<'a>(index: &'a SiteIndex, cache: &mut Cache) -> DriftReport<'a> {
    let mut report = DriftReport::default();
    let mut tags: HashMap<String, Tags> = HashMap::new();
    for pin in pinned(index) {
        let Some((_, _, pattern)) = release::client_pin(index, &pin) else {
            continue;
        };
        let drift = match against_newest(&pin, pattern, cache, &mut tags) {
            Ok(drift) => drift,
            Err(problem) => Drift::unready(pin, problem),
        };
        report.sources.push(drift);
    }
    report
}

/// One source compared with the newest release `pattern` names in its repository.
fn against_newest<'a>(
    pin: &Pinned<'a>,
    pattern: &str,
    cache: &mut Cache,
    tags: &mut HashMap<String, Tags>,
) -> Result<Drift<'a>, Problem> {
    let url = checkable(pin)?.to_string();
    let repo = cache.repo(&url).map_err(Problem::NotChecked)?;
    let ready = start(pin, repo)?;
    let tags = tags.entry(url).or_default();
    let newest: Release = (tags.releases(repo, pattern).map_err(Problem::NotChecked)?)
        .last()
        .cloned()
        .ok_or_else(|| Problem::NotChecked(format!("the clone has no release tag `{pattern}`")))?;
    let file = pin.file.trim_start_matches('/');
    let text = match blob(repo, &newest.commit, file).map_err(Problem::NotChecked)? {
        Some(data) => Some(Text::read(&data).map_err(Problem::NotChecked)?),
        None => None,
    };
    let mut drift = Drift::unchecked(pin.clone(), String::new());
    drift.reason = None;
    drift.commit = Some(ready.commit.clone());
    drift.branch = Some(newest.tag.clone());
    drift.head = Some(newest.commit.clone());
    let Some(text) = text else {
        drift.state = State::Gone;
        drift.reason = Some(format!("`{file}` is not in release {}", newest.tag));
        return Ok(drift);
    };
    drift.file_now = Some(file.to_string());
    if pin.ranges.is_empty() {
        drift.state = match text.is(&ready.blocks[0]) {
            true => State::Unchanged,
            false => State::Changed,
        };
        return Ok(drift);
    }
    // Where the blocks before this one went: a block that stands in several places is
    // looked for nearest to where it would be had it moved with them.
    let mut shift: isize = 0;
    for (range, block) in pin.ranges.iter().zip(&ready.blocks) {
        let near = range.start().saturating_add_signed(shift).max(1);
        let found = text.find(block, near);
        if let Some(at) = found {
            shift = at as isize - range.start() as isize;
        }
        let now = found.and_then(|at| LineRange::new(at, at + block.len() - 1));
        let state = match now {
            Some(now) if now == *range => State::Unchanged,
            Some(_) => State::Moved,
            None => State::Changed,
        };
        drift.ranges.push(RangeDrift {
            pinned: *range,
            state,
            file: now.map(|_| file.to_string()),
            now,
            closest: now.is_none().then(|| {
                let found = text.closest(block, near);
                Closest {
                    file: file.to_string(),
                    lines: found.as_ref().and_then(|c| LineRange::new(c.start, c.end)),
                    differing: found.map_or(block.len(), |c| c.of - c.same),
                    of: block.len(),
                }
            }),
        });
    }
    drift.state = (drift.ranges.iter().map(|r| r.state))
        .max()
        .unwrap_or(State::Unchanged);
    Ok(drift)
}
