//! Tests: the second example site (`examples/canilsp`, "Can I LSP?", about another protocol)
//! lints clean and builds; its own files never name the first site's protocol; and
//! `fieldnotes workflows` writes, for it, an issue form whose headings `fieldnotes submit`
//! reads and workflows the repository's least-privilege checker passes.

use crate::support::{copy_dir, example_site_day};
use crate::workflows::checker;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn second_site() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/canilsp")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_second_site_lints_clean_and_builds_its_pages() {
    let (_, findings) = fieldnotes::check(&second_site(), example_site_day()).expect("opens");
    let shown: Vec<String> = (findings.iter())
        .map(|d| format!("{} {}:{} {}", d.code, d.file, d.line, d.message))
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
    let out = tempfile::tempdir().expect("temp dir");
    let mut options = fieldnotes::BuildOptions::new(second_site(), out.path().to_path_buf());
    options.today = example_site_day();
    let report = fieldnotes::build(&options).expect("builds");
    assert!(report.pages > 10, "{} pages", report.pages);
    for page in [
        "index.html",
        "clients/helix.html",
        "clients/kakoune-lsp.html",
        "clients/eglot.html",
        "capabilities/diagnostics.pull.html",
        "spec/3.18.html",
        "research/helix-pulls-diagnostics-on-main-only.html",
        "guides/reading-this-site.html",
    ] {
        assert!(out.path().join(page).is_file(), "{page} is missing");
    }
    let helix = fs::read_to_string(out.path().join("clients/helix.html")).expect("page");
    assert!(
        helix.contains("helix-lsp/src/client.rs"),
        "the pinned file is cited"
    );
    assert!(helix.contains("079a789e8cb08ead67f19e1971a1b7438b37354b"));
}

#[test]
fn the_second_site_never_names_the_first_sites_protocol() {
    for entry in walkdir::WalkDir::new(second_site()) {
        let entry = entry.expect("walk");
        if !entry.file_type().is_file() {
            continue;
        }
        let text = fs::read_to_string(entry.path()).expect("text");
        for word in ["MCP", "Model Context Protocol", "modelcontextprotocol"] {
            assert!(
                !text.contains(word),
                "{} names {word}",
                entry.path().display()
            );
        }
    }
}

#[test]
fn no_page_badge_schema_feed_or_explain_text_of_the_second_site_names_mcp() {
    crate::site_words::assert_names_no_mcp(&second_site(), "2026-12-06");
}

/// Writes the workflows for a copy of the second site whose repository is a temporary folder
/// (the site at `site/`), and returns that folder.
fn written() -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("temp dir");
    copy_dir(&second_site(), &repo.path().join("site"));
    fs::create_dir(repo.path().join(".git")).expect("a repository's top");
    let out = run(&repo.path().join("site"), &["workflows"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    repo
}

#[test]
fn the_written_workflows_keep_least_privilege_and_run_the_release() {
    let repo = written();
    for file in [".github/workflows/submit.yml", ".github/workflows/lint.yml"] {
        let text = fs::read_to_string(repo.path().join(file)).expect(file);
        let found = checker::check(file, &text);
        assert!(found.is_empty(), "{}", found.join("\n"));
        assert!(!text.contains("cargo "), "{file} builds from source");
        let version = format!("FIELDNOTES_VERSION: \"{}\"", env!("CARGO_PKG_VERSION"));
        assert!(text.contains(&version), "{file} installs this release");
        assert!(
            text.contains("ROOT: \"site\""),
            "{file} runs on the site's folder"
        );
        let workflow: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
        assert_eq!(workflow["permissions"], serde_json::json!({}));
    }
    let submit: serde_json::Value = serde_yaml::from_str(
        &fs::read_to_string(repo.path().join(".github/workflows/submit.yml")).expect("submit"),
    )
    .expect("YAML");
    let jobs: Vec<&String> = submit["jobs"].as_object().expect("jobs").keys().collect();
    assert_eq!(jobs, ["propose", "submit"]);
    assert_eq!(
        submit["jobs"]["submit"]["permissions"],
        serde_json::json!({"contents": "read"})
    );
    let propose = serde_yaml::to_string(&submit["jobs"]["propose"]).expect("yaml");
    assert!(
        !propose.contains("fieldnotes --root"),
        "propose runs no fieldnotes"
    );
    let script = repo.path().join(".github/scripts/review-text.sh");
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/scripts/review-text.sh");
    assert_eq!(
        fs::read(script).expect("script"),
        fs::read(own).expect("own")
    );
}

#[test]
fn a_body_with_the_written_forms_headings_is_read_by_submit() {
    let repo = written();
    let text = fs::read_to_string(
        repo.path()
            .join(".github/ISSUE_TEMPLATE/report-support.yml"),
    )
    .expect("the form");
    assert!(text.contains("Can I LSP?"), "the form speaks of the site");
    let form: serde_json::Value = serde_yaml::from_str(&text).expect("YAML");
    let fields: Vec<&serde_json::Value> = (form["body"].as_array().expect("body").iter())
        .filter(|f| f["type"] != "markdown")
        .collect();
    let client = fields[0]["attributes"]["options"]
        .as_array()
        .expect("clients");
    assert!(
        client.contains(&serde_json::json!("kakoune-lsp")),
        "{client:?}"
    );
    let answer = |label: &str| {
        match label {
        // The site's words: an editor and a feature (vocabulary in its site.yaml).
        "Editor" => "helix",
        "Feature" => "language.semanticTokens",
        "Status" => "no",
        "Evidence URL" => "https://github.com/helix-editor/helix/blob/079a789e8cb08ead67f19e1971a1b7438b37354b/helix-lsp/src/client.rs#L636-L746",
        _ => "_No response_",
    }
    };
    let body: String = (fields.iter())
        .map(|f| {
            let label = f["attributes"]["label"].as_str().expect("label");
            format!("### {label}\n\n{}\n\n", answer(label))
        })
        .collect();
    let body_file = repo.path().join("form.md");
    fs::write(&body_file, body).expect("write");
    let out = run(
        &repo.path().join("site"),
        &[
            "submit",
            body_file.to_str().expect("path"),
            "--dry-run",
            "--today",
            "2026-12-06",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("content/clients/helix.md"), "{printed}");
}

#[test]
fn written_files_are_not_overwritten_without_force() {
    let repo = written();
    let form = repo
        .path()
        .join(".github/ISSUE_TEMPLATE/report-support.yml");
    fs::write(&form, "kept\n").expect("edit");
    let out = run(&repo.path().join("site"), &["workflows"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&form).expect("form"), "kept\n");
    let lint = repo.path().join(".github/workflows/lint.yml");
    fs::remove_file(&lint).expect("remove");
    let out = run(&repo.path().join("site"), &["workflows"]);
    assert_eq!(out.status.code(), Some(2), "one file there refuses all");
    assert!(!lint.exists());
    let out = run(&repo.path().join("site"), &["workflows", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(fs::read_to_string(&form)
        .expect("form")
        .contains("Report support"));
}
