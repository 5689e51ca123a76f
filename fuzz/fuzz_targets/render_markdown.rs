//! Fuzz target: Markdown rendering with link rewriting. The input is the body of a valid
//! note, rendered with the whole site (links resolved and rewritten, templates applied); no
//! page may carry the body's raw `<script>`.
#![no_main]

mod common;

use fieldnotes::text_file::Section;
use fieldnotes::render::output::MemoryOutput;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let index = common::site_with(Section::Research, "a-note", common::note(data));
    let mut out = MemoryOutput::default();
    if fieldnotes::render::render(&index, &mut out).is_ok() {
        let page = &out.files["research/a-note.html"];
        let page = String::from_utf8_lossy(page).to_ascii_lowercase();
        assert!(
            !page.contains("<script>alert"),
            "raw HTML passed through into the page"
        );
    }
});
