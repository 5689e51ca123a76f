//! Fuzz target: front matter parsing. Any bytes, split into front matter and body, the YAML
//! read into spanned nodes and the typed model of the section the first byte picks.
#![no_main]

mod common;

use fieldnotes::parse::{frontmatter, parse_file, yaml};
use fieldnotes::text_file::TextFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (section, rest) = common::pick_section(data);
    let source = TextFile::new("content/x.md", String::from_utf8_lossy(rest).into_owned());
    if let frontmatter::Split::Found { yaml, .. } = frontmatter::split(&source.text) {
        if let Ok(node) = yaml::parse(&source, 0, yaml.start, yaml.end) {
            let _ = node.to_value();
        }
    }
    let _ = parse_file(&source, 0, section, 256 * 1024);
});
