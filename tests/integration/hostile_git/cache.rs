//! The source cache: one folder per repository URL, scheme included (an `http://` pin is
//! never checked against an `https://` clone); credentials in a source URL are never printed,
//! never part of a folder's name, never given to git; and a cached clone's hooks never run.

use super::{fieldnotes, markers, stderr, stdout};
use crate::provenance::widget::{git_command, Widget, WIDGET};
use crate::provenance::{fixture, url_of_local};
use fieldnotes::provenance::cache::CacheConfig;
use std::fs;
use std::path::Path;

const NOTE: &str = "content/research/widget-picks-streamable-http.md";

/// Replaces the first `from` in the fixture's note with `to`.
fn edit(site: &crate::support::TestSite, from: &str, to: &str) {
    let text = fs::read_to_string(site.root().join(NOTE)).expect("note");
    assert!(text.contains(from), "{from}");
    site.write(NOTE, &text.replacen(from, to, 1));
}

/// A bare clone of the widget, seeded by hand where the cache keeps `url`.
fn seed(cache: &Path, url: &str, widget: &Widget) -> std::path::PathBuf {
    let folder = CacheConfig::new(cache.to_path_buf()).folder(url);
    fs::create_dir_all(folder.parent().expect("parent")).expect("mkdir");
    let status = git_command("2026-01-05T10:00:00Z")
        .args(["clone", "--quiet", "--bare"])
        .arg(widget.repo.path())
        .arg(&folder)
        .status()
        .expect("git runs");
    assert!(status.success());
    folder
}

/// The codes `sources verify --format json` reported for the note.
fn codes_in_note(out: &std::process::Output) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    (value["diagnostics"].as_array().expect("list"))
        .iter()
        .filter(|d| d["file"] == NOTE)
        .map(|d| d["code"].as_str().expect("code").to_string())
        .collect()
}

#[test]
fn an_http_pin_is_never_checked_against_an_https_clone() {
    let (site, widget) = fixture();
    let cache = tempfile::tempdir().expect("temp dir");
    seed(cache.path(), WIDGET, &widget);
    edit(
        &site,
        "url: https://git.test/acme/widget",
        "url: http://git.test/acme/widget",
    );
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let args = [
        "sources",
        "verify",
        "--format",
        "json",
        "--cache",
        &cache_arg,
        "--offline",
    ];
    let out = fieldnotes(site.root(), &args, &[]);
    assert_eq!(codes_in_note(&out), ["FN955"], "{}", stdout(&out));
    assert!(stdout(&out).contains("http://git.test/acme/widget is not in the cache"));
}

#[test]
fn credentials_in_a_source_url_are_never_printed_named_or_given_to_git() {
    let (site, widget) = fixture();
    edit(
        &site,
        "url: https://git.test/acme/widget",
        "url: https://reader:s3cret-token@git.test/acme/widget",
    );
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    // git knows the repository's URL without credentials only (as a maintainer's
    // `insteadOf` or credential helper would): the clone works only if none are passed.
    let env = url_of_local(widget.repo.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for command in [&["verify", "--format", "json"][..], &["drift"], &["verify"]] {
        let mut args = vec!["sources"];
        args.extend(command);
        args.extend(["--cache", &cache_arg, "--timeout", "10"]);
        let out = fieldnotes(site.root(), &args, &env);
        let printed = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!printed.contains("s3cret"), "{command:?}: {printed}");
        if command[0] == "verify" && command.len() == 3 {
            assert!(codes_in_note(&out).is_empty(), "{printed}");
        }
    }
    for entry in walkdir::WalkDir::new(cache.path()) {
        let path = entry.expect("entry").path().to_string_lossy().into_owned();
        assert!(
            !path.contains("s3cret") && !path.contains("reader"),
            "{path}"
        );
    }
}

#[test]
fn a_cached_clones_hooks_never_run() {
    let (site, widget) = fixture();
    let cache = tempfile::tempdir().expect("temp dir");
    let folder = seed(cache.path(), WIDGET, &widget);
    let (_markers, marker) = markers();
    let hook = folder.join("hooks/reference-transaction");
    fs::create_dir_all(hook.parent().expect("hooks")).expect("mkdir");
    fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", marker.display())).expect("write");
    let mut permissions = fs::metadata(&hook).expect("hook").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(&hook, permissions).expect("chmod");
    // A commit pushed after the clone: verify fetches, which updates refs.
    widget.repo.write("src/new.py", "NEW = 1\n");
    let v3 = widget.repo.commit("2026-04-01T10:00:00Z", "v3");
    edit(&site, "commit: 457c9c41", &format!("commit: {v3}"));
    edit(&site, "src/transport.py:5-8", "src/new.py:1");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let env = url_of_local(widget.repo.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let args = [
        "sources",
        "verify",
        "--format",
        "json",
        "--cache",
        &cache_arg,
        "--timeout",
        "10",
    ];
    let out = fieldnotes(site.root(), &args, &env);
    assert!(codes_in_note(&out).is_empty(), "{}", stdout(&out));
    assert!(!marker.exists(), "a hook of the cached clone ran");
}

#[test]
fn a_cache_inside_the_site_is_refused() {
    // A pull request can commit a bare "clone" in which its pins hold, with its own
    // configuration, where a cache folder inside the site would find it.
    let (site, widget) = fixture();
    let cache = site.root().join(".cache");
    seed(&cache, WIDGET, &widget);
    let cache_arg = cache.to_string_lossy().into_owned();
    for command in ["verify", "drift"] {
        let out = fieldnotes(
            site.root(),
            &["sources", command, "--cache", &cache_arg, "--offline"],
            &[],
        );
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the cache folder is inside"),
            "{}",
            stderr(&out)
        );
    }
}
