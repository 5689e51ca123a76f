//! Property tests: any bytes, as any kind of content file, go through load, parse, index and
//! lint without a panic, and every finding they give points inside the file.

use fieldnotes::config::SiteConfig;
use fieldnotes::text_file::Section;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const SITE_YAML: &str = "title: T\nbaseUrl: https://example.org\nspecVersions:\n  - id: 2025-03-26\ncapabilityGroups:\n  - id: transports\n    title: Transports\nkinds:\n  - id: idiosyncrasy\n";

/// Lints a site of one file, `bytes` at `content/<section>/x.md`, in memory.
fn lint_one(section: Section, bytes: Vec<u8>) {
    let config = SiteConfig::parse(SITE_YAML, Path::new("site.yaml")).expect("site.yaml");
    let path = PathBuf::from(format!("content/{}/x.md", section.dir()));
    let loaded = fieldnotes::load::from_memory(Path::new("."), config, vec![(path, bytes)]);
    let index = fieldnotes::index::index(fieldnotes::parse::parse(loaded));
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date");
    let findings = fieldnotes::lint::lint(&index, today).expect("lint runs");
    let lines = index.files[0].line_count();
    for d in &findings {
        assert!(d.line >= 1 && d.line <= lines, "{d:?} is outside the file");
        assert!(d.end_line >= d.line, "{d:?} ends before it starts");
        assert!(d.help.is_some(), "{d:?} says nothing about what to do");
    }
}

fn section() -> impl Strategy<Value = Section> {
    prop::sample::select(Section::ALL.to_vec())
}

/// Text shaped like a content file: fences, YAML's and Markdown's special characters.
fn file_like() -> impl Strategy<Value = String> {
    let yaml = "[a-z0-9:\\[\\]{}&*!|>#'\"%@`,?~ \t\n.-]{0,300}";
    let markdown = "[a-z0-9\\[\\]()<>!#*_`/.:\n \\\\&;=-]{0,300}";
    (
        prop::sample::select(vec!["---\n", "\u{feff}---\r\n", "", "---\r"]),
        yaml,
        prop::sample::select(vec!["\n---\n", "\r\n---\r\n", "\n...\n", ""]),
        markdown,
    )
        .prop_map(|(open, yaml, close, body)| format!("{open}{yaml}{close}{body}"))
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(section in section(), bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        lint_one(section, bytes);
    }

    #[test]
    fn file_shaped_text_never_panics(section in section(), text in file_like()) {
        lint_one(section, text.into_bytes());
    }
}
