//! The rule table: every rule fieldnotes has, one file each, in code order.
//!
//! Codes group rules by what they read: FN0xx files and front matter, FN1xx ids, FN2xx values
//! from a vocabulary, FN3xx dates, FN4xx sources, FN5xx `related`, FN6xx body links and HTML,
//! FN7xx page metadata, FN8xx support cells, FN9xx capabilities; FN95x are what
//! `fieldnotes sources verify` (FN950–FN955, FN959) and `sources drift` (FN956–FN958) found in the
//! sources' repositories ([`Check::Sources`] rules, which plain `lint` does not run).
//!
//! Each rule's `META` holds every fact about it (what it reads included); the manual's rule
//! table (`docs/content/guides/rules.md`) is [`markdown_table`], kept current by a test.

use super::{Check, Rule};

pub(crate) use id_not_kebab_case::kebab_id_problem;

mod broken_link;
mod canonical_mismatch;
mod capability_alias;
mod comment_cuts_text;
mod docs_source_unquoted;
mod duplicate_id;
mod duplicate_related;
mod duplicate_support_cell;
mod duplicate_title;
mod file_too_large;
mod front_matter_not_a_mapping;
mod front_matter_too_large;
mod future_date;
mod id_mismatch;
mod id_not_kebab_case;
mod invalid_commit;
mod invalid_date;
mod invalid_pin;
mod invalid_source_path;
mod invalid_yaml;
mod link_escapes_root;
mod missing_anchor;
mod missing_field;
mod missing_front_matter;
mod observation_capability_alias;
mod observation_invalid_value;
mod observation_line_out_of_range;
mod observation_transcript_missing;
mod observation_unknown_capability;
mod observation_unknown_client;
mod observation_without_command;
mod page_url_scheme;
mod placeholder_left;
mod raw_html;
mod reason_on_known_cell;
mod restatement_mismatch;
mod revision_after_removal;
mod revisions_out_of_order;
mod self_related;
mod setting_loosened;
mod source_after_verification;
mod source_changed;
mod source_commit_ambiguous;
mod source_commit_unknown;
mod source_gone;
mod source_lines_out_of_range;
mod source_moved;
mod source_not_checked;
mod source_on_no_branch;
mod source_path_missing;
mod source_url_disagrees;
mod source_url_scheme;
mod stale_verification;
mod static_replaces_generated;
mod summary_length;
mod superseded_without_successor;
mod support_contradicts_observation;
mod support_invalid_status;
mod support_observation_newer;
mod support_undecided_observation;
mod support_unknown_capability;
mod support_unknown_observation;
mod support_unknown_research;
mod support_version_not_release;
mod support_without_evidence;
mod too_many_files;
mod unknown_capability;
mod unknown_client;
mod unknown_field;
mod unknown_group;
mod unknown_kind;
mod unknown_reason;
mod unknown_related;
mod unknown_revision;
mod unknown_spec_version;
mod unknown_status;
mod unknown_successor;
mod unpinned_source;
mod unreadable_file;
mod unreciprocated_related;
mod unsafe_link_scheme;
mod unterminated_front_matter;
mod wrong_type;

macro_rules! rule {
    ($module:ident) => {
        Rule {
            meta: &$module::META,
            check: Check::Site($module::check),
        }
    };
}

/// A rule over what `fieldnotes sources verify` found in the repositories (not run by `lint`).
macro_rules! sources_rule {
    ($module:ident) => {
        Rule {
            meta: &$module::META,
            check: Check::Sources($module::check),
        }
    };
}

/// Every rule, sorted by code.
pub const ALL: &[Rule] = &[
    rule!(unreadable_file),
    rule!(missing_front_matter),
    rule!(unterminated_front_matter),
    rule!(invalid_yaml),
    rule!(front_matter_not_a_mapping),
    rule!(unknown_field),
    rule!(missing_field),
    rule!(wrong_type),
    rule!(file_too_large),
    rule!(front_matter_too_large),
    rule!(too_many_files),
    rule!(static_replaces_generated),
    Rule {
        meta: &setting_loosened::META,
        check: Check::Settings,
    },
    rule!(comment_cuts_text),
    rule!(id_not_kebab_case),
    rule!(id_mismatch),
    rule!(duplicate_id),
    rule!(unknown_kind),
    rule!(unknown_status),
    rule!(unknown_client),
    rule!(unknown_capability),
    rule!(unknown_spec_version),
    rule!(capability_alias),
    rule!(superseded_without_successor),
    rule!(unknown_successor),
    rule!(duplicate_support_cell),
    rule!(observation_unknown_client),
    rule!(observation_invalid_value),
    rule!(observation_unknown_capability),
    rule!(observation_capability_alias),
    rule!(observation_transcript_missing),
    rule!(observation_line_out_of_range),
    rule!(observation_without_command),
    rule!(support_unknown_observation),
    rule!(support_contradicts_observation),
    rule!(support_observation_newer),
    rule!(unknown_reason),
    rule!(support_undecided_observation),
    rule!(invalid_date),
    rule!(future_date),
    rule!(source_after_verification),
    rule!(stale_verification),
    rule!(source_url_scheme),
    rule!(invalid_commit),
    rule!(invalid_source_path),
    rule!(unpinned_source),
    rule!(source_url_disagrees),
    rule!(invalid_pin),
    rule!(docs_source_unquoted),
    rule!(unknown_related),
    rule!(self_related),
    rule!(duplicate_related),
    rule!(unreciprocated_related),
    rule!(broken_link),
    rule!(missing_anchor),
    rule!(unsafe_link_scheme),
    rule!(raw_html),
    rule!(link_escapes_root),
    rule!(canonical_mismatch),
    rule!(summary_length),
    rule!(duplicate_title),
    rule!(page_url_scheme),
    rule!(placeholder_left),
    rule!(restatement_mismatch),
    rule!(support_unknown_capability),
    rule!(support_invalid_status),
    rule!(support_without_evidence),
    rule!(support_unknown_research),
    rule!(reason_on_known_cell),
    rule!(unknown_group),
    rule!(unknown_revision),
    rule!(revisions_out_of_order),
    rule!(revision_after_removal),
    sources_rule!(support_version_not_release),
    sources_rule!(source_commit_unknown),
    sources_rule!(source_commit_ambiguous),
    sources_rule!(source_path_missing),
    sources_rule!(source_lines_out_of_range),
    sources_rule!(source_not_checked),
    sources_rule!(source_moved),
    sources_rule!(source_changed),
    sources_rule!(source_gone),
    sources_rule!(source_on_no_branch),
];

/// The rule with this code (`FN101`, any case) or name (`id-not-kebab-case`).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    ALL.iter()
        .find(|r| r.meta.code.eq_ignore_ascii_case(code_or_name) || r.meta.name == code_or_name)
}

/// README.md's rule table, made from [`ALL`]: one row per rule, its code, name, default
/// severity and summary (a test keeps README.md's copy current).
pub fn markdown_table() -> String {
    let mut out = String::from("| code | name | default | flags |\n| --- | --- | --- | --- |\n");
    for rule in ALL {
        let m = rule.meta;
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            m.code,
            m.name,
            m.severity.as_str(),
            // `|` ends a cell; `<` would start an HTML tag (GitHub drops `<commit>`).
            m.summary.replace('|', "\\|").replace('<', "&lt;")
        ));
    }
    out
}

/// Position of a rule in [`ALL`] (SARIF's `ruleIndex`).
pub fn position(code: &str) -> Option<usize> {
    ALL.iter().position(|r| r.meta.code == code)
}

#[cfg(test)]
mod tests {
    use super::ALL;

    #[test]
    fn the_table_is_sorted_unique_and_documented() {
        for pair in ALL.windows(2) {
            assert!(
                pair[0].meta.code < pair[1].meta.code,
                "{}",
                pair[1].meta.code
            );
        }
        let mut names: Vec<_> = ALL.iter().map(|r| r.meta.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len(), "names are unique");
        for rule in ALL {
            let m = rule.meta;
            assert!(
                super::id_not_kebab_case::is_kebab(m.name),
                "{} name {}",
                m.code,
                m.name
            );
            let flags = m.doc.find("## What it flags\n\n");
            let why = m.doc.find("\n\n## Why\n\n");
            let example = m.doc.find("\n\n## Example\n\n");
            assert!(
                flags == Some(0) && why > flags && example > why,
                "{} doc shape",
                m.code
            );
        }
    }
}
