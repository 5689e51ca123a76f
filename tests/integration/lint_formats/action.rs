//! Tests: the GitHub Action (`action.yml`), its install script (`.github/action/install.sh`)
//! and the release workflow (`.github/workflows/release.yml`). What can run here runs: the
//! files parse as YAML, every input, step and output they name exists, and the install
//! script's platform mapping, checksum check and fallback run against a fake release in a
//! temporary folder. What cannot (a runner, a real release) is left to GitHub.

use serde_yaml::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect(path)
}

fn yaml(path: &str) -> Value {
    serde_yaml::from_str(&repo_file(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/action/install.sh")
}

/// Every `<prefix>NAME…` in `text`: the dotted names that follow `prefix`.
fn references<'a>(text: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    text.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &text[at + prefix.len()..];
            let end = rest.find(|c| !name(c)).unwrap_or(rest.len());
            rest[..end].trim_end_matches('.').split('.').collect()
        })
        .collect()
}

fn steps(file: &Value, job: Option<&str>) -> Vec<Value> {
    let steps = match job {
        Some(job) => &file["jobs"][job]["steps"],
        None => &file["runs"]["steps"],
    };
    steps.as_sequence().expect("steps").clone()
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// The script a step runs: its `run`, and install.sh when it calls it.
fn step_script(step: &Value) -> String {
    let run = text(&step["run"]).to_string();
    match run.contains(".github/action/install.sh") {
        true => run + &repo_file(".github/action/install.sh"),
        false => run,
    }
}

/// Asserts that each `steps.ID.outputs.NAME` in `source` names a step declared before
/// `before` (an index into `steps`) whose script writes `NAME=`.
fn assert_step_outputs_exist(source: &str, steps: &[Value], before: usize, what: &str) {
    for reference in references(source, "steps.") {
        let [id, "outputs", name] = reference[..] else {
            panic!(
                "{what}: steps.{} is not steps.ID.outputs.NAME",
                reference.join(".")
            );
        };
        let step = steps[..before]
            .iter()
            .find(|s| text(&s["id"]) == id)
            .unwrap_or_else(|| panic!("{what}: no step `{id}` before it"));
        assert!(
            step_script(step).contains(&format!("{name}=")),
            "{what}: step `{id}` never writes output `{name}`"
        );
    }
}

#[test]
fn the_action_names_only_inputs_steps_and_outputs_that_exist() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let inputs: BTreeSet<String> = action["inputs"]
        .as_mapping()
        .expect("inputs")
        .keys()
        .map(|k| text(k).to_string())
        .collect();
    let raw = repo_file("action.yml");
    for reference in references(&raw, "inputs.") {
        assert!(
            inputs.contains(reference[0]),
            "inputs.{} is not an input",
            reference[0]
        );
    }
    let steps = steps(&action, None);
    for (at, step) in steps.iter().enumerate() {
        let source = serde_yaml::to_string(step).expect("yaml");
        assert_step_outputs_exist(&source, &steps, at, "action.yml");
        if step.get("uses").is_none() {
            assert_eq!(
                step["shell"], "bash",
                "composite run steps name their shell"
            );
        }
    }
    let outputs = serde_yaml::to_string(&action["outputs"]).expect("yaml");
    assert_step_outputs_exist(&outputs, &steps, steps.len(), "action.yml outputs");
}

#[test]
fn the_action_lints_once_then_uploads_where_the_token_allows() {
    let action = yaml("action.yml");
    let steps = steps(&action, None);
    let position = |what: &dyn Fn(&Value) -> bool| steps.iter().position(what);
    let runs_lint = |step: &Value| {
        (text(&step["run"]).lines()).any(|line| line.trim_start().starts_with("fieldnotes lint"))
    };
    let lints: Vec<usize> = (0..steps.len()).filter(|&i| runs_lint(&steps[i])).collect();
    assert_eq!(lints.len(), 1, "lint runs once");
    let lint = &steps[lints[0]];
    let run = text(&lint["run"]);
    for part in [
        "--format github",
        "sarif=",
        "markdown=",
        "GITHUB_STEP_SUMMARY",
    ] {
        assert!(run.contains(part), "the lint step writes {part}");
    }
    let upload = position(&|s| text(&s["uses"]).starts_with("github/codeql-action/upload-sarif"))
        .expect("an upload step");
    let uses = text(&steps[upload]["uses"]);
    let pin = uses.trim_start_matches("github/codeql-action/upload-sarif@");
    assert!(
        pin.len() == 40 && pin.bytes().all(|b| b.is_ascii_hexdigit()),
        "pinned to a commit: {uses}"
    );
    assert!(upload > lints[0], "SARIF is uploaded after lint wrote it");
    let condition = text(&steps[upload]["if"]);
    assert!(
        condition.contains("github.event.pull_request.head.repo.full_name == github.repository"),
        "no upload from a fork's pull request (its token is read-only): {condition}"
    );
    let fail = position(&|s| text(&s["if"]).contains("exit-code == '1'")).expect("a last step");
    assert!(fail > upload, "findings fail the job after the upload");
    let cache = position(&|s| text(&s["uses"]).starts_with("actions/cache@")).expect("cache");
    let key = text(&steps[cache]["with"]["key"]);
    assert_eq!(key, "${{ steps.plan.outputs.key }}");
}

/// Runs install.sh with `args` and exactly `env` (plus PATH and HOME).
fn install_sh(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("bash");
    command.arg(script()).args(args).env_clear();
    command.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    command.env("HOME", std::env::temp_dir());
    command
        .envs(env.iter().copied())
        .output()
        .expect("bash runs")
}

fn out(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const RUNNERS: [(&str, &str, &str); 5] = [
    (
        "Linux",
        "X64",
        "fieldnotes-x86_64-unknown-linux-musl.tar.gz",
    ),
    (
        "Linux",
        "ARM64",
        "fieldnotes-aarch64-unknown-linux-musl.tar.gz",
    ),
    ("macOS", "X64", "fieldnotes-x86_64-apple-darwin.tar.gz"),
    ("macOS", "ARM64", "fieldnotes-aarch64-apple-darwin.tar.gz"),
    ("Windows", "X64", "fieldnotes-x86_64-pc-windows-msvc.zip"),
];

#[test]
fn each_runner_gets_the_asset_the_release_workflow_builds() {
    let release = yaml(".github/workflows/release.yml");
    let built: BTreeSet<String> = release["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .expect("matrix")
        .iter()
        .map(|entry| format!("fieldnotes-{}", text(&entry["target"])))
        .collect();
    let mut wanted = BTreeSet::new();
    for (os, arch, asset) in RUNNERS {
        let output = install_sh(&["target"], &[("RUNNER_OS", os), ("RUNNER_ARCH", arch)]);
        assert_eq!(out(&output).trim(), asset, "{os}/{arch}");
        let stem = asset.trim_end_matches(".tar.gz").trim_end_matches(".zip");
        wanted.insert(stem.to_string());
    }
    assert_eq!(
        built, wanted,
        "the release builds exactly what runners download"
    );
    let none = install_sh(
        &["target"],
        &[("RUNNER_OS", "Windows"), ("RUNNER_ARCH", "ARM64")],
    );
    assert_eq!(none.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no release binary for Windows/ARM64"));
}

#[test]
fn the_release_workflow_builds_on_tags_and_attaches_checksums() {
    let release = yaml(".github/workflows/release.yml");
    assert_eq!(release["on"]["push"]["tags"][0], "v*");
    let build = steps(&release, Some("build"));
    for (at, step) in build.iter().enumerate() {
        let source = serde_yaml::to_string(step).expect("yaml");
        assert_step_outputs_exist(&source, &build, at, "release.yml build");
    }
    let raw = repo_file(".github/workflows/release.yml");
    let matrix = &release["jobs"]["build"]["strategy"]["matrix"]["include"][0];
    for reference in references(&raw, "matrix.") {
        assert!(
            matrix.get(reference[0]).is_some(),
            "matrix.{} is not in the matrix",
            reference[0]
        );
    }
    let publish = serde_yaml::to_string(&release["jobs"]["release"]).expect("yaml");
    assert!(publish.contains("sha256sum fieldnotes-* > SHA256SUMS"));
    assert!(publish.contains("gh release upload"));
    assert_eq!(
        release["jobs"]["release"]["permissions"]["contents"],
        "write"
    );
}

/// A fake release v9.9.9 in a temporary folder: the Linux x86-64 asset (a script that prints
/// its version) and SHA256SUMS, with `sums` replacing the real checksum when given.
fn fake_release(sums: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp");
    let stage = dir.path().join("stage");
    std::fs::create_dir_all(&stage).expect("mkdir");
    let binary = stage.join("fieldnotes");
    std::fs::write(&binary, "#!/bin/sh\necho 'fieldnotes 9.9.9'\n").expect("write");
    let release = dir.path().join("releases/v9.9.9");
    std::fs::create_dir_all(&release).expect("mkdir");
    let asset = "fieldnotes-x86_64-unknown-linux-musl.tar.gz";
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(release.join(asset))
        .arg("-C")
        .arg(&stage)
        .arg("fieldnotes")
        .status()
        .expect("tar runs");
    assert!(tar.success());
    let sum = Command::new("sha256sum")
        .arg(asset)
        .current_dir(&release)
        .output()
        .expect("sha256sum runs");
    let line = match sums {
        Some(text) => text.to_string(),
        None => String::from_utf8(sum.stdout).expect("utf-8"),
    };
    std::fs::write(release.join("SHA256SUMS"), line).expect("write");
    dir
}

fn installing(release: &Path, url: &str, version: &str) -> (Output, PathBuf, PathBuf) {
    let home = release.join("home");
    let github_path = release.join("github-path");
    let cargo = release.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\necho \"cargo $*\" > \"$(dirname \"$0\")/cargo-args\"\n",
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let output = install_sh(
        &["install"],
        &[
            ("RUNNER_OS", "Linux"),
            ("RUNNER_ARCH", "X64"),
            ("FIELDNOTES_VERSION", version),
            ("FIELDNOTES_RELEASE_URL", url),
            ("FIELDNOTES_REPOSITORY", "acme/fieldnotes"),
            ("FIELDNOTES_HOME", home.to_str().expect("utf-8")),
            ("FIELDNOTES_CARGO", cargo.to_str().expect("utf-8")),
            ("GITHUB_PATH", github_path.to_str().expect("utf-8")),
        ],
    );
    (output, home.join("bin/fieldnotes"), github_path)
}

#[test]
fn the_install_script_installs_a_release_whose_checksum_matches() {
    let release = fake_release(None);
    let folder = release.path().join("releases");
    let url = format!("file://{}", folder.display());
    for base in [folder.to_str().expect("utf-8"), &url] {
        let (output, binary, github_path) = installing(release.path(), base, "v9.9.9");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            out(&output).contains("installed release v9.9.9"),
            "{}",
            out(&output)
        );
        let version = Command::new(&binary)
            .arg("--version")
            .output()
            .expect("runs");
        assert_eq!(out(&version), "fieldnotes 9.9.9\n");
        let path = std::fs::read_to_string(&github_path).expect("GITHUB_PATH");
        assert!(path.contains(binary.parent().expect("bin").to_str().expect("utf-8")));
        std::fs::remove_dir_all(release.path().join("home")).expect("clean");
        std::fs::remove_file(&github_path).expect("clean");
    }
}

#[test]
fn the_install_script_refuses_a_download_that_does_not_match_its_checksum() {
    let wrong = format!(
        "{}  fieldnotes-x86_64-unknown-linux-musl.tar.gz\n",
        "0".repeat(64)
    );
    let release = fake_release(Some(&wrong));
    let folder = release.path().join("releases");
    let (output, binary, _) = installing(release.path(), folder.to_str().expect("utf-8"), "9.9.9");
    assert_eq!(output.status.code(), Some(4));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("does not match its checksum"), "{said}");
    assert!(!binary.exists(), "nothing installed");
    assert!(
        !release.path().join("cargo-args").exists(),
        "no fallback past a bad checksum"
    );
    let unlisted = fake_release(Some("abc  another-file.tar.gz\n"));
    let folder = unlisted.path().join("releases");
    let (output, _, _) = installing(unlisted.path(), folder.to_str().expect("utf-8"), "9.9.9");
    assert_eq!(
        output.status.code(),
        Some(4),
        "an asset SHA256SUMS does not list"
    );
}

#[test]
fn without_a_release_the_install_script_builds_with_cargo() {
    let release = fake_release(None);
    let folder = release.path().join("releases");
    let folder = folder.to_str().expect("utf-8");
    for (version, args) in [
        (
            "9.9.8",
            "--git https://github.com/acme/fieldnotes --tag v9.9.8 fieldnotes",
        ),
        (
            "my-branch",
            "--git https://github.com/acme/fieldnotes --rev my-branch fieldnotes",
        ),
    ] {
        let (output, _, _) = installing(release.path(), folder, version);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let called = std::fs::read_to_string(release.path().join("cargo-args")).expect("cargo");
        assert!(
            called.starts_with("cargo install --locked --force --root "),
            "{called}"
        );
        assert!(called.trim_end().ends_with(args), "{called}");
    }
}

fn plan(action_path: &Path, version: &str) -> String {
    let output = install_sh(
        &["plan"],
        &[
            ("RUNNER_OS", "Linux"),
            ("RUNNER_ARCH", "ARM64"),
            ("ACTION_PATH", action_path.to_str().expect("utf-8")),
            ("FIELDNOTES_VERSION", version),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out(&output)
}

#[test]
fn the_install_plan_keys_the_cache_by_os_architecture_and_version() {
    let runner = tempfile::tempdir().expect("temp");
    let checkout = |reference: &str| {
        let path = runner
            .path()
            .join("_actions/acme/fieldnotes")
            .join(reference);
        std::fs::create_dir_all(path.join("src")).expect("mkdir");
        std::fs::write(
            path.join("Cargo.toml"),
            "[package]\nname = \"fieldnotes\"\nversion = \"1.2.3\"\n",
        )
        .expect("write");
        std::fs::write(path.join("src/main.rs"), "fn main() {}\n").expect("write");
        path
    };
    for reference in ["v1", "v1.2", "v1.2.3"] {
        assert_eq!(
            plan(&checkout(reference), ""),
            "version=1.2.3\nkey=fieldnotes-Linux-ARM64-1.2.3\n",
            "uses: …@{reference}"
        );
    }
    let main = plan(&checkout("main"), "");
    assert!(
        main.starts_with("version=\nkey=fieldnotes-Linux-ARM64-src-"),
        "{main}"
    );
    let v2 = plan(&checkout("v2"), "");
    assert!(v2.starts_with("version=\n"), "v2 is not 1.2.3's tag: {v2}");
    assert_eq!(
        plan(&checkout("main"), "v2.0.0"),
        "version=2.0.0\nkey=fieldnotes-Linux-ARM64-2.0.0\n"
    );
    assert_eq!(
        plan(&checkout("main"), "abc1234"),
        "version=\nkey=fieldnotes-Linux-ARM64-git-abc1234\n"
    );
}

#[test]
fn a_cached_binary_is_kept_only_under_its_own_key() {
    let release = fake_release(None);
    let folder = release.path().join("releases");
    let home = release.path().join("home");
    let env = |key: &'static str| {
        vec![
            ("RUNNER_OS", "Linux"),
            ("RUNNER_ARCH", "X64"),
            ("FIELDNOTES_VERSION", "9.9.9"),
            ("FIELDNOTES_KEY", key),
        ]
    };
    let run = |key: &'static str| {
        let mut vars = env(key);
        vars.push(("FIELDNOTES_RELEASE_URL", folder.to_str().expect("utf-8")));
        vars.push(("FIELDNOTES_HOME", home.to_str().expect("utf-8")));
        out(&install_sh(&["install"], &vars))
    };
    assert!(run("k1").contains("installed release"));
    assert!(run("k1").contains("cached fieldnotes 9.9.9"));
    assert!(
        run("k2").contains("installed release"),
        "another key installs anew"
    );
}

#[test]
fn the_action_writes_the_diff_to_the_summary_and_comments_only_where_the_token_writes() {
    let action = yaml("action.yml");
    let steps = steps(&action, None);
    let position = |name: &str| {
        (steps.iter())
            .position(|s| text(&s["name"]) == name)
            .unwrap_or_else(|| panic!("a step `{name}`"))
    };
    let (lint, diff, comment, fail) = (
        position("Lint"),
        position("Diff"),
        position("Comment the diff on the pull request"),
        position("Fail on findings"),
    );
    assert!(
        lint < diff && diff < comment && comment < fail,
        "lint, diff, comment, then fail"
    );
    let run = text(&steps[diff]["run"]);
    for part in [
        "fieldnotes diff --base \"$BASE\"",
        "GITHUB_STEP_SUMMARY",
        "file=",
    ] {
        assert!(run.contains(part), "the diff step has {part}");
    }
    let base = position("Base commit");
    assert!(base < lint, "the base commit is fetched before lint");
    assert!(
        text(&steps[base]["env"]["BASE"]).contains("github.event.pull_request.base.sha"),
        "a pull request is compared with its base"
    );
    for step in [lint, diff] {
        assert_eq!(
            text(&steps[step]["env"]["BASE"]),
            "${{ steps.base.outputs.sha }}"
        );
    }
    assert!(
        text(&steps[lint]["run"]).contains("extra+=(--config-from \"$BASE\")"),
        "lint takes its settings from the base"
    );
    let condition = text(&steps[comment]["if"]);
    for part in [
        "github.event.pull_request.head.repo.full_name == github.repository",
        "github.actor != 'dependabot[bot]'",
        "inputs.comment == 'true'",
    ] {
        assert!(
            condition.contains(part),
            "the comment step's condition has {part}: {condition}"
        );
    }
    assert!(text(&steps[comment]["run"]).contains(".github/action/comment.sh"));
}
