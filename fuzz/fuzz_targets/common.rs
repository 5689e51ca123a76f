//! What the fuzz targets share: a small valid site in memory, with one file added.
#![allow(dead_code)]

use fieldnotes::config::SiteConfig;
use fieldnotes::index::SiteIndex;
use fieldnotes::text_file::Section;
use std::path::{Path, PathBuf};

const SITE_YAML: &str = "title: Fuzz\nbaseUrl: https://example.org\nspecVersions:\n  - id: 2025-03-26\ncapabilityGroups:\n  - id: transports\n    title: Transports\nkinds:\n  - id: idiosyncrasy\n";

const CLIENT: &str = "---\nid: client-a\ntitle: Client A\nsupport:\n  transports.sse:\n    status: yes\n    research: [a-note]\n---\nClient A.\n";

const CAPABILITY: &str =
    "---\nid: transports.sse\ntitle: SSE\ngroup: transports\nintroduced: 2025-03-26\n---\nSSE.\n";

/// A valid note whose body is `body`.
pub fn note(body: &[u8]) -> Vec<u8> {
    let mut text = b"---\nid: a-note\ntitle: A note\nkind: idiosyncrasy\nsummary: Short.\ncapabilities: [transports.sse]\nclients: [client-a]\nspecVersions: [2025-03-26]\nsources:\n  - url: https://github.com/example/a\n    commit: 0123abc\n    path: a.py:1-2\n    date: 2026-11-01\nstatus: current\nlastVerified: 2026-11-02\nrelated: [b-note]\n---\n".to_vec();
    text.extend_from_slice(body);
    text
}

/// The section a fuzz input's first byte picks, and the rest of the input.
pub fn pick_section(data: &[u8]) -> (Section, &[u8]) {
    match data.split_first() {
        Some((first, rest)) => (Section::ALL[usize::from(*first) % 4], rest),
        None => (Section::Research, data),
    }
}

/// The base site plus `file` at `content/<section>/<name>.md`, loaded, parsed and indexed.
pub fn site_with(section: Section, name: &str, file: Vec<u8>) -> SiteIndex {
    let config = SiteConfig::parse(SITE_YAML, Path::new("site.yaml")).expect("site.yaml");
    let files = vec![
        (
            PathBuf::from("content/clients/client-a.md"),
            CLIENT.as_bytes().to_vec(),
        ),
        (
            PathBuf::from("content/capabilities/transports.sse.md"),
            CAPABILITY.as_bytes().to_vec(),
        ),
        (
            PathBuf::from("content/research/b-note.md"),
            note(b"See [a](a-note.md).\n"),
        ),
        (
            PathBuf::from(format!("content/{}/{name}.md", section.dir())),
            file,
        ),
    ];
    let loaded = fieldnotes::load::from_memory(Path::new("."), config, files);
    fieldnotes::index::index(fieldnotes::parse::parse(loaded))
}

/// The day lint measures from.
pub fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("date")
}
