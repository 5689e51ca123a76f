//! Tests: `fieldnotes submit`, a "Report support" issue form's body turned into the edit of a
//! client's support cell. Each status, a cell kept, replaced and added; every byte of the
//! file outside the cell kept; hostile bodies refused with the field named, or written as
//! inert text that reads back exactly; lint's errors in the cell refuse the edit; the form
//! template asks what `submit` reads; the workflow keeps the body out of its scripts.

use crate::support::{copy_dir, fixtures, TestSite};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const A: &str = "content/clients/client-a.md";
const C: &str = "content/clients/client-c.md";
const COMMIT: &str = "4f2a9c81d0b7e6a5c3f1029384756abcdef01234";

/// The basic fixture, with the observed fixture's observation of client-a.
fn site() -> TestSite {
    let site = TestSite::fixture("basic");
    copy_dir(&fixtures().join("observed"), site.root());
    site
}

/// An issue body as GitHub writes an issue form's answers (`None`: `_No response_`).
fn form(answers: &[(&str, Option<&str>)]) -> String {
    let mut out = String::new();
    for (label, value) in answers {
        out.push_str(&format!(
            "### {label}\n\n{}\n\n",
            value.unwrap_or("_No response_")
        ));
    }
    out
}

/// The sentence every report quotes (a pinned source leaves it out).
const QUOTE: &str = "The client does it.";

/// A complete report; `extra` replaces answers by label.
fn report(
    client: &str,
    capability: &str,
    status: &str,
    url: &str,
    extra: &[(&str, &str)],
) -> String {
    let mut answers: Vec<(&str, Option<&str>)> = vec![
        ("Client", Some(client)),
        ("Capability", Some(capability)),
        ("Status", Some(status)),
        ("Evidence URL", Some(url)),
        ("What the source shows", None),
        ("Quote", Some(QUOTE)),
        ("Client version", None),
        ("Notes", None),
    ];
    for (label, value) in extra {
        let slot = answers
            .iter_mut()
            .find(|(l, _)| l == label)
            .expect("a label");
        slot.1 = Some(value);
    }
    form(&answers)
}

fn run(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .current_dir(root)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("runs")
}

/// Runs `fieldnotes submit` on `body` (written beside the site, not in it).
fn submit(site: &TestSite, body: &str, extra: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let form = dir.path().join("FORM.md");
    fs::write(&form, body).expect("write form");
    let form = form.to_string_lossy().into_owned();
    let mut args = vec!["submit", form.as_str(), "--today", "2026-11-30"];
    args.extend(extra);
    run(site.root(), &args)
}

fn read(site: &TestSite, path: &str) -> String {
    fs::read_to_string(site.root().join(path)).expect("read")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The support cell `capability` of the client file `path`, read by another YAML reader
/// (serde_yaml) than the one fieldnotes uses.
fn cell(site: &TestSite, path: &str, capability: &str) -> serde_json::Value {
    let text = read(site, path).replace("\r\n", "\n");
    let front = text.strip_prefix("---\n").expect("front matter");
    let front = &front[..front.find("\n---\n").expect("closing line")];
    let value: serde_json::Value = serde_yaml::from_str(front).expect("YAML");
    value["support"][capability].clone()
}

/// Errors lint finds in the site.
fn lint_errors(site: &TestSite) -> Vec<String> {
    (site.lint().iter())
        .filter(|d| d.severity == fieldnotes::Severity::Error)
        .map(|d| format!("{} {}:{} {}", d.code, d.file, d.line, d.message))
        .collect()
}

/// Splits `text` around the lines of cell `capability` (its key line to the next line
/// indented two spaces or less).
fn around<'a>(text: &'a str, capability: &str) -> (&'a str, &'a str) {
    let key = format!("\n  {capability}:");
    let start = text.find(&key).expect("the cell") + 1;
    let mut end = start + text[start..].find('\n').expect("a line") + 1;
    while let Some(next) = text[end..].find('\n') {
        let line = &text[end..end + next];
        if !line.starts_with("   ") {
            break;
        }
        end += next + 1;
    }
    (&text[..start], &text[end..])
}

#[test]
fn a_report_that_keeps_the_status_adds_its_source_and_keeps_every_other_byte() {
    let site = site();
    let before = read(&site, A);
    let url = format!("https://github.com/example/client-a/blob/{COMMIT}/src/tools.py#L40-L52");
    let body = report(
        "client-a",
        "tools.call",
        "yes",
        &url,
        &[
            ("What the source shows", "src/tools.py, call_tool"),
            (
                "Notes",
                "Calls tools one at a time,\nwaiting for each result.",
            ),
        ],
    );
    let out = submit(&site, &body, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = read(&site, A);
    let (old_head, old_tail) = around(&before, "tools.call");
    let (new_head, new_tail) = around(&after, "tools.call");
    assert_eq!((old_head, old_tail), (new_head, new_tail));
    let (_, new_cell) = after.split_at(new_head.len());
    let new_cell = &new_cell[..new_cell.len() - new_tail.len()];
    assert_eq!(
        new_cell,
        format!(
            "  tools.call:\n    status: yes\n    notes: Calls tools one at a time, waiting for each result.\n    \
             sources:\n      - url: https://docs.alpha.example.org/tools\n        title: Alpha docs, tools\n        \
             quote: Alpha calls one tool at a time.\n        retrieved: 2026-10-01\n      \
             - url: https://github.com/example/client-a\n        title: src/tools.py, call_tool\n        \
             commit: {COMMIT}\n        path: src/tools.py:40-52\n    lastVerified: 2026-11-30\n"
        )
    );
    let said = stderr(&out);
    assert!(
        said.contains("content/clients/client-a.md: support cell client-a / tools.call: yes → yes")
            && said.contains("written"),
        "{said}"
    );
    assert_eq!(lint_errors(&site), Vec::<String>::new());
    let cell = cell(&site, A, "tools.call");
    assert_eq!(cell["sources"][1]["commit"], COMMIT, "{cell}");
}

#[test]
fn a_report_that_changes_the_status_writes_the_cell_anew_with_crlf_kept() {
    let site = site();
    let crlf = read(&site, A).replace('\n', "\r\n");
    site.write(A, &crlf);
    let body = report(
        "client-a",
        "transports.sse",
        "partial",
        "https://docs.alpha.example.org/transports#sse",
        &[
            ("Client version", "1.4.0"),
            ("Notes", "Only for servers listed by URL."),
        ],
    )
    .replace('\n', "\r\n");
    let out = submit(&site, &body, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = read(&site, A);
    let (old_head, old_tail) = around(&crlf, "transports.sse");
    let (new_head, new_tail) = around(&after, "transports.sse");
    assert_eq!((old_head, old_tail), (new_head, new_tail));
    let cell_text = &after[new_head.len()..after.len() - new_tail.len()];
    assert_eq!(
        cell_text,
        "  transports.sse:\r\n    status: partial\r\n    notes: Only for servers listed by URL.\r\n    \
         sources:\r\n      - url: https://docs.alpha.example.org/transports#sse\r\n        \
         quote: The client does it.\r\n        retrieved: 2026-11-30\r\n    \
         lastVerified: 2026-11-30\r\n    version: 1.4.0\r\n"
    );
    assert!(stderr(&out).contains("yes → partial"), "{}", stderr(&out));
    assert_eq!(lint_errors(&site), Vec::<String>::new());
}

#[test]
fn a_no_for_a_capability_the_map_lacks_adds_a_cell_after_the_last() {
    let site = site();
    let before = read(&site, C);
    let url = format!("https://gitlab.com/example/client-c/-/blob/{COMMIT}/transport/http.go#L3-5");
    let out = submit(
        &site,
        &report("client-c", "transports.streamableHttp", "no", &url, &[]),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = read(&site, C);
    let at = before.find("---\n\nGamma").expect("the closing line");
    assert_eq!(&after[..at], &before[..at]);
    assert_eq!(&after[after.len() - (before.len() - at)..], &before[at..]);
    assert_eq!(
        &after[at..after.len() - (before.len() - at)],
        format!(
            "  transports.streamableHttp:\n    status: no\n    sources:\n      \
             - url: https://gitlab.com/example/client-c\n        commit: {COMMIT}\n        \
             path: transport/http.go:3-5\n    lastVerified: 2026-11-30\n"
        )
    );
    assert!(stderr(&out).contains("new cell, no"), "{}", stderr(&out));
    assert_eq!(lint_errors(&site), Vec::<String>::new());
}

#[test]
fn an_observation_is_cited_by_id_or_by_its_page_and_a_commit_is_a_fixed_pin() {
    let site = site();
    let id = "alpha-client-1-3-0-stdio-20261001-120000";
    let out = submit(
        &site,
        &report("client-a", "tools.call", "yes", id, &[]),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(read(&site, A).contains(&format!("    observations:\n      - {id}\n---")));
    // Its page, a second time: cited already, nothing added.
    let page = format!("https://example.org/observations/{id}.html");
    let out = submit(
        &site,
        &report("client-a", "tools.call", "yes", &page, &[]),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("(already cited)"), "{}", stderr(&out));
    assert_eq!(read(&site, A).matches(id).count(), 1);
    assert_eq!(lint_errors(&site), Vec::<String>::new());

    let commit = format!("https://github.com/example/client-c/commit/{COMMIT}");
    let out = submit(
        &site,
        &report("client-c", "tools.call", "yes", &commit, &[]),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        read(&site, C).contains(&format!(
            "      - url: https://github.com/example/client-c\n        commit: {COMMIT}\n        \
             pin: fixed\n"
        )),
        "{}",
        read(&site, C)
    );
    assert_eq!(lint_errors(&site), Vec::<String>::new());
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let site = site();
    let before = read(&site, C);
    let body = report(
        "client-c",
        "transports.sse",
        "partial",
        "https://gamma.example.org/docs",
        &[],
    );
    let out = submit(&site, &body, &["--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&site, C), before);
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(
        diff.starts_with("--- a/content/clients/client-c.md\n+++ b/content/clients/client-c.md\n@@ -12,9 +12,7 @@\n")
            && diff.contains("@@\n   transports.sse:\n-    status: no\n")
            && diff.contains("+    status: partial\n")
            && diff.contains("+      - url: https://gamma.example.org/docs\n"),
        "{diff}"
    );
    assert!(
        stderr(&out).contains("dry run, nothing written"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn hostile_answers_are_written_as_text_that_reads_back_exactly() {
    let site = site();
    let notes = "key: value # not a comment {{ secrets.GITHUB_TOKEN }} &anchor *alias \
                 !!python/object/apply:os.system [\"id\"] \"quoted\" back\\slash\n---\n$(rm -rf ~) `id`";
    let version = "1.0: &x *x !!str";
    let title = "'single' \"double\" [flow] {map}: #";
    let url = format!("https://github.com/example/client-a/blob/{COMMIT}/src/a%20b.py#L1-L2");
    let body = report(
        "client-a",
        "transports.streamableHttp",
        "yes",
        &url,
        &[
            ("Notes", notes),
            ("Client version", version),
            ("What the source shows", title),
        ],
    );
    let out = submit(&site, &body, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = read(&site, A);
    let json = cell(&site, A, "transports.streamableHttp");
    let mut fields: Vec<&String> = json.as_object().expect("a mapping").keys().collect();
    fields.sort();
    assert_eq!(
        fields,
        ["lastVerified", "notes", "sources", "status", "version"]
    );
    assert_eq!(
        json["notes"],
        notes.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    assert_eq!(json["version"], version);
    assert_eq!(json["sources"][0]["title"], title);
    assert_eq!(json["sources"][0]["path"], "src/a b.py:1-2");
    assert!(!text.contains("\n---\n$("), "{text}");
    assert_eq!(lint_errors(&site), Vec::<String>::new());
}

/// Each hostile body, the form field its refusal must name, and words of its message.
fn refused_bodies() -> Vec<(&'static str, String, Option<&'static str>, &'static str)> {
    let docs = "https://docs.alpha.example.org/x";
    let r = |client: &str, capability: &str, status: &str, url: &str, extra: &[(&str, &str)]| {
        report(client, capability, status, url, extra)
    };
    let huge = "x".repeat(1 << 20);
    let long_notes = "y".repeat(3000);
    vec![
        (
            "unknown client",
            r("clientA", "tools.call", "yes", docs, &[]),
            Some("Client"),
            "did you mean `client-a`?",
        ),
        (
            "path as client",
            r("../../site", "tools.call", "yes", docs, &[]),
            Some("Client"),
            "is not an id",
        ),
        (
            "path as capability",
            r("client-a", "../clients/client-b", "yes", docs, &[]),
            Some("Capability"),
            "is not an id",
        ),
        (
            "unknown capability",
            r("client-a", "tools.cal", "yes", docs, &[]),
            Some("Capability"),
            "did you mean `tools.call`?",
        ),
        (
            "unknown status",
            r("client-a", "tools.call", "supported", docs, &[]),
            Some("Status"),
            "choose yes, partial or no",
        ),
        (
            "unknown as a status",
            r("client-a", "tools.call", "unknown", docs, &[]),
            Some("Status"),
            "is not a status",
        ),
        (
            "docs page without a quote",
            r(
                "client-a",
                "tools.call",
                "yes",
                docs,
                &[("Quote", "_No response_")],
            ),
            Some("Evidence URL"),
            "quotes nothing from it",
        ),
        (
            "branch URL",
            r(
                "client-a",
                "tools.call",
                "yes",
                "https://github.com/example/client-a/blob/main/src/a.py#L3",
                &[],
            ),
            Some("Evidence URL"),
            "press `y`",
        ),
        (
            "repository home",
            r(
                "client-a",
                "tools.call",
                "yes",
                "https://github.com/example/client-a",
                &[],
            ),
            Some("Evidence URL"),
            "the default branch",
        ),
        (
            "not http",
            r("client-a", "tools.call", "yes", "javascript:alert(1)", &[]),
            Some("Evidence URL"),
            "neither a URL nor an observation",
        ),
        (
            "file URL",
            r("client-a", "tools.call", "yes", "file:///etc/passwd", &[]),
            Some("Evidence URL"),
            "not an http(s) URL",
        ),
        (
            "credentials",
            r(
                "client-a",
                "tools.call",
                "yes",
                "https://user:token@docs.example.org/x",
                &[],
            ),
            Some("Evidence URL"),
            "user name",
        ),
        (
            "two URLs",
            r(
                "client-a",
                "tools.call",
                "yes",
                "https://a.example.org/ https://b.example.org/",
                &[],
            ),
            Some("Evidence URL"),
            "spaces",
        ),
        (
            "parent path in URL",
            r(
                "client-a",
                "tools.call",
                "yes",
                &format!("https://github.com/example/client-a/blob/{COMMIT}/../x.py#L1"),
                &[],
            ),
            Some("Evidence URL"),
            "not a path",
        ),
        (
            "observation of another client",
            r(
                "client-b",
                "tools.call",
                "yes",
                "alpha-client-1-3-0-stdio-20261001-120000",
                &[],
            ),
            Some("Evidence URL"),
            "not `client-b`",
        ),
        (
            "control characters",
            r(
                "client-a",
                "tools.call",
                "yes",
                docs,
                &[("Client version", "1.0\u{1b}[31m")],
            ),
            Some("Client version"),
            "control characters",
        ),
        (
            "two-line version",
            r(
                "client-a",
                "tools.call",
                "yes",
                docs,
                &[("Client version", "1.0\nstatus: no")],
            ),
            Some("Client version"),
            "more than one line",
        ),
        (
            "long notes",
            r(
                "client-a",
                "tools.call",
                "yes",
                docs,
                &[("Notes", &long_notes)],
            ),
            Some("Notes"),
            "3000 characters long",
        ),
        (
            "a megabyte",
            r("client-a", "tools.call", "yes", docs, &[("Notes", &huge)]),
            None,
            "more than the 262144",
        ),
        (
            "duplicated heading",
            format!(
                "{}### Status\n\nno\n",
                r("client-a", "tools.call", "yes", docs, &[])
            ),
            Some("Status"),
            "appears twice",
        ),
        (
            "heading in notes",
            r(
                "client-a",
                "tools.call",
                "yes",
                docs,
                &[("Notes", "fine\n### Status\n\nno")],
            ),
            Some("Status"),
            "appears twice",
        ),
        (
            "unknown heading",
            format!(
                "### Run\n\nid\n\n{}",
                r("client-a", "tools.call", "yes", docs, &[])
            ),
            None,
            "`### Run` is not a question",
        ),
        (
            "empty required",
            form(&[
                ("Client", Some("client-a")),
                ("Capability", None),
                ("Status", Some("yes")),
                ("Evidence URL", Some(docs)),
            ]),
            Some("Capability"),
            "is not answered",
        ),
        (
            "not a form",
            "Please add Cline support for SSE.".to_string(),
            None,
            "text before the first",
        ),
    ]
}

#[test]
fn hostile_bodies_are_refused_naming_the_field_and_write_nothing() {
    let site = site();
    let before = fieldnotes_files(&site);
    for (case, body, field, says) in refused_bodies() {
        let out = submit(&site, &body, &[]);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{case}: {said}");
        let line = (said.lines())
            .find(|l| l.starts_with("error: ") && (l.contains(says) || said.contains(says)))
            .unwrap_or_else(|| panic!("{case}: `{says}` in {said}"));
        if let Some(field) = field {
            assert!(
                said.lines().any(|l| l.starts_with("error: ")
                    && l.contains(".md:")
                    && l.contains(&format!(": {field}: "))),
                "{case}: the field {field} named in {line}\n{said}"
            );
        }
        assert!(said.contains("nothing was written"), "{case}: {said}");
        assert!(
            !said.contains('\u{1b}'),
            "{case}: a control character printed: {said}"
        );
        assert_eq!(fieldnotes_files(&site), before, "{case}: a file changed");
    }
}

/// Every file of the site's content, by path.
fn fieldnotes_files(site: &TestSite) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::support::files_under(&site.root().join("content"))
}

#[test]
fn a_cell_lint_finds_an_error_in_is_refused() {
    let site = site();
    let before = read(&site, A);
    // The observation shows client-a calling tools: a `no` citing it contradicts it (FN218).
    let body = report(
        "client-a",
        "tools.call",
        "no",
        "alpha-client-1-3-0-stdio-20261001-120000",
        &[],
    );
    let out = submit(&site, &body, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("FN218"), "{printed}");
    assert!(
        stderr(&out).contains("refused: lint finds errors in the cell"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&site, A), before);
}

#[test]
fn the_issue_form_asks_what_submit_reads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join(".github/ISSUE_TEMPLATE/report-support.yml"))
        .expect("the form");
    let form: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
    assert_eq!(form["labels"][0], "support-report");
    let asked: Vec<(String, bool)> = (form["body"].as_array().expect("body").iter())
        .filter(|item| item["type"] != "markdown")
        .map(|item| {
            (
                item["attributes"]["label"]
                    .as_str()
                    .expect("a label")
                    .to_string(),
                item["validations"]["required"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    let read: Vec<(String, bool)> = (fieldnotes::submit::form::QUESTIONS.iter())
        .map(|q| (q.label.to_string(), q.required))
        .collect();
    assert_eq!(asked, read);
    let status = (form["body"].as_array().expect("body").iter())
        .find(|item| item["attributes"]["label"] == "Status")
        .expect("the status question");
    assert_eq!(status["type"], "dropdown");
    assert_eq!(
        status["attributes"]["options"],
        serde_json::json!(["yes", "partial", "no"])
    );
}

#[test]
fn the_workflow_keeps_the_body_out_of_its_scripts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join(".github/workflows/submit.yml")).expect("the workflow");
    let workflow: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
    assert_eq!(
        workflow["on"]["issues"]["types"],
        serde_json::json!(["opened", "edited"])
    );
    let job = &workflow["jobs"]["submit"];
    assert!(job["if"]
        .as_str()
        .expect("an if")
        .contains("'support-report'"));
    let steps = job["steps"].as_array().expect("steps");
    let reads_body = (steps.iter())
        .filter(|s| s["env"]["BODY"] == "${{ github.event.issue.body }}")
        .count();
    assert_eq!(reads_body, 1, "the body reaches one step, through its env");
    // The job that reads the body holds no write token; the one that writes runs no fieldnotes.
    assert_eq!(workflow["permissions"], serde_json::json!({}));
    assert_eq!(job["permissions"], serde_json::json!({"contents": "read"}));
    let propose = serde_yaml::to_string(&workflow["jobs"]["propose"]).expect("yaml");
    assert!(!propose.contains("fieldnotes ") && !propose.contains("cargo "));
    let steps: Vec<serde_json::Value> = (workflow["jobs"].as_object().expect("jobs").values())
        .flat_map(|job| job["steps"].as_array().cloned().unwrap_or_default())
        .collect();
    let scripts: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(scripts.len() >= 4);
    for script in &scripts {
        assert!(
            !script.contains("${{"),
            "an expression inside a script: {script}"
        );
    }
    let body_step = scripts
        .iter()
        .find(|s| s.contains("fieldnotes submit"))
        .expect("submit runs");
    assert!(
        body_step.contains("printf '%s' \"$BODY\" > \"$RUNNER_TEMP/form.md\""),
        "{body_step}"
    );
    // Each fieldnotes command line is one the CLI takes.
    let lines: Vec<&str> = (text.lines().map(str::trim))
        .filter(|l| l.starts_with("fieldnotes "))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let site = site();
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(
        dir.path().join("form.md"),
        report(
            "client-c",
            "tools.call",
            "yes",
            "https://gamma.example.org/tools",
            &[],
        ),
    )
    .expect("write");
    for line in lines {
        let command = line.split('>').next().expect("a command").replace(
            "\"$RUNNER_TEMP/form.md\"",
            &dir.path().join("form.md").to_string_lossy(),
        );
        let words: Vec<&str> = command.split_whitespace().skip(1).collect();
        let out = run(site.root(), &words);
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{line}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_client_with_no_support_map_gets_one_and_a_cell_with_unknown_fields_is_left() {
    let site = site();
    let text = read(&site, C);
    let start = text.find("support:\n").expect("the map");
    let end = text.find("---\n\nGamma").expect("the closing line");
    let bare = format!("{}{}", &text[..start], &text[end..]);
    site.write(C, &bare);
    let out = submit(
        &site,
        &report(
            "client-c",
            "tools.call",
            "yes",
            "https://gamma.example.org/tools",
            &[],
        ),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&site, C),
        format!(
            "{}support:\n  tools.call:\n    status: yes\n    sources:\n      \
             - url: https://gamma.example.org/tools\n        quote: The client does it.\n        \
             retrieved: 2026-11-30\n    lastVerified: 2026-11-30\n{}",
            &text[..start],
            &text[end..]
        )
    );
    assert_eq!(lint_errors(&site), Vec::<String>::new());

    // A field fieldnotes does not know would be lost by writing the cell anew: refused.
    let with_extra =
        read(&site, C).replace("    status: yes\n", "    status: yes\n    since: 2.0\n");
    site.write(C, &with_extra);
    let out = submit(
        &site,
        &report(
            "client-c",
            "tools.call",
            "no",
            "https://gamma.example.org/x",
            &[],
        ),
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("fields fieldnotes does not know (since)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&site, C), with_extra);
}

#[test]
fn every_problem_of_a_form_is_told_at_once_with_its_line() {
    let site = site();
    let body = format!(
        "{}### Status\n\nno\n",
        report(
            "../etc",
            "tools.cal",
            "supported",
            "https://github.com/example/client-a/tree/main",
            &[]
        )
    )
    .replace('\n', "\r\n");
    let out = submit(&site, &body, &[]);
    assert_eq!(out.status.code(), Some(1));
    let errors: Vec<String> = (stderr(&out).lines())
        .filter(|l| l.starts_with("error: "))
        .map(|l| l.split(".md:").nth(1).unwrap_or_default().to_string())
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].starts_with("3: Client: `../etc` is not an id"),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with("7: Capability: no capability `tools.cal`"),
        "{errors:?}"
    );
    assert!(
        errors[2].starts_with("33: Status: `### Status` appears twice"),
        "{errors:?}"
    );
}
