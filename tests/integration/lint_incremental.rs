//! Tests: `lint_notes`, the lint `fieldnotes serve` runs after edits to research notes, gives
//! what a full lint gives: after every lint fixture's edits to notes, after hand-made edits that
//! reach other notes and clients, and around the cap on "did you mean" suggestions. So does
//! `lint_bodies`, its lint after edits to bodies alone, after each body of every lint fixture is
//! edited: which checks each rule's `reads`.

use crate::lint_rules::{compact, lint_site};
use crate::support::{copy_dir, fixtures, today, TestSite};
use fieldnotes::index::SiteIndex;
use fieldnotes::lint::{lint, lint_bodies, lint_note_bodies, lint_notes};
use fieldnotes::parse::frontmatter::{split, Split};
use fieldnotes::text_file::FileId;
use std::fs;
use std::path::Path;

/// A file's new bytes, by its path relative to the site root.
type Edit = (String, Vec<u8>);

/// The note every fixture's `_base` has.
const BASE_NOTE: &str = "content/research/cline-reads-the-type-key.md";

fn open(site: &TestSite) -> SiteIndex {
    fieldnotes::open(site.root()).expect("site opens")
}

/// The file ids of `paths` in `index`.
fn file_ids(index: &SiteIndex, paths: &[String]) -> Vec<FileId> {
    let ids: Vec<FileId> = (index.files.iter().enumerate())
        .filter(|(_, f)| paths.contains(&f.display_path()))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(ids.len(), paths.len(), "every edited file is in the site");
    ids
}

/// Checks `lint_notes` against `lint` after `edits` (path → bytes, all research notes) are
/// written over `site`, then again after the site is put back as it was.
fn check_both_ways(site: &TestSite, edits: &[Edit], label: &str) {
    let paths: Vec<String> = edits.iter().map(|(path, _)| path.clone()).collect();
    let originals: Vec<Edit> = (paths.iter())
        .map(|p| {
            (
                p.clone(),
                fs::read(site.root().join(p)).expect("edited file"),
            )
        })
        .collect();
    let mut previous = lint(&open(site), today()).expect("lint");
    for (direction, writes) in [("forward", edits), ("back", &originals[..])] {
        for (path, bytes) in writes {
            fs::write(site.root().join(path), bytes).expect("write");
        }
        let index = open(site);
        let full = lint(&index, today()).expect("lint");
        let edited = file_ids(&index, &paths);
        let incremental = lint_notes(&index, today(), &previous, &edited).expect("lint_notes");
        assert!(
            incremental == full,
            "{label}, {direction}: lint_notes gave\n{}\nlint gave\n{}",
            compact(&incremental),
            compact(&full)
        );
        previous = full;
    }
}

/// Every file under `dir`, by `/`-separated path relative to it.
fn files_of(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk fixture"))
        .filter(|e| e.file_type().is_file())
        .map(|e| fieldnotes::text_file::display_path(e.path().strip_prefix(dir).expect("under")))
        .collect()
}

/// The base note made over into another one, named by the file name of `path`.
fn plain_note(path: &str) -> Vec<u8> {
    let stem = Path::new(path).file_stem().expect("stem").to_string_lossy();
    let base = fs::read_to_string(fixtures().join("lint/_base").join(BASE_NOTE)).expect("base");
    base.replace("cline-reads-the-type-key", &stem)
        .replace(
            "title: Cline picks",
            &format!("title: In {stem}, Cline picks"),
        )
        .into_bytes()
}

/// Each lint fixture as an edit to notes: its site is `_base` with the fixture copied over it;
/// before the edit, each research note the fixture changes is `_base`'s, and each it adds is a
/// plain note of that name. What else the fixture changes (clients, capabilities, guides,
/// `site.yaml`) is there both before and after: `serve` lints anew after edits to those.
#[test]
fn lint_notes_equals_lint_for_every_fixture_edit() {
    let mut edited_notes = 0;
    for entry in fs::read_dir(fixtures().join("lint")).expect("fixtures") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.starts_with('_') {
            continue;
        }
        let overlay = fixtures().join("lint").join(&name);
        let notes: Vec<String> = files_of(&overlay)
            .into_iter()
            .filter(|p| p.starts_with("content/research/"))
            .collect();
        let site = TestSite::fixture("lint/_base");
        copy_dir(&overlay, site.root());
        let edits: Vec<Edit> = (notes.iter())
            .map(|p| (p.clone(), fs::read(site.root().join(p)).expect("note")))
            .collect();
        for path in &notes {
            let base = fixtures().join("lint/_base").join(path);
            let before = fs::read(&base).unwrap_or_else(|_| plain_note(path));
            fs::write(site.root().join(path), before).expect("write");
        }
        check_both_ways(&site, &edits, &name);
        edited_notes += edits.len();
    }
    assert!(edited_notes >= 40, "only {edited_notes} notes edited");
}

/// `_base` with two more notes that list each other (and the base note) as related.
fn three_notes() -> TestSite {
    let site = TestSite::fixture("lint/_base");
    for (id, related) in [
        (
            "second-note",
            "  - third-note\n  - cline-reads-the-type-key\n",
        ),
        ("third-note", "  - second-note\n"),
    ] {
        let path = format!("content/research/{id}.md");
        let text = String::from_utf8(plain_note(&path)).expect("utf-8");
        let text = text.replace("canonical:", &format!("related:\n{related}canonical:"));
        site.write(&path, &text);
    }
    site
}

/// Writes `replace`'s pairs into note `id` (each must occur).
fn edit(site: &TestSite, id: &str, replace: &[(&str, &str)]) -> Edit {
    let path = format!("content/research/{id}.md");
    let mut text = fs::read_to_string(site.root().join(&path)).expect("note");
    for (from, to) in replace {
        assert!(text.contains(from), "{id} has no `{from}`");
        text = text.replacen(from, to, 1);
    }
    (path, text.into_bytes())
}

#[test]
fn lint_notes_equals_lint_after_edits_that_reach_other_files() {
    let site = three_notes();
    let base = "cline-reads-the-type-key";
    let cases: Vec<(&str, Vec<Edit>)> = vec![
        (
            "a new id: the client citing it and a note relating to it",
            vec![edit(
                &site,
                base,
                &[("id: cline-reads", "id: cline-reading")],
            )],
        ),
        (
            "the id of another note",
            vec![edit(&site, "second-note", &[("id: second", "id: third")])],
        ),
        (
            "the title of another note",
            vec![edit(
                &site,
                "second-note",
                &[("title: In second-note, ", "title: ")],
            )],
        ),
        (
            "an unknown client, kind and capability",
            vec![edit(
                &site,
                "third-note",
                &[
                    ("  - cline\n", "  - clien\n  - no-such-client\n"),
                    ("kind: default-behaviour", "kind: default-behavior"),
                    ("  - transports.sse\n", "  - transports.ssee\n"),
                ],
            )],
        ),
        (
            "related to a missing note, and to one that does not relate back",
            vec![edit(
                &site,
                base,
                &[(
                    "canonical:",
                    "related:\n  - no-such-note\n  - third-note\ncanonical:",
                )],
            )],
        ),
        (
            "no longer related back",
            vec![edit(
                &site,
                "third-note",
                &[("  - second-note\n", "  - third-note\n")],
            )],
        ),
        (
            "superseded without a successor, then by a missing one",
            vec![
                edit(
                    &site,
                    "second-note",
                    &[("status: current", "status: superseded")],
                ),
                edit(
                    &site,
                    "third-note",
                    &[(
                        "status: current",
                        "status: superseded\nsupersededBy: fourth-note",
                    )],
                ),
            ],
        ),
        (
            "superseded by a note the edit does not touch",
            vec![edit(
                &site,
                base,
                &[(
                    "status: current",
                    "status: superseded\nsupersededBy: third-note",
                )],
            )],
        ),
        (
            "dates in the future",
            vec![edit(
                &site,
                base,
                &[
                    ("lastVerified: 2026-11-30", "lastVerified: 2027-01-01"),
                    ("date: 2026-11-20", "date: 2026-12-24"),
                ],
            )],
        ),
        (
            "links to a missing note and to a missing anchor of another",
            vec![edit(
                &site,
                "second-note",
                &[(
                    "see [Cline]",
                    "see [x](/research/no-note.md), [y](/research/third-note.md#nope), [Cline]",
                )],
            )],
        ),
        (
            "front matter that no longer parses",
            vec![edit(&site, "third-note", &[("title: ", "title: [")])],
        ),
    ];
    for (label, edits) in cases {
        check_both_ways(&site, &edits, label);
    }
}

#[test]
fn lint_notes_applies_severities_from_site_yaml() {
    let site = three_notes();
    let config = fs::read_to_string(site.root().join("site.yaml")).expect("config");
    let rules = "lint:\n  rules:\n    FN203: warning\n    duplicate-title: off\n";
    site.write("site.yaml", &config.replace("lint:\n", rules));
    let edits = [
        edit(&site, "second-note", &[("  - cline\n", "  - clien\n")]),
        edit(
            &site,
            "third-note",
            &[("title: In third-note, ", "title: ")],
        ),
    ];
    check_both_ways(&site, &edits, "an unknown client, a duplicate title");
}

/// A site whose `count` notes each name the client `clien` (`cline` misspelt).
fn misspelt_clients(count: usize) -> TestSite {
    let site = TestSite::fixture("lint/_base");
    for n in 0..count {
        let path = format!("content/research/note-{n:03}.md");
        let text = String::from_utf8(plain_note(&path)).expect("utf-8");
        site.write(&path, &text.replace("  - cline\n", "  - clien\n"));
    }
    site
}

/// Past 100 findings, a rule's "did you mean" help gives way to generic advice, so which
/// findings get one depends on the others: these edits cross that line both ways.
#[test]
fn lint_notes_equals_lint_around_the_cap_on_suggestions() {
    for count in [99, 100, 101] {
        let site = misspelt_clients(count);
        let fixed = edit(&site, "note-000", &[("  - clien\n", "  - cline\n")]);
        check_both_ways(&site, &[fixed], &format!("{count} misspelt, one fixed"));
        let both = edit(
            &site,
            "note-001",
            &[("  - clien\n", "  - clien\n  - clien\n")],
        );
        check_both_ways(&site, &[both], &format!("{count} misspelt, one more"));
    }
}

#[test]
fn an_edited_file_that_is_not_a_note_gives_a_full_lint() {
    let site = three_notes();
    let index = open(&site);
    let client = file_ids(&index, &["content/clients/cline.md".to_string()]);
    let full = lint(&index, today()).expect("lint");
    let incremental = lint_notes(&index, today(), &[], &client).expect("lint_notes");
    assert_eq!(incremental, full);
}

/// A body in which every rule that reads bodies finds something: a broken link, a missing
/// anchor, a script URL, a link above the root, raw HTML, a placeholder.
const TROUBLED_BODY: &str = "\n# Edited\n\n[gone](/research/no-such-note.md) [here](#nowhere) \
    [script](javascript:alert(1)) [up](../../../../../../outside.md) <b>raw</b> TODO\n";

/// Whether `index` read the file at `path` (relative to the root) as `text` (a file over
/// `limits.maxFileBytes` it does not read at all: an edit across that line is no body edit).
fn read_as(index: &SiteIndex, path: &str, text: &str) -> bool {
    (index.files.iter()).any(|f| f.display_path() == path && f.text == text)
}

/// Each content file of every lint fixture (and of `_base`) gets [`TROUBLED_BODY`] below its
/// front matter, then its own body back; after each edit `lint_bodies`, which takes the
/// findings of the rules that read front matter alone (`Reads::FrontMatter`) from the lint
/// before, must give what a full lint gives; so must `lint_note_bodies` (which lints an edited
/// research note's body alone with the note-local rules) after each edit to a note.
#[test]
fn lint_bodies_equals_lint_for_every_body_edit() {
    let (mut edited, mut notes) = (0, 0);
    for entry in fs::read_dir(fixtures().join("lint")).expect("fixtures") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let site = lint_site(&name);
        let mut previous = lint(&open(&site), today()).expect("lint");
        for path in files_of(&site.root().join("content")) {
            let path = format!("content/{path}");
            let Ok(text) = fs::read_to_string(site.root().join(&path)) else {
                continue;
            };
            let Split::Found { body, .. } = split(&text) else {
                continue;
            };
            let troubled = format!("{}{TROUBLED_BODY}", &text[..body.start]);
            if !read_as(&open(&site), &path, &text) {
                continue;
            }
            site.write(&path, &troubled);
            if !read_as(&open(&site), &path, &troubled) {
                site.write(&path, &text);
                continue;
            }
            for (direction, now) in [("forward", &troubled), ("back", &text)] {
                site.write(&path, now);
                let index = open(&site);
                let full = lint(&index, today()).expect("lint");
                let incremental = lint_bodies(&index, today(), &previous).expect("lint_bodies");
                assert!(
                    incremental == full,
                    "{name}, {path}, {direction}: lint_bodies gave\n{}\nlint gave\n{}",
                    compact(&incremental),
                    compact(&full)
                );
                if path.starts_with("content/research/") {
                    let edited = file_ids(&index, std::slice::from_ref(&path));
                    let incremental = lint_note_bodies(&index, today(), &previous, &edited)
                        .expect("lint_note_bodies");
                    assert!(
                        incremental == full,
                        "{name}, {path}, {direction}: lint_note_bodies gave\n{}\nlint gave\n{}",
                        compact(&incremental),
                        compact(&full)
                    );
                    notes += 1;
                }
                previous = full;
            }
            edited += 1;
        }
    }
    assert!(edited >= 100, "only {edited} bodies edited");
    assert!(notes >= 100, "only {notes} note bodies edited");
}
