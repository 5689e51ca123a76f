//! A page per rule: `docs/rules/<CODE>.md`, made from the rule's META, and its URL, which
//! SARIF (`helpUri`) and rdjson (`code.url`) give with each finding.
//!
//! A file per rule rather than an anchor in README.md: a rule's URL then depends on its code
//! alone, not on how a Markdown host turns headings into anchors, and the page holds the
//! whole doc (what it flags, why, an example), as `fieldnotes lint --explain CODE` prints it.

use crate::lint::RuleMeta;

/// Where to read about fieldnotes (SARIF's `informationUri`, rdjson's `source.url`).
pub const INFORMATION_URI: &str = "https://github.com/fieldnotes-dev/fieldnotes";

/// The folder of the rule pages, relative to the repository root.
pub const DOCS_DIR: &str = "docs/rules";

/// The page about rule `code`, on the repository's default branch.
pub fn uri(code: &str) -> String {
    format!("{INFORMATION_URI}/blob/main/{DOCS_DIR}/{code}.md")
}

/// The file name of rule `code`'s page in [`DOCS_DIR`].
pub fn file_name(code: &str) -> String {
    format!("{code}.md")
}

/// The page about a rule: its code and name, default severity, summary and doc.
pub fn page(meta: &RuleMeta) -> String {
    format!(
        "# {} {}\n\nDefault severity: **{}** (change it in `site.yaml`: `lint: {{rules: {{{}: warning}}}}`).\n\n{}.\n\n{}\n",
        meta.code,
        meta.name,
        meta.severity.as_str(),
        meta.code,
        capitalized(meta.summary),
        meta.doc.trim_end()
    )
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
