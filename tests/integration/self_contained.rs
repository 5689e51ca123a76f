//! Tests: the test suite reads nothing outside the repository, so a fresh clone with nothing
//! beside it passes `cargo test`. Every path a test, bench, example or the crate itself builds
//! from the manifest folder, every `include_str!`/`include_bytes!`, every snapshot folder, every
//! folder the browser tests resolve, and every symlink in the tree must stay under the root.

use std::path::{Component, Path, PathBuf};

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Folders whose files are source the suite runs (build output and dependencies left out).
const SCANNED: [&str; 6] = ["src", "tests", "examples", "bench", "benches", "fuzz"];

/// Skipped while walking: build output, installed packages, git's own folder.
fn skipped(path: &Path) -> bool {
    path.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some("target" | "node_modules" | ".git" | "corpus" | "artifacts")
        )
    })
}

/// Every file under the scanned folders, relative paths kept for messages.
fn files() -> Vec<PathBuf> {
    let root = root();
    SCANNED
        .iter()
        .map(|folder| root.join(folder))
        .filter(|folder| folder.exists())
        .flat_map(|folder| walkdir::WalkDir::new(folder).follow_links(false))
        .map(|entry| entry.expect("walk the repository").into_path())
        .filter(|path| !skipped(path.strip_prefix(&root).expect("under root")))
        .collect()
}

/// `path` with `.` and `..` folded away lexically (no file system access: the target may not
/// exist, which is the case this test is about).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The string literals on one line of source.
fn literals(line: &str) -> Vec<&str> {
    line.split('"')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s)
        .collect()
}

/// Where each path-like literal on a line resolves, if the line says what it is relative to:
/// the manifest folder (`CARGO_MANIFEST_DIR`, the fixtures helper), or the file's own folder
/// (`include_*!`, insta's `snapshot_path`, `path.resolve(here, …)` in the browser tests).
fn anchored_paths(file: &Path, line: &str, previous: &str) -> Vec<PathBuf> {
    let context = format!("{previous} {line}");
    let base = if context.contains("CARGO_MANIFEST_DIR") || context.contains("fixtures()") {
        root()
    } else if [
        "include_str!",
        "include_bytes!",
        "snapshot_path",
        "path.resolve(here",
    ]
    .iter()
    .any(|anchor| line.contains(anchor))
    {
        file.parent().expect("a file has a folder").to_path_buf()
    } else {
        return Vec::new();
    };
    literals(line)
        .into_iter()
        .filter(|s| s.split('/').any(|part| part == ".."))
        .map(|s| normalize(&base.join(s.trim_start_matches('/'))))
        .collect()
}

/// Every path the sources anchor to the repository or to themselves that lands outside it.
fn climbing_paths() -> Vec<String> {
    let root = root();
    let mut found = Vec::new();
    for file in files() {
        let extension = file.extension().and_then(|e| e.to_str());
        if !matches!(extension, Some("rs" | "js" | "mjs" | "sh")) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let mut previous = "";
        for (number, line) in text.lines().enumerate() {
            for target in anchored_paths(&file, line, previous) {
                if !target.starts_with(&root) {
                    found.push(format!(
                        "{}:{}: {}",
                        file.strip_prefix(&root).expect("under root").display(),
                        number + 1,
                        target.display()
                    ));
                }
            }
            previous = line;
        }
    }
    found
}

#[test]
fn no_test_or_source_path_climbs_above_the_repository() {
    let found = climbing_paths();
    assert!(
        found.is_empty(),
        "these paths leave the repository; a fresh clone has nothing there, so put what they \
         read in tests/fixtures/:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_symlink_in_the_tree_points_inside_it() {
    let root = root();
    let mut outside = Vec::new();
    for path in files() {
        let Ok(target) = std::fs::read_link(&path) else {
            continue;
        };
        let resolved = normalize(&path.parent().expect("has folder").join(target));
        if !resolved.starts_with(&root) {
            outside.push(path.display().to_string());
        }
    }
    assert!(
        outside.is_empty(),
        "symlinks leaving the repository: {outside:?}"
    );
}

#[test]
fn the_guard_sees_a_path_above_the_root() {
    let file = root().join("tests/integration/x.rs");
    let manifest =
        r#"let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../beside-the-clone/seeds");"#;
    assert_eq!(
        anchored_paths(&file, manifest, ""),
        [normalize(&root().join("../beside-the-clone/seeds"))]
    );
    assert!(!normalize(&root().join("../beside-the-clone/seeds")).starts_with(root()));
    let chained = r#"    .join("../../elsewhere")"#;
    let anchor = r#"let dir = Path::new(env!("CARGO_MANIFEST_DIR"))"#;
    assert_eq!(anchored_paths(&file, chained, anchor).len(), 1);
    let snapshot = r#"insta::with_settings!({ snapshot_path => "../snapshots" }, {"#;
    assert_eq!(
        anchored_paths(&file, snapshot, ""),
        [root().join("tests/snapshots")]
    );
    let payload = r#"site.write("x.md", "[a](../../../etc/passwd)");"#;
    assert_eq!(anchored_paths(&file, payload, ""), Vec::<PathBuf>::new());
}
