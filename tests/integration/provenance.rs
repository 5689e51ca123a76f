//! Tests: provenance. Pinned sources checked against git repositories that the tests build
//! (fixed names and dates, so every hash is known): `sources verify` findings (FN951–FN955),
//! drift (unchanged, moved, renamed, changed, gone), the re-verification queue, excerpts, and
//! the cache (cloned, fetched, pre-seeded, offline). No network: the repository's URL,
//! `https://git.test/acme/widget`, is mapped to the local repository.

use crate::lint_rules::compact;
use crate::support::{today, TestSite};
use fieldnotes::lint::rules;
use fieldnotes::provenance::cache::{Cache, CacheConfig};
use fieldnotes::provenance::drift::{drift, DriftReport, State};
use fieldnotes::provenance::excerpt::excerpts;
use fieldnotes::provenance::pin::LineRange;
use fieldnotes::provenance::report::{drift_json, queue, queue_table};
use fieldnotes::provenance::verify::verify;
use fieldnotes::provenance::Holder;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use widget::{colliding_commit, git_command, Widget, COLLIDING, V1, V2, WIDGET};

mod bump;
mod ci;
mod fixed;
mod history;
mod hostile;
mod pages;
mod partial;
mod paths;
mod release;
pub(crate) mod widget;

/// The codes `sources verify` reports for the fixture's `widget-broken-pins` note, in order.
const BROKEN: [&str; 5] = ["FN951", "FN952", "FN953", "FN954", "FN955"];

/// The provenance fixture with the widget repository built for it.
pub(crate) fn fixture() -> (TestSite, Widget) {
    (TestSite::fixture("provenance"), Widget::build())
}

/// A cache configuration in which the widget's URL is mapped to the built repository.
fn mapped_config(widget: &Widget, cache_dir: &Path, offline: bool) -> CacheConfig {
    let mut config = CacheConfig::new(cache_dir.to_path_buf());
    config
        .map(&format!("{WIDGET}={}", widget.repo.path().display()))
        .expect("maps");
    config.offline = offline;
    config
}

/// An offline cache in which the widget's URL is mapped to the built repository.
fn mapped(widget: &Widget, cache_dir: &Path) -> Cache {
    Cache::new(mapped_config(widget, cache_dir, true))
}

/// Options for a build of `site` that reads excerpts through a cache with the widget mapped.
pub(crate) fn build_with_excerpts(
    site: &TestSite,
    widget: &Widget,
    cache_dir: &Path,
    offline: bool,
) -> fieldnotes::BuildOptions {
    let mut options = fieldnotes::BuildOptions::new(site.root().to_path_buf(), site.out());
    options.today = today();
    options.excerpts = Some(mapped_config(widget, cache_dir, offline));
    options
}

/// Runs `fieldnotes sources <command>` on `site` with the widget's URL mapped to `widget`,
/// offline, with a fresh cache.
pub(crate) fn sources_offline(site: &TestSite, widget: &Widget, command: &[&str]) -> Output {
    let cache = tempfile::tempdir().expect("temp dir");
    let repo = format!("{WIDGET}={}", widget.repo.path().display());
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let mut args = vec!["sources"];
    args.extend(command);
    args.extend(["--repo", &repo, "--cache", &cache_arg, "--offline"]);
    run(site.root(), &args)
}

/// The findings `sources verify` makes with the widget mapped (the cache folder, which
/// messages name, written `[cache]`).
fn verify_findings(site: &TestSite, widget: &Widget) -> Vec<fieldnotes::Diagnostic> {
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let verification = verify(&index, &mut mapped(widget, cache_dir.path()));
    let mut findings = fieldnotes::lint::lint_sources(&index, &verification).expect("runs");
    let cache = cache_dir.path().to_string_lossy().into_owned();
    for d in &mut findings {
        d.message = d.message.replace(&cache, "[cache]");
    }
    findings
}

#[test]
fn verify_reports_each_pin_that_does_not_hold_at_its_line() {
    let (site, widget) = fixture();
    let findings = verify_findings(&site, &widget);
    let file = "content/research/widget-broken-pins.md";
    let at = |d: &fieldnotes::Diagnostic| (d.code, d.file.clone(), d.line, d.column);
    assert_eq!(
        findings.iter().map(at).collect::<Vec<_>>(),
        [
            ("FN951", 15, 13),
            ("FN952", 20, 13),
            ("FN953", 26, 11),
            ("FN954", 31, 11),
            ("FN955", 33, 10),
        ]
        .map(|(code, line, column)| (code, file.to_string(), line, column)),
        "{}",
        compact(&findings)
    );
    let text = compact(&findings);
    assert!(
        text.contains(&format!("`{}`, `{}`", COLLIDING[0], COLLIDING[1])),
        "the ambiguity names both commits: {text}"
    );
    assert!(text.contains("which has 20 lines at commit"), "{text}");
    crate::lint_rules::snapshot!("provenance_verify", text);
}

#[test]
fn verification_rules_are_in_the_table_but_not_in_plain_lint() {
    let (site, _widget) = fixture();
    let plain = site.lint();
    assert!(
        plain.iter().all(|d| !d.code.starts_with("FN95")),
        "{}",
        compact(&plain)
    );
    assert!(plain
        .iter()
        .all(|d| d.severity != fieldnotes::Severity::Error));
    for code in BROKEN {
        let rule = rules::find(code).expect("in the table");
        assert!(!rule.in_lint(), "{code}");
    }
    let out = run(
        site.root(),
        &["lint", "--explain", "source-commit-ambiguous"],
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.starts_with("FN952 source-commit-ambiguous (error)"),
        "{text}"
    );
}

#[test]
fn a_short_hash_of_one_commit_among_other_objects_resolves() {
    let (site, widget) = fixture();
    // A commit and a blob whose hashes share 8 digits (`40cef9ab…`, found by the same kind of
    // search as the colliding commits): git calls the short hash ambiguous, and verification
    // must pick the one commit among the objects rather than report FN952.
    let commit = colliding_commit(&widget.repo, 100708);
    let blob_file = widget.repo.path().join(".git").join("blob-103069");
    fs::write(&blob_file, "blob 103069\n").expect("write");
    let blob_path = blob_file.to_string_lossy().into_owned();
    let blob = widget.repo.git(&["hash-object", "-w", &blob_path]);
    assert_eq!([&commit[..8], &blob[..8]], ["40cef9ab", "40cef9ab"]);
    let note = "content/research/widget-broken-pins.md";
    let text = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &text.replace("commit: 573a7ae\n", "commit: 40cef9a\n"),
    );
    let findings = verify_findings(&site, &widget);
    let codes: Vec<_> = findings.iter().map(|d| (d.code, d.line)).collect();
    assert_eq!(
        codes,
        [
            ("FN951", 15),
            ("FN953", 21),
            ("FN953", 26),
            ("FN954", 31),
            ("FN955", 33)
        ]
    );
    // The commit (of an empty tree) was found: only its path is missing.
    assert!(
        findings[1].message.contains("at commit 40cef9a"),
        "{}",
        findings[1].message
    );
}

/// Each source's drift, by the note holding it and its position there.
fn drift_of<'a>(
    report: &'a DriftReport<'_>,
    index: &fieldnotes::index::SiteIndex,
    id: &str,
) -> Vec<&'a fieldnotes::provenance::drift::Drift<'a>> {
    let note = index.ids.note(id).expect("note");
    report
        .sources
        .iter()
        .filter(|d| d.pinned.holder == Holder::Note(note))
        .collect()
}

fn range(start: usize, end: usize) -> Option<LineRange> {
    LineRange::new(start, end)
}

#[test]
fn drift_tells_unchanged_moved_renamed_changed_and_gone() {
    let (site, widget) = fixture();
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let report = drift(&index, &mut mapped(&widget, cache_dir.path()));
    let one = |id: &str| {
        let sources = drift_of(&report, &index, id);
        let d = sources[0];
        (
            d.state,
            d.file_now.clone(),
            d.ranges.first().and_then(|r| r.now),
        )
    };
    let transport = Some("src/transport.py".to_string());
    assert_eq!(
        one("widget-picks-streamable-http"),
        (State::Moved, transport.clone(), range(8, 11))
    );
    assert_eq!(
        one("widget-default-transport-setting"),
        (
            State::Moved,
            Some("src/settings.py".to_string()),
            range(2, 3)
        )
    );
    assert_eq!(
        one("widget-falls-back-on-rejection"),
        (State::Changed, Some("src/errors.py".to_string()), None)
    );
    assert_eq!(one("widget-documented-sse"), (State::Gone, None, None));
    let current = drift_of(&report, &index, "widget-connects-by-transport");
    assert_eq!(
        current.iter().map(|d| d.state).collect::<Vec<_>>(),
        [State::Unchanged, State::Unchanged]
    );
    assert_eq!(current[0].ranges[1].now, range(14, 17));
    // FN951–FN954 pins are broken; the source FN955 flags could not be checked.
    let broken = drift_of(&report, &index, "widget-broken-pins");
    assert_eq!(
        broken.iter().map(|d| d.state).collect::<Vec<_>>(),
        [
            State::Broken,
            State::Broken,
            State::Broken,
            State::Broken,
            State::Unchecked
        ]
    );
    assert!(broken.iter().all(|d| d.reason.is_some()));
    let cell = report
        .sources
        .iter()
        .find(|d| matches!(d.pinned.holder, Holder::Cell { .. }))
        .expect("the support cell's source");
    assert_eq!(cell.state, State::Unchanged);

    let json: serde_json::Value = serde_json::from_str(&drift_json(&index, &report)).expect("json");
    let moved = json["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .find(|s| s["file"] == "content/research/widget-picks-streamable-http.md")
        .expect("the moved source");
    assert_eq!(moved["state"], "moved");
    assert_eq!(moved["ranges"][0]["now"], "8-11");
    assert_eq!(moved["branch"], "main");
    assert_eq!(moved["head"], V2);
    assert_eq!(json["summary"]["gone"], 1);
    assert_eq!(json["summary"]["broken"], 4);
    assert_eq!(json["summary"]["unchecked"], 1);
}

#[test]
fn the_queue_puts_what_needs_a_person_first_broken_pins_above_all() {
    let (site, widget) = fixture();
    // Verified lately: its source only moved, which `sources bump` fixes without a person.
    let note = "content/research/widget-picks-streamable-http.md";
    let text = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &text.replace("lastVerified: 2026-06-01", "lastVerified: 2026-11-01"),
    );
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let report = drift(&index, &mut mapped(&widget, cache_dir.path()));
    let entries = queue(&index, &report, today());
    let order: Vec<(String, Option<State>, Option<i64>, bool)> = entries
        .iter()
        .map(|e| (e.id.clone(), e.state, e.age_days, e.needs_person))
        .collect();
    let entry = |id: &str, state, age, person| (id.to_string(), Some(state), Some(age), person);
    assert_eq!(
        order,
        [
            entry("widget-broken-pins", State::Broken, 10, true),
            entry("widget-documented-sse", State::Gone, 60, true),
            entry("widget-falls-back-on-rejection", State::Changed, 90, true),
            // Stale (over lint.staleAfterDays, 180), its source moved.
            entry("widget-default-transport-setting", State::Moved, 243, true),
            entry("widget-picks-streamable-http", State::Moved, 29, false),
            entry("widget", State::Unchanged, 152, false),
            entry("widget-connects-by-transport", State::Unchanged, 29, false),
        ]
    );
    assert_eq!(
        entries[5].capability.as_deref(),
        Some("transports.streamableHttp")
    );
    let table = queue_table(&entries);
    assert!(
        table.ends_with(
            "4 to re-verify by a person (1 broken, 1 gone, 1 changed, 1 stale); 1 only moved \
             (`fieldnotes sources bump` re-pins them); 0 could not be checked\n"
        ),
        "{table}"
    );
}

#[test]
fn excerpts_are_the_pinned_lines_at_the_commit() {
    let (site, widget) = fixture();
    let index = fieldnotes::open(site.root()).expect("opens");
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let read = excerpts(&index, &mut mapped(&widget, cache_dir.path()));
    let note = |id: &str| &index.content.notes[index.ids.note(id).expect("note")];
    let picks = read
        .get(&note("widget-picks-streamable-http").sources[0])
        .expect("an excerpt");
    assert_eq!(
        (picks.commit.as_str(), picks.file.as_str()),
        (V1, "src/transport.py")
    );
    assert_eq!(picks.language, "py");
    let lines: Vec<(usize, &str)> = picks.blocks[0]
        .lines
        .iter()
        .map(|l| (l.number, &*l.text))
        .collect();
    assert_eq!(
        lines,
        [
            (5, "def pick_transport(config):"),
            (6, "    if config.get(\"transport\") == \"sse\":"),
            (7, "        return \"sse\""),
            (8, "    return \"streamable-http\""),
        ]
    );
    let two = read
        .get(&note("widget-connects-by-transport").sources[0])
        .expect("an excerpt");
    let starts: Vec<usize> = two.blocks.iter().map(|b| b.start).collect();
    assert_eq!(starts, [8, 14]);
    assert_eq!(
        &*two.blocks[1].lines[0].text,
        "def connect(url, transport):"
    );
    // A whole-file source has no excerpt; each broken one is listed with its reason.
    assert!(read
        .get(&note("widget-connects-by-transport").sources[1])
        .is_none());
    assert_eq!(read.missing.len(), 5);
    let cell = &index.content.clients[0].support[0].sources[0];
    assert_eq!(
        &*read.get(cell).expect("the cell's excerpt").blocks[0].lines[0].text,
        "A tiny MCP client."
    );
}

#[test]
fn build_with_excerpts_reads_them_before_render() {
    let (site, widget) = fixture();
    let cache_dir = tempfile::tempdir().expect("temp dir");
    let options = build_with_excerpts(&site, &widget, cache_dir.path(), false);
    let report = fieldnotes::build(&options).expect("builds");
    assert!(report.written);
    let read = report.excerpts.expect("excerpts were read");
    assert_eq!((read.len(), read.missing.len()), (6, 5));
    // The note page shows the pinned lines under the source link, numbered as in the file.
    let html = site.output("research/widget-picks-streamable-http.html");
    assert!(html.contains("class=\"excerpt\""), "{html}");
    assert!(html.contains(">5\n6\n7\n8</pre>"), "{html}");
    assert!(html.contains("pick_transport"), "{html}");
    let md = site.output("research/widget-picks-streamable-http.md");
    assert!(
        md.contains("  ```py\n  def pick_transport(config):"),
        "{md}"
    );
    assert!(site.build().excerpts.is_none(), "none unless asked for");
    let plain = site.output("research/widget-picks-streamable-http.html");
    assert!(
        !plain.contains("class=\"excerpt\""),
        "no excerpts unless asked for"
    );
}

/// Runs the binary in `dir` with `args` and the environment `env` adds, without the machine's
/// git configuration.
pub(crate) fn run_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command
        .current_dir(dir)
        .env_remove("SOURCE_DATE_EPOCH")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    for (key, value) in env {
        command.env(key, value);
    }
    command.args(args).output().expect("runs")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    run_with(dir, args, &[])
}

/// git configuration (by environment) that makes `https://git.test/acme/widget` a name of the
/// local repository: a clone or fetch of the URL reads it, with no network.
pub(crate) fn url_of_local(repo: &Path) -> [(&'static str, String); 3] {
    [
        ("GIT_CONFIG_COUNT", "1".to_string()),
        (
            "GIT_CONFIG_KEY_0",
            format!("url.{}.insteadOf", repo.display()),
        ),
        ("GIT_CONFIG_VALUE_0", WIDGET.to_string()),
    ]
}

fn json_codes(out: &Output) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    value["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code").to_string())
        .collect()
}

#[test]
fn the_cache_is_cloned_then_fetched_and_works_offline() {
    let (site, widget) = fixture();
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let env = url_of_local(widget.repo.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let verify_args = [
        "sources",
        "verify",
        "--format",
        "json",
        "--cache",
        &cache_arg,
        "--timeout",
        "10",
    ];

    // Offline with an empty cache: nothing can be checked, which fails the run (status 2)
    // unless told to accept it.
    let mut offline = verify_args.to_vec();
    offline.push("--offline");
    let out = run_with(site.root(), &offline, &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(json_codes(&out).iter().all(|c| c == "FN955"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-unchecked"));
    offline.push("--allow-unchecked");
    let out = run_with(site.root(), &offline, &env);
    assert_eq!(out.status.code(), Some(0));

    // Online: the widget is cloned into the cache; `elsewhere` cannot be.
    let out = run_with(site.root(), &verify_args, &env);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_codes(&out), BROKEN);
    let folder = CacheConfig::new(cache.path().to_path_buf()).folder(WIDGET);
    assert!(folder.join("HEAD").is_file(), "{}", folder.display());

    // A commit pushed after the clone is fetched when a note pins it.
    widget.repo.write("src/new.py", "NEW = 1\n");
    let v3 = widget.repo.commit("2026-04-01T10:00:00Z", "v3");
    let note = "content/research/widget-picks-streamable-http.md";
    let text = fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &text
            .replace(&V1[..8], &v3)
            .replace("src/transport.py:5-8", "src/new.py:1"),
    );
    let out = run_with(site.root(), &verify_args, &env);
    assert_eq!(
        json_codes(&out),
        BROKEN,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // Drift as a table, from the cache alone.
    let out = run_with(
        site.root(),
        &["sources", "drift", "--cache", &cache_arg, "--offline"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).expect("utf-8");
    assert!(table.starts_with("STATE "), "{table}");
    assert!(table.contains("src/settings.py:2-3 @ "), "{table}");
}

#[test]
fn a_cache_seeded_by_hand_is_used_as_it_is() {
    let (site, widget) = fixture();
    let cache = tempfile::tempdir().expect("temp dir");
    let folder = CacheConfig::new(cache.path().to_path_buf()).folder(WIDGET);
    fs::create_dir_all(folder.parent().expect("parent")).expect("mkdir");
    let status = git_command("2026-01-05T10:00:00Z")
        .args(["clone", "--quiet", "--bare"])
        .arg(widget.repo.path())
        .arg(&folder)
        .status()
        .expect("git runs");
    assert!(status.success());
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let out = run(
        site.root(),
        &[
            "sources",
            "verify",
            "--cache",
            &cache_arg,
            "--offline",
            "--format",
            "json",
        ],
    );
    // Offline, a commit missing from the clone cannot be told from a mistyped one: an error
    // (FN951) naming both fixes, not an info that passes (issue 47).
    assert_eq!(
        json_codes(&out),
        ["FN951", "FN952", "FN953", "FN954", "FN955"],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(
        site.root(),
        &[
            "sources",
            "queue",
            "--cache",
            &cache_arg,
            "--offline",
            "--format",
            "json",
            "--today",
            "2026-11-30",
        ],
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(value["queue"][0]["id"], "widget-broken-pins");
    assert_eq!(value["queue"][0]["state"], "broken");
    assert_eq!(value["queue"][1]["id"], "widget-documented-sse");
    assert_eq!(value["queue"][1]["state"], "gone");
    assert_eq!(value["count"]["broken"], 1);
}
