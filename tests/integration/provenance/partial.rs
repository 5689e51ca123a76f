//! Tests: partial clones (`--partial`, `git clone --filter=blob:none`). Verify and drift give
//! the same answers as with a full clone, file contents fetched as they are read; offline, a
//! file the clone never fetched makes its source unchecked, never gone.

use super::widget::{Widget, WIDGET};
use super::{fixture, json_codes, run_with, BROKEN};
use fieldnotes::provenance::cache::CacheConfig;
use std::process::Command;

/// git configuration (by environment) that makes the widget's URL a `file://` URL of the
/// local repository, which serves partial clones.
fn served(widget: &Widget) -> Vec<(&'static str, String)> {
    widget
        .repo
        .git(&["config", "uploadpack.allowFilter", "true"]);
    widget
        .repo
        .git(&["config", "uploadpack.allowAnySHA1InWant", "true"]);
    vec![
        ("GIT_CONFIG_COUNT", "1".to_string()),
        (
            "GIT_CONFIG_KEY_0",
            format!("url.file://{}.insteadOf", widget.repo.path().display()),
        ),
        ("GIT_CONFIG_VALUE_0", WIDGET.to_string()),
    ]
}

#[test]
fn a_partial_clone_answers_as_a_full_one_and_offline_never_guesses() {
    let (site, widget) = fixture();
    let env = served(&widget);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let with = |extra: &[&'static str]| {
        let mut args = vec!["sources"];
        args.extend(extra);
        args.extend(["--cache", &cache_arg, "--timeout", "20"]);
        args
    };

    let out = run_with(
        site.root(),
        &with(&["verify", "--partial", "--format", "json"]),
        &env,
    );
    assert_eq!(
        json_codes(&out),
        BROKEN,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = CacheConfig::new(cache.path().to_path_buf()).folder(WIDGET);
    let promisor = Command::new("git")
        .arg("--git-dir")
        .arg(&folder)
        .args(["config", "remote.origin.promisor"])
        .output()
        .expect("git runs");
    assert_eq!(String::from_utf8_lossy(&promisor.stdout).trim(), "true");

    // Offline, `src/errors.py` as the head has it was never fetched (no source pins it
    // there): its source is unchecked, not changed or gone; the deleted file's is gone.
    let out = run_with(
        site.root(),
        &with(&["drift", "--offline", "--format", "json"]),
        &env,
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let state = |file: &str| {
        let sources = report["sources"].as_array().expect("sources");
        let source = sources
            .iter()
            .find(|s| s["file"] == format!("content/research/{file}.md"))
            .expect("a source");
        (source["state"].clone(), source["reason"].clone())
    };
    let (changed, why) = state("widget-falls-back-on-rejection");
    assert_eq!(changed, "unchecked");
    assert!(
        why.as_str().is_some_and(|w| w.contains("partial clone")),
        "{why}"
    );
    assert_eq!(state("widget-documented-sse").0, "gone");
    assert_eq!(state("widget-picks-streamable-http").0, "moved");

    // Online, drift fetches what it reads and answers as with a full clone.
    let out = run_with(site.root(), &with(&["drift", "--format", "json"]), &env);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let summary = &report["summary"];
    assert_eq!(
        [
            &summary["unchanged"],
            &summary["moved"],
            &summary["changed"],
            &summary["gone"]
        ],
        [3, 2, 1, 1],
        "{report}"
    );
}
