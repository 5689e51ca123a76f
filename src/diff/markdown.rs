//! The diff as Markdown, for a pull-request comment or a CI job summary: a heading that
//! counts what changed (one line when nothing did), the changes to settings, templates,
//! themes and static files (each one a row: they set the check's rules and what pages run),
//! a small table of changed support cells per client (those with a new status first, the
//! others folded in a `<details>`), then notes, pins, clients and capabilities.
//!
//! Inert and sized for GitHub ([`super::inert`]): every id, title, path and value from
//! the pull request is a code span with its controls visible, so that nothing from content
//! renders as a link, image, mention, autolink or tag; the whole keeps within a byte cap
//! (rows past it are counted in an "N more" line) and its `<details>` is always closed.

use super::inert::{self, Budget};
use super::model::{CellChange, CellEvidence, Named, Settings, SiteDiff};
use crate::index::evidence::Method;
use crate::provenance::short;

/// Most rows a table lists; the rest are counted.
pub(crate) const MAX_ROWS: usize = 100;

/// The whole diff as Markdown, at most `cap` bytes.
pub(crate) fn render(diff: &SiteDiff, cap: usize) -> String {
    let base = code(short(&diff.base));
    if diff.is_empty() {
        return format!(
            "### fieldnotes diff: no change to support cells, notes, pins, clients or \
             capabilities since {base}\n"
        );
    }
    let notes = &diff.notes;
    let settings = diff.settings.keys.len() + diff.settings.files.len();
    let counts = [
        (settings, "setting or site file"),
        (diff.cells.len(), "support cell"),
        (
            notes.added.len() + notes.removed.len() + notes.changed.len(),
            "note",
        ),
        (diff.pins.len(), "pin"),
        (
            diff.clients.added.len() + diff.clients.removed.len(),
            "client",
        ),
        (
            diff.capabilities.added.len() + diff.capabilities.removed.len(),
            "capability",
        ),
    ];
    let mut counted: Vec<String> = (counts.iter())
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| plural(*n, what))
        .collect();
    let statuses = diff.cells.iter().filter(|c| c.before != c.after).count();
    let cells_at = usize::from(settings > 0);
    if let Some(cells) = counted.get_mut(cells_at).filter(|_| !diff.cells.is_empty()) {
        cells.push_str(&format!(" ({statuses} with a new status)"));
    }
    let counted = match counted.is_empty() {
        true => "nothing compared".to_string(),
        false => counted.join(", "),
    };
    let mut out = Budget::new(cap);
    out.push(&format!(
        "### fieldnotes diff: {counted} changed since {base}\n"
    ));
    settings_tables(&mut out, &diff.settings);
    // Cells with a new status first; those whose status stayed folded away below them.
    let (moved, stayed): (Vec<&CellChange>, Vec<&CellChange>) =
        diff.cells.iter().partition(|c| c.before != c.after);
    cells(&mut out, &moved);
    match moved.is_empty() {
        true => cells(&mut out, &stayed),
        false if !stayed.is_empty() => {
            let opened = out.push(&format!(
                "\n<details><summary>{} whose status stayed (evidence, notes or \
                 lastVerified changed)</summary>\n",
                plural(stayed.len(), "support cell")
            ));
            if opened {
                cells(&mut out, &stayed);
                out.close("\n</details>\n");
            }
        }
        false => {}
    }
    note_table(&mut out, diff);
    pin_table(&mut out, diff);
    roster(
        &mut out,
        "Clients",
        &diff.clients.added,
        &diff.clients.removed,
    );
    roster(
        &mut out,
        "Capabilities",
        &diff.capabilities.added,
        &diff.capabilities.removed,
    );
    if !diff.unread.is_empty() {
        out.push("\n**Not read at the base** (what they held is not compared):\n\n");
        for unread in diff.unread.iter().take(MAX_ROWS) {
            out.push(&format!(
                "- {}: {}\n",
                inert::span(&unread.path, 200),
                inert::span(&unread.reason, 300)
            ));
        }
        more(&mut out, diff.unread.len());
    }
    out.finish(
        "rows or tables",
        "`fieldnotes diff --format json` lists them all",
    )
}

/// Appends the settings tables to `out` (nothing when nothing changed).
fn settings_tables(out: &mut Budget, settings: &Settings) {
    if settings.is_empty() {
        return;
    }
    out.push(
        "\n**Settings, templates, themes and static files** (they set this check's rules and \
         what every page runs: review each)\n",
    );
    if !settings.keys.is_empty() {
        out.push("\n| site.yaml key | before | after | |\n| --- | --- | --- | --- |\n");
        for key in settings.keys.iter().take(MAX_ROWS) {
            let side = |value: &Option<String>| value.as_deref().map_or("—".to_string(), code);
            let mark = match key.loosens {
                true => "⚠️ loosens the base's: not used by a check with `--config-from` the base",
                false => "",
            };
            out.push(&format!(
                "| {} | {} | {} | {mark} |\n",
                code(&key.key),
                side(&key.before),
                side(&key.after)
            ));
        }
        more(out, settings.keys.len());
    }
    if !settings.files.is_empty() {
        out.push("\n| file | change | kind |\n| --- | --- | --- |\n");
        for file in settings.files.iter().take(MAX_ROWS) {
            out.push(&format!(
                "| {} | {} | {} |\n",
                code(&file.path),
                file.change,
                file.kind
            ));
        }
        more(out, settings.files.len());
    }
}

/// `n thing` or `n things`.
fn plural(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "capability") => format!("{n} capabilities"),
        (_, "setting or site file") => format!("{n} settings or site files"),
        _ => format!("{n} {what}s"),
    }
}

/// One table per client of `cells`.
fn cells(out: &mut Budget, cells: &[&CellChange]) {
    let mut client = None;
    for cell in cells.iter().take(MAX_ROWS) {
        if client != Some(&cell.client) {
            client = Some(&cell.client);
            let name = link(&code(&cell.client), cell.client_url.as_deref());
            out.push(&format!(
                "\n{} {name}\n\n| capability | before | after | evidence | changed |\n\
                 | --- | --- | --- | --- | --- |\n",
                text(&cell.client_title)
            ));
        }
        let capability = link(&code(&cell.capability), cell.capability_url.as_deref());
        let after = match cell.before == cell.after {
            true => cell.after.to_string(),
            false => format!("**{}**", cell.after),
        };
        let after = link(&after, cell.url.as_deref());
        out.push(&format!(
            "| {capability} {} | {} | {after} | {} | {} |\n",
            text(&cell.capability_title),
            cell.before,
            evidence(&cell.evidence.before, &cell.evidence.after),
            cell.changed.join(", ")
        ));
    }
    more(out, cells.len());
}

/// How a cell's evidence reads: its method after (and before, when that differs), and how
/// many citations came and went.
fn evidence(before: &CellEvidence, after: &CellEvidence) -> String {
    let (was, is) = (method(before), method(after));
    let mut out = match was == is {
        true => is,
        false => format!("{was} → {is}"),
    };
    let cited = [
        ("source", delta(&before.sources, &after.sources)),
        ("note", delta(&before.research, &after.research)),
        (
            "observation",
            delta(&before.observations, &after.observations),
        ),
    ];
    let parts: Vec<String> = (cited.iter())
        .filter(|(_, (new, gone))| new + gone > 0)
        .map(|(what, (new, gone))| {
            let signs = [(*new, '+'), (*gone, '−')];
            let counts: Vec<String> = (signs.iter())
                .filter(|(n, _)| *n > 0)
                .map(|(n, sign)| format!("{sign}{n}"))
                .collect();
            let what = match new.max(gone) {
                1 => what.to_string(),
                _ => format!("{what}s"),
            };
            format!("{} {what}", counts.join(" "))
        })
        .collect();
    if !parts.is_empty() {
        out.push_str(&format!(" ({})", parts.join(", ")));
    }
    out
}

/// How many items `after` has that `before` has not, and the other way round (each item
/// counted as often as it is listed).
fn delta<T: PartialEq>(before: &[T], after: &[T]) -> (usize, usize) {
    let missing = |from: &[T], in_: &[T]| {
        let mut left: Vec<&T> = in_.iter().collect();
        from.iter()
            .filter(|item| match left.iter().position(|l| l == item) {
                Some(at) => {
                    left.swap_remove(at);
                    false
                }
                None => true,
            })
            .count()
    };
    (missing(after, before), missing(before, after))
}

/// The method of a cell's evidence, with its commit or version.
fn method(evidence: &CellEvidence) -> String {
    let e = &evidence.summary;
    let version = e
        .version
        .as_deref()
        .map(|v| format!(" {}", code(v)))
        .unwrap_or_default();
    match e.method {
        Method::Source => match &e.commit {
            Some(commit) => format!("source {}", code(short(commit))),
            None => "source".to_string(),
        },
        Method::Observed => format!("observed{version}"),
        Method::Docs => format!("docs{version}"),
        Method::Reported => "reported".to_string(),
        Method::None => "none".to_string(),
    }
}

fn note_table(out: &mut Budget, diff: &SiteDiff) {
    let notes = &diff.notes;
    let total = notes.added.len() + notes.removed.len() + notes.changed.len();
    if total == 0 {
        return;
    }
    out.push("\n**Notes**\n\n| note | change |\n| --- | --- |\n");
    let added = (notes.added.iter()).map(|n| {
        let status = match n.status.as_str() {
            "current" => String::new(),
            status => format!(" ({})", text(status)),
        };
        (
            link(&code(&n.id), n.url.as_deref()),
            &n.title,
            format!("added{status}"),
        )
    });
    let removed = (notes.removed.iter()).map(|n| (code(&n.id), &n.title, "removed".to_string()));
    let changed = notes.changed.iter().map(|n| {
        let mut change = match (&n.status, n.retired) {
            (Some(status), true) => format!("retired: {}", text(&status.after)),
            (Some(status), false) => {
                format!("status {} → {}", text(&status.before), text(&status.after))
            }
            (None, _) => "changed".to_string(),
        };
        if let Some(by) = &n.superseded_by {
            change.push_str(&format!(" by {}", code(by)));
        }
        change.push_str(&format!(" ({})", n.fields.join(", ")));
        (link(&code(&n.id), n.url.as_deref()), &n.title, change)
    });
    for (note, title, change) in added.chain(changed).chain(removed).take(MAX_ROWS) {
        out.push(&format!("| {note} {} | {change} |\n", text(title)));
    }
    more(out, total);
}

fn pin_table(out: &mut Budget, diff: &SiteDiff) {
    if diff.pins.is_empty() {
        return;
    }
    out.push(
        "\n**Pins bumped**\n\n| where | source | before | after |\n| --- | --- | --- | --- |\n",
    );
    for pin in diff.pins.iter().take(MAX_ROWS) {
        let place = match (&pin.note, &pin.client, &pin.capability) {
            (Some(note), _, _) => format!("note {}", code(note)),
            (None, Some(client), Some(cap)) => format!("{} · {}", code(client), code(cap)),
            _ => String::new(),
        };
        let repository = (pin.repository.as_deref())
            .map(|r| {
                format!(
                    " in {}",
                    code(r.split_once("://").map_or(r, |(_, rest)| rest))
                )
            })
            .unwrap_or_default();
        let path = match pin.before.path == pin.after.path {
            true => code(&pin.after.path),
            false => format!("{} → {}", code(&pin.before.path), code(&pin.after.path)),
        };
        out.push(&format!(
            "| {place} | {path}{repository} | {} | {} |\n",
            code(short(&pin.before.commit)),
            code(short(&pin.after.commit))
        ));
    }
    more(out, diff.pins.len());
}

fn roster(out: &mut Budget, what: &str, added: &[Named], removed: &[Named]) {
    for (list, verb) in [(added, "added"), (removed, "removed")] {
        if list.is_empty() {
            continue;
        }
        let names: Vec<String> = (list.iter().take(MAX_ROWS))
            .map(|n| {
                format!(
                    "{} {}",
                    link(&inert::span(&n.id, 200), n.url.as_deref()),
                    inert::span(&n.title, 120)
                )
            })
            .collect();
        out.push(&format!("\n**{what} {verb}**: {}\n", names.join(", ")));
        more(out, list.len());
    }
}

/// The line saying how many rows past [`MAX_ROWS`] were left out.
fn more(out: &mut Budget, total: usize) {
    if total > MAX_ROWS {
        out.close(&format!(
            "\n…and {} more: `fieldnotes diff --format json` lists them all.\n",
            total - MAX_ROWS
        ));
    }
}

/// `label` linking to `url` when there is one (the URL is one [`super::links::Preview`]
/// made: nothing in it ends the link).
fn link(label: &str, url: Option<&str>) -> String {
    match url {
        Some(url) => format!("[{label}]({url})"),
        None => label.to_string(),
    }
}

/// Text from the pull request (a title, a status) in a table cell: an inert code span of at
/// most 120 characters.
fn text(text: &str) -> String {
    inert::cell(text, 120)
}

/// An id, path, version or value from the pull request in a table cell: an inert code span
/// of at most 200 characters.
fn code(text: &str) -> String {
    inert::cell(text, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_text_opens_nothing() {
        let shown = text("a [x](javascript:y) <b>|@me\n#1 www.x.io \u{202e}");
        assert_eq!(
            shown,
            "`a [x](javascript:y) <b>\\|@me #1 www.x.io <U+202E>`"
        );
        inert::assert_inert(&format!("| a |\n| --- |\n| {shown} |\n"));
        assert_eq!(code("a`b|c\nd"), "``a`b\\|c d``");
        assert_eq!(text(&"x".repeat(200)).chars().count(), 123);
    }
}
