//! The rule table: every rule fieldnotes has, one file each, in code order.

use super::Rule;

mod broken_link;
mod invalid_yaml;
mod missing_field;
mod unknown_client;
mod unknown_related;

macro_rules! rule {
    ($module:ident) => {
        Rule {
            meta: &$module::META,
            check: $module::check,
        }
    };
}

/// Every rule, sorted by code.
pub const ALL: &[Rule] = &[
    rule!(invalid_yaml),
    rule!(missing_field),
    rule!(unknown_client),
    rule!(unknown_related),
    rule!(broken_link),
];

/// The rule with this code (`FN101`) or name (`id-not-kebab-case`).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    ALL.iter()
        .find(|r| r.meta.code.eq_ignore_ascii_case(code_or_name) || r.meta.name == code_or_name)
}
