//! Test helpers: fixture sites copied or written into temporary folders, built and linted.

#![allow(dead_code)]

use chrono::NaiveDate;
use fieldnotes::{BuildOptions, BuildReport, Diagnostic};
use std::fs;
use std::path::{Path, PathBuf};

/// The fixed day tests lint against, so "future" and "stale" never drift.
pub fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 30).expect("valid date")
}

/// The day tests lint the bundled example site on: the newest `lastVerified` in its content
/// (a later day would flag nothing for months; an earlier one flags its newest dates as
/// future). Move it forward when the content is verified again.
pub fn example_site_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 7).expect("valid date")
}

/// The folder holding the fixture sites.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A site in a temporary folder, made from a fixture and/or files written by the test.
pub struct TestSite {
    pub dir: tempfile::TempDir,
}

impl TestSite {
    /// An empty site folder.
    pub fn empty() -> TestSite {
        TestSite {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A copy of `tests/fixtures/<name>`.
    pub fn fixture(name: &str) -> TestSite {
        let site = TestSite::empty();
        copy_dir(&fixtures().join(name), site.root());
        site
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` at `path` (relative to the site root), creating folders.
    pub fn write(&self, path: &str, text: &str) -> &TestSite {
        let target = self.root().join(path);
        fs::create_dir_all(target.parent().expect("has parent")).expect("mkdir");
        fs::write(target, text).expect("write");
        self
    }

    pub fn remove(&self, path: &str) -> &TestSite {
        fs::remove_file(self.root().join(path)).expect("remove");
        self
    }

    /// Lints the site as of [`today`].
    pub fn lint(&self) -> Vec<Diagnostic> {
        fieldnotes::check(self.root(), today())
            .expect("site opens")
            .1
    }

    /// The output folder builds write to.
    pub fn out(&self) -> PathBuf {
        self.root().join("public")
    }

    /// Builds the site into `public/` as of [`today`].
    pub fn build(&self) -> BuildReport {
        let mut options = BuildOptions::new(self.root().to_path_buf(), self.out());
        options.today = today();
        fieldnotes::build(&options).expect("build runs")
    }

    /// A file of the built site, as text.
    pub fn output(&self, path: &str) -> String {
        let file = self.out().join(path);
        fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
    }
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.expect("walk fixture");
        let target = to.join(entry.path().strip_prefix(from).expect("under fixture"));
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).expect("mkdir");
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// `(code, line)` of each finding, for compact assertions.
pub fn codes_and_lines(findings: &[Diagnostic]) -> Vec<(&'static str, usize)> {
    findings.iter().map(|d| (d.code, d.line)).collect()
}

/// Every file under `dir`, by `/`-separated path relative to it, with its bytes.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk output"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let path = e.path().strip_prefix(dir).expect("under dir");
            let bytes = fs::read(e.path()).expect("read output");
            (fieldnotes::text_file::display_path(path), bytes)
        })
        .collect()
}
