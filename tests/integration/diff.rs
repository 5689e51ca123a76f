//! Tests: `fieldnotes diff --base REV` on repositories built here. Each holds the provenance
//! fixture in `site/`, committed as the base; the test edits the work tree as a pull request
//! would and reads what the diff says, as JSON (its documented shape) and as Markdown (the
//! pull-request comment). A base that is not one, or that holds what would run or exhaust
//! something, is refused or read within bounds.

use crate::provenance::run_with;
use crate::provenance::widget::Repo;
use crate::support::{copy_dir, fixtures};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Output;

const CLIENT: &str = "site/content/clients/widget.md";
const SSE_NOTE: &str = "site/content/research/widget-documented-sse.md";

/// A repository with the provenance fixture in `site/`, committed; and that commit.
fn repository() -> (Repo, String) {
    let repo = Repo::init();
    copy_dir(&fixtures().join("provenance"), &repo.path().join("site"));
    let base = repo.commit("2026-01-05T10:00:00Z", "the site");
    (repo, base)
}

fn read(repo: &Repo, path: &str) -> String {
    fs::read_to_string(repo.path().join(path)).expect(path)
}

/// Replaces `from` by `to` in the work tree's `path` (which must hold it).
fn edit(repo: &Repo, path: &str, from: &str, to: &str) {
    let text = read(repo, path);
    assert!(text.contains(from), "{path} holds {from:?}");
    repo.write(path, &text.replacen(from, to, 1));
}

/// `fieldnotes --root site diff ARGS` in the repository.
fn diff(repo: &Repo, args: &[&str]) -> Output {
    let mut all = vec!["--root", "site", "diff"];
    all.extend(args);
    run_with(repo.path(), &all, &[])
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The JSON diff against `base`; the run must succeed.
fn json(repo: &Repo, base: &str) -> Value {
    let out = diff(repo, &["--base", base, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn ids(list: &Value) -> Vec<&str> {
    (list.as_array().expect("a list").iter())
        .map(|v| v["id"].as_str().expect("an id"))
        .collect()
}

/// The cell of `client` for `capability` in a JSON diff.
fn cell<'a>(diff: &'a Value, client: &str, capability: &str) -> &'a Value {
    (diff["cells"].as_array().expect("cells").iter())
        .find(|c| c["client"] == client && c["capability"] == capability)
        .unwrap_or_else(|| panic!("no cell {client} × {capability} in {diff:#}"))
}

#[test]
fn a_changed_status_and_a_new_cell_are_cells_with_their_evidence() {
    let (repo, base) = repository();
    edit(&repo, CLIENT, "    status: yes\n", "    status: partial\n");
    edit(
        &repo,
        CLIENT,
        "    lastVerified: 2026-07-01\n",
        "    lastVerified: 2026-07-01\n  transports.sse:\n    status: no\n    sources:\n      \
         - url: https://git.test/acme/widget/docs\n    lastVerified: 2026-07-02\n",
    );
    let value = json(&repo, &base);
    assert_eq!(value["version"], 1);
    assert_eq!(value["base"], base.as_str());
    assert_eq!(
        value["cells"].as_array().expect("cells").len(),
        2,
        "{value:#}"
    );
    let changed = cell(&value, "widget", "transports.streamableHttp");
    assert_eq!(changed["before"], "yes");
    assert_eq!(changed["after"], "partial");
    assert_eq!(changed["changed"], serde_json::json!(["status"]));
    assert_eq!(changed["evidence"]["before"]["method"], "source");
    assert_eq!(
        changed["evidence"]["after"]["commit"],
        "457c9c417f7c5e7d9abcac2bf97b7ae20e8d317d"
    );
    let new = cell(&value, "widget", "transports.sse");
    assert_eq!(
        (&new["before"], &new["after"]),
        (&"unknown".into(), &"no".into())
    );
    assert_eq!(new["evidence"]["before"]["method"], "none");
    assert_eq!(new["evidence"]["after"]["method"], "docs");
    assert_eq!(
        new["evidence"]["after"]["sources"][0]["url"],
        "https://git.test/acme/widget/docs"
    );
    // Nothing else changed.
    assert_eq!(value["notes"]["changed"], serde_json::json!([]));
    assert_eq!(value["pins"], serde_json::json!([]));
    assert_eq!(value["unread"], serde_json::json!([]));
}

#[test]
fn notes_added_removed_retired_superseded_and_changed_are_named_by_id() {
    let (repo, base) = repository();
    let note = read(&repo, SSE_NOTE);
    repo.write(
        "site/content/research/widget-now-says-streamable.md",
        &note
            .replace(
                "id: widget-documented-sse",
                "id: widget-now-says-streamable",
            )
            .replace(
                "title: Widget's old docs called SSE the default",
                "title: Newer docs",
            ),
    );
    edit(
        &repo,
        SSE_NOTE,
        "status: current\n",
        "status: superseded\nsupersededBy: widget-now-says-streamable\n",
    );
    edit(
        &repo,
        "site/content/research/widget-broken-pins.md",
        "status: current\n",
        "status: retracted\n",
    );
    fs::remove_file(
        repo.path()
            .join("site/content/research/widget-default-transport-setting.md"),
    )
    .expect("remove");
    let body = "site/content/research/widget-falls-back-on-rejection.md";
    repo.write(body, &format!("{}\nOne more finding.\n", read(&repo, body)));

    let value = json(&repo, &base);
    let notes = &value["notes"];
    assert_eq!(ids(&notes["added"]), ["widget-now-says-streamable"]);
    assert_eq!(notes["added"][0]["title"], "Newer docs");
    assert_eq!(ids(&notes["removed"]), ["widget-default-transport-setting"]);
    assert_eq!(
        ids(&notes["changed"]),
        [
            "widget-broken-pins",
            "widget-documented-sse",
            "widget-falls-back-on-rejection"
        ]
    );
    let [retracted, superseded, edited] = [0, 1, 2].map(|i| &notes["changed"][i]);
    assert_eq!(retracted["retired"], true);
    assert_eq!(retracted["status"]["after"], "retracted");
    assert_eq!(retracted["fields"], serde_json::json!(["status"]));
    assert_eq!(superseded["retired"], true);
    assert_eq!(superseded["status"]["before"], "current");
    assert_eq!(superseded["supersededBy"], "widget-now-says-streamable");
    assert_eq!(
        superseded["fields"],
        serde_json::json!(["status", "supersededBy"])
    );
    assert_eq!(edited["retired"], false);
    assert!(edited.get("status").is_none(), "{edited}");
    assert_eq!(edited["fields"], serde_json::json!(["body"]));
    let markdown = stdout(&diff(&repo, &["--base", &base]));
    for row in [
        "| `widget-now-says-streamable` `Newer docs` | added |",
        "| `widget-documented-sse` `Widget's old docs called SSE the default` | retired: `superseded` \
         by `widget-now-says-streamable` (status, supersededBy) |",
        "| `widget-broken-pins` `Sources that do not hold` | retired: `retracted` (status) |",
        "| `widget-falls-back-on-rejection`",
        "| changed (body) |",
        "| `widget-default-transport-setting`",
        "| removed |",
    ] {
        assert!(markdown.contains(row), "{row} in\n{markdown}");
    }
}

#[test]
fn a_bumped_pin_names_its_holder_and_both_commits() {
    let (repo, base) = repository();
    let new = "0123456789abcdef0123456789abcdef01234567";
    edit(
        &repo,
        CLIENT,
        "commit: 457c9c417f7c5e7d9abcac2bf97b7ae20e8d317d\n        path: README.md:3",
        &format!("commit: {new}\n        path: README.md:4"),
    );
    edit(
        &repo,
        SSE_NOTE,
        "commit: 457c9c417f7c5e7d9abcac2bf97b7ae20e8d317d",
        &format!("commit: {new}"),
    );
    let value = json(&repo, &base);
    let pins = value["pins"].as_array().expect("pins");
    assert_eq!(pins.len(), 2, "{value:#}");
    let note = pins
        .iter()
        .find(|p| p["note"] == "widget-documented-sse")
        .expect("note pin");
    assert_eq!(note["repository"], "https://git.test/acme/widget");
    assert_eq!(
        note["before"]["commit"],
        "457c9c417f7c5e7d9abcac2bf97b7ae20e8d317d"
    );
    assert_eq!(note["after"]["commit"], new);
    assert_eq!(note["after"]["path"], "docs/old.md:3");
    let cell_pin = pins
        .iter()
        .find(|p| p["client"] == "widget")
        .expect("cell pin");
    assert_eq!(cell_pin["capability"], "transports.streamableHttp");
    assert_eq!(cell_pin["before"]["path"], "README.md:3");
    assert_eq!(cell_pin["after"]["path"], "README.md:4");
    // The cell's evidence is now read at the new commit.
    let changed = cell(&value, "widget", "transports.streamableHttp");
    assert_eq!(changed["changed"], serde_json::json!(["evidence"]));
    assert_eq!(changed["evidence"]["after"]["commit"], new);
    let markdown = stdout(&diff(&repo, &["--base", &base]));
    assert!(
        !markdown.contains("<details>"),
        "no cell has a new status: none folded"
    );
    assert!(
        markdown.contains(
            "| note `widget-documented-sse` | `docs/old.md:3` in `git.test/acme/widget` | \
             `457c9c4` | `0123456` |"
        ),
        "{markdown}"
    );
}

#[test]
fn clients_and_capabilities_added_and_removed_are_listed() {
    let (repo, base) = repository();
    repo.write(
        "site/content/clients/gadget.md",
        "---\nid: gadget\ntitle: Gadget\nvendor: Acme\nhomepage: https://gadget.test\n\
         repository: https://git.test/acme/gadget\nclientInfoNames: [gadget]\nplatforms: [cli]\n\
         support:\n  transports.stdio:\n    status: yes\n    sources:\n      \
         - url: https://gadget.test/docs\n    lastVerified: 2026-07-01\n---\n\nGadget.\n",
    );
    repo.write(
        "site/content/capabilities/transports.stdio.md",
        "---\nid: transports.stdio\ntitle: stdio\ngroup: transports\n\
         specUrl: https://modelcontextprotocol.io/specification\nintroduced: 2025-03-26\n---\n\nstdio.\n",
    );
    fs::remove_file(
        repo.path()
            .join("site/content/capabilities/transports.sse.md"),
    )
    .expect("rm");
    // A cell checked again: its status stays.
    edit(
        &repo,
        CLIENT,
        "lastVerified: 2026-07-01",
        "lastVerified: 2026-07-05",
    );
    let value = json(&repo, &base);
    assert_eq!(ids(&value["clients"]["added"]), ["gadget"]);
    assert_eq!(value["clients"]["added"][0]["title"], "Gadget");
    assert_eq!(value["clients"]["removed"], serde_json::json!([]));
    assert_eq!(ids(&value["capabilities"]["added"]), ["transports.stdio"]);
    assert_eq!(ids(&value["capabilities"]["removed"]), ["transports.sse"]);
    let new = cell(&value, "gadget", "transports.stdio");
    assert_eq!(
        (&new["before"], &new["after"]),
        (&"unknown".into(), &"yes".into())
    );
    let markdown = stdout(&diff(&repo, &["--base", &base]));
    assert!(
        markdown.contains("**Clients added**: `gadget` `Gadget`\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("**Capabilities removed**: `transports.sse` `HTTP with SSE`\n"),
        "{markdown}"
    );
    // Cells with a new status first; the one whose status stayed folded below them.
    let new_status = markdown.find("| `transports.stdio` `stdio` | unknown | **yes** |");
    let folded = markdown.find(
        "<details><summary>1 support cell whose status stayed (evidence, notes or \
         lastVerified changed)</summary>",
    );
    let stayed = markdown.find("| `transports.streamableHttp` `Streamable HTTP` | yes | yes |");
    assert!(
        new_status.is_some() && new_status < folded && folded < stayed,
        "{markdown}"
    );
    assert_eq!(
        cell(&value, "widget", "transports.streamableHttp")["changed"],
        serde_json::json!(["lastVerified"])
    );
}

#[test]
fn markdown_is_a_table_per_client_with_preview_links_and_one_line_when_empty() {
    let (repo, base) = repository();
    let out = diff(&repo, &["--base", "HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let short = &base[..7];
    assert_eq!(
        stdout(&out),
        format!(
            "### fieldnotes diff: no change to support cells, notes, pins, clients or \
             capabilities since `{short}`\n"
        )
    );
    edit(&repo, CLIENT, "    status: yes\n", "    status: partial\n");
    // A title that would open a link, a tag and another cell if printed as it is.
    edit(
        &repo,
        CLIENT,
        "title: Widget\n",
        "title: \"Wid|get [x](javascript:y) <b>\"\n",
    );
    let out = diff(
        &repo,
        &[
            "--base",
            "main",
            "--base-url",
            "https://pr-7.preview.example/",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let preview = "https://pr-7.preview.example";
    let expected = format!(
        "### fieldnotes diff: 1 support cell (1 with a new status) changed since `{short}`\n\
         \n\
         `Wid\\|get [x](javascript:y) <b>` [`widget`]({preview}/clients/widget)\n\
         \n\
         | capability | before | after | evidence | changed |\n\
         | --- | --- | --- | --- | --- |\n\
         | [`transports.streamableHttp`]({preview}/capabilities/transports.streamableHttp) \
         `Streamable HTTP` | yes | \
         [**partial**]({preview}/#cell-widget--transports.streamableHttp) | source `457c9c4` | \
         status |\n"
    );
    assert_eq!(stdout(&out), expected);
    // The same links in JSON; a site written as folders links them as folders.
    edit(
        &repo,
        "site/site.yaml",
        "lint:\n",
        "urls: directory\nlint:\n",
    );
    let out = diff(
        &repo,
        &["--base", &base, "--format", "json", "--base-url", preview],
    );
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let changed = cell(&value, "widget", "transports.streamableHttp");
    assert_eq!(
        changed["url"],
        format!("{preview}/#cell-widget--transports.streamableHttp")
    );
    let markdown = stdout(&diff(&repo, &["--base", &base, "--base-url", preview]));
    assert!(
        markdown.contains(&format!("({preview}/clients/widget/)")),
        "{markdown}"
    );
}

#[test]
fn what_cannot_be_compared_is_refused_with_status_2_and_what_to_do() {
    let (repo, base) = repository();
    let refused = |args: &[&str], wanted: &[&str]| {
        let out = diff(&repo, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        let said = stderr(&out);
        for part in wanted {
            assert!(said.contains(part), "{args:?}: {part} in {said}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    };
    refused(
        &["--base", "nope"],
        &["--base nope", "no commit `nope`", "fetch-depth: 0"],
    );
    refused(&["--base=--output=x"], &["starts with `-`"]);
    refused(&["--base", "nope..."], &["no commit `nope`"]);
    refused(
        &["--base", &base, "--base-url", "javascript:alert(1)"],
        &["--base-url", "not a plain http(s) address"],
    );
    // A base where the site folder was not there yet.
    let root_only = {
        let other = Repo::init();
        other.write("README.md", "x\n");
        other.commit("2026-01-01T10:00:00Z", "before the site");
        copy_dir(&fixtures().join("provenance"), &other.path().join("site"));
        other
    };
    let out = diff(&root_only, &["--base", "HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("site folder `site` does not exist"),
        "{}",
        stderr(&out)
    );
    // A site in no git work tree.
    let plain = tempfile::tempdir().expect("temp");
    copy_dir(&fixtures().join("provenance"), plain.path());
    let out = run_with(plain.path(), &["diff", "--base", "HEAD"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not in a git work tree"),
        "{}",
        stderr(&out)
    );
    // `REV...` is where HEAD branched from REV.
    assert_eq!(json(&repo, &format!("{base}..."))["base"], base.as_str());
}

/// A folder of markers, outside every repository.
fn markers() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp");
    let marker = dir.path().join("ran");
    (dir, marker)
}

/// A `config` whose `core.fsmonitor` would create `marker`, beside `HEAD`, `objects/` and
/// `refs/`, in `folder`: what git's own search takes for a git folder.
fn pose_as_git_dir(folder: &Path, marker: &Path) {
    for dir in ["objects", "refs/heads"] {
        fs::create_dir_all(folder.join(dir)).expect("mkdir");
        fs::write(folder.join(dir).join("keep"), "").expect("write");
    }
    fs::write(folder.join("HEAD"), "ref: refs/heads/main\n").expect("write");
    let config = format!(
        "[core]\n\tbare = false\n\tfsmonitor = \"touch '{}'; false\"\n",
        marker.display()
    );
    fs::write(folder.join("config"), config).expect("write");
}

#[test]
fn a_hostile_base_runs_nothing_follows_no_symlink_and_reads_within_bounds() {
    let repo = Repo::init();
    let site = repo.path().join("site");
    copy_dir(&fixtures().join("provenance"), &site);
    let (_markers, marker) = markers();
    // The base commits: a site folder posing as a git folder, a symlinked note that leads
    // out of the site, a note past `limits.maxFileBytes`.
    pose_as_git_dir(&site, &marker);
    std::os::unix::fs::symlink(
        "../../../../etc/passwd",
        site.join("content/research/passwd.md"),
    )
    .expect("symlink");
    edit(
        &repo,
        "site/site.yaml",
        "lint:\n",
        "limits:\n  maxFileBytes: 8192\nlint:\n",
    );
    let huge = format!(
        "---\nid: huge\ntitle: Huge\n---\n\n{}\n",
        "A line of a note past the limit.\n".repeat(1000)
    );
    repo.write("site/content/research/huge.md", &huge);
    let base = repo.commit("2026-01-05T10:00:00Z", "a hostile base");
    // The checkout's own configuration runs a command too, if anything lets it.
    repo.git(&[
        "config",
        "core.fsmonitor",
        &format!("touch '{}'; false", marker.display()),
    ]);

    // The work tree still poses as a git folder: refused, and nothing ran.
    let out = diff(&repo, &["--base", &base]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("holds `HEAD` and `objects/`"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists(), "a fsmonitor command ran");

    // The pull request removes it all: the base is read from git's objects, its git-looking
    // files never taken for a repository, its symlink not followed, its large note not read.
    for name in ["HEAD", "config", "objects", "refs"] {
        let path = site.join(name);
        match path.is_dir() {
            true => fs::remove_dir_all(path).expect("rm"),
            false => fs::remove_file(path).expect("rm"),
        }
    }
    fs::remove_file(site.join("content/research/passwd.md")).expect("rm");
    fs::remove_file(site.join("content/research/huge.md")).expect("rm");
    let out = diff(&repo, &["--base", &base, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!marker.exists(), "a fsmonitor command ran");
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let unread: Vec<(&str, &str)> = (value["unread"].as_array().expect("unread").iter())
        .map(|u| {
            (
                u["path"].as_str().expect("path"),
                u["reason"].as_str().expect("why"),
            )
        })
        .collect();
    assert_eq!(unread.len(), 2, "{unread:?}");
    assert_eq!(unread[0].0, "content/research/huge.md");
    assert!(
        unread[0].1.contains("more than the 8192"),
        "{}",
        unread[0].1
    );
    assert_eq!(unread[1].0, "content/research/passwd.md");
    assert!(unread[1].1.contains("symlink"), "{}", unread[1].1);
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("root:"),
        "no byte of the target"
    );
    assert!(stderr(&out).contains("2 file(s) of the base commit were not read"));
    // What was read compares as usual: nothing else changed.
    assert_eq!(value["notes"]["removed"], serde_json::json!([]));
    assert_eq!(value["cells"], serde_json::json!([]));

    // A base with more content files than `limits.maxFiles` is read up to the limit.
    edit(
        &repo,
        "site/site.yaml",
        "  maxFileBytes: 8192\n",
        "  maxFileBytes: 8192\n  maxFiles: 3\n",
    );
    let value = json(&repo, &base);
    let unread = value["unread"].as_array().expect("unread");
    assert!(
        unread.iter().any(|u| u["reason"]
            .as_str()
            .is_some_and(|r| r.contains("limits.maxFiles"))),
        "{unread:?}"
    );
}
