//! Fuzz target: whole-file lint. Any bytes as one content file (its section picked by the first
//! byte) in a small valid site: parsed, indexed, every rule run, every finding printed.
#![no_main]

mod common;

use fieldnotes::cli::Format;
use fieldnotes::lint::format::{render, Report};
use fieldnotes::Summary;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (section, rest) = common::pick_section(data);
    let index = common::site_with(section, "fuzzed", rest.to_vec());
    let findings = fieldnotes::lint::lint(&index, common::today()).expect("lint runs");
    let report = Report {
        diagnostics: &findings,
        files: &index.files,
        summary: Summary::of(&findings, index.files.len()),
    };
    for format in [Format::Human, Format::Json, Format::Sarif, Format::Github] {
        let _ = render(&report, format, false);
    }
});
