//! Tests: a source's `path` means the same to lint, `sources verify` and `sources drift`. Each
//! case is a source of one note, pinned to a commit of the widget repository that holds every
//! file named: lint flags it (FN403) exactly when verify and drift do not check it, and when
//! they check it they check the lines lint read.

use super::widget::Widget;
use super::{mapped, TestSite};
use fieldnotes::provenance::drift::{drift, State};
use fieldnotes::provenance::verify::{verify, Problem};
use fieldnotes::provenance::Holder;

/// Paths the parse step refuses, then paths it reads (file and lines), each as written.
const REFUSED: [&str; 8] = [
    "src/transport.py:L10",
    "src/transport.py:20-10",
    "src/transport.py:0-3",
    "src/transport.py:0",
    "src/transport.py:3-",
    "src/transport.py:1-2,",
    "src/transport.py:",
    "C:\\x.py:3",
];
const READ: [&str; 4] = [
    "docs/with space.md:1-2",
    "docs/a:b.md:2",
    "src/transport.py:3-5,9",
    "src/transport.py",
];

/// The note holding one source per case, each pinned to `commit`.
fn note(commit: &str) -> String {
    let sources: String = (REFUSED.iter().chain(&READ))
        .map(|path| {
            format!(
                "  - url: https://git.test/acme/widget\n    title: a case\n    commit: {commit}\n    \
                 path: '{path}'\n    date: 2026-04-01\n"
            )
        })
        .collect();
    format!(
        "---\nid: widget-path-cases\ntitle: Path cases\nkind: default-behaviour\nsummary: Paths.\n\
         capabilities:\n  - transports.sse\nclients:\n  - widget\nspecVersions:\n  - 2025-03-26\n\
         sources:\n{sources}status: current\nlastVerified: 2026-06-01\n---\n\nBody.\n"
    )
}

#[test]
fn lint_verify_and_drift_read_each_path_alike() {
    let widget = Widget::build();
    let repo = &widget.repo;
    repo.write("docs/with space.md", "one\ntwo\nthree\n");
    repo.write("docs/a:b.md", "one\ntwo\n");
    let commit = repo.commit("2026-04-01T10:00:00Z", "paths");
    let site = TestSite::fixture("provenance");
    site.write("content/research/widget-path-cases.md", &note(&commit));

    let index = fieldnotes::open(site.root()).expect("opens");
    let note = index.ids.note("widget-path-cases").expect("the note");
    let sources = &index.content.notes[note].sources;
    let findings = site.lint();
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let verification = verify(&index, &mut mapped(&widget, cache_dir.path()));
    let report = drift(&index, &mut mapped(&widget, cache_dir.path()));
    let mut table = String::new();
    for (position, source) in sources.iter().enumerate() {
        let path = &source.path.as_ref().expect("a path").value;
        let lint: Vec<String> = (findings.iter())
            .filter(|d| d.code == "FN403" && d.span.start >= source.span.start)
            .filter(|d| d.span.end <= source.span.end)
            .map(|d| format!("{}:{}-{} {}", d.line, d.column, d.end_column, d.message))
            .collect();
        let checked = (verification.sources.iter())
            .find(|c| c.pinned.holder == Holder::Note(note) && c.pinned.position == position)
            .expect("verified");
        let compared = (report.sources.iter())
            .find(|d| d.pinned.holder == Holder::Note(note) && d.pinned.position == position)
            .expect("compared");
        let refused = REFUSED.contains(&path.as_str());
        assert_eq!(lint.len(), usize::from(refused), "{path}: lint {lint:?}");
        if refused {
            assert!(
                matches!(&checked.problems[..], [Problem::NotChecked(why)] if why.ends_with("(see FN403)")),
                "{path}: verify {:?}",
                checked.problems
            );
            assert_eq!(compared.state, State::Unchecked, "{path}: drift");
            let reason = compared.reason.as_deref().unwrap_or_default();
            assert!(reason.ends_with("(see FN403)"), "{path}: drift {reason}");
            table.push_str(&format!(
                "{path}\n  lint {}\n  verify and drift: {reason}\n",
                lint[0]
            ));
        } else {
            let read = source
                .location
                .as_ref()
                .expect("read")
                .as_ref()
                .expect("a path");
            assert!(
                checked.problems.is_empty(),
                "{path}: verify {:?}",
                checked.problems
            );
            assert_eq!(compared.state, State::Unchanged, "{path}: drift");
            let pinned: Vec<_> = compared.ranges.iter().map(|r| r.pinned).collect();
            assert_eq!(
                pinned, read.lines,
                "{path}: drift compares the lines lint read"
            );
            assert_eq!(checked.pinned.ranges, read.lines, "{path}: verify");
            table.push_str(&format!(
                "{path}\n  file `{}`, lines {:?}: verify holds, drift unchanged\n",
                read.file,
                (read.lines.iter())
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
            ));
        }
    }
    // In tests/snapshots, as `snapshot!` keeps the snapshots of the tests one folder up.
    insta::with_settings!({ snapshot_path => "../../snapshots" }, {
        insta::assert_snapshot!("source_path_cases", table);
    });
}
