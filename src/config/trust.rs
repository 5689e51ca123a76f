//! Trusted settings (`--config-from REV`): when a pull request is checked, what bounds the
//! check and what pages may run — `limits`, `markdown.unsafeHtml`, `theme` and the rule
//! severities of `lint.rules` (with `lint.staleAfterDays`) — come from `site.yaml` at the base
//! revision. The pull request's `site.yaml` may tighten each (a lower limit, a higher
//! severity, `unsafeHtml` off, a shorter staleness), never loosen it: a value that would is
//! replaced by the base's, and [`merge`] names it at its line, for lint to report (FN013).
//!
//! The base settings are installed once per process ([`install`]), by the command that reads
//! them, before the site is loaded; [`apply`] then holds every `site.yaml` the process reads
//! from the work tree to them (`SiteConfig::load`), whichever step reads it.

use super::{Limits, SiteConfig};
use crate::diagnostic::Severity;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The finding a loosened setting is: not a rule of the table, as nothing may switch it off.
pub const LOOSENED_CODE: &str = "FN013";
pub const LOOSENED_NAME: &str = "setting-loosened";

/// A rule's code and default severity, by its code or name: `lint::rules::find`, which the
/// command passes in (settings, read by every step, import none).
pub type RuleLookup = fn(&str) -> Option<(&'static str, Severity)>;

/// The base revision's settings, when a command was given `--config-from`.
static TRUSTED: OnceLock<(SiteConfig, RuleLookup)> = OnceLock::new();

/// Makes `base` the settings every work-tree `site.yaml` of this process is held to. A
/// second call is ignored: one process checks against one base.
pub fn install(base: SiteConfig, rules: RuleLookup) {
    let _ = TRUSTED.set((base, rules));
}

/// Holds `config` to the installed base settings, if any (what it loosens is dropped here;
/// [`merge`] reports it).
pub(crate) fn apply(config: &mut SiteConfig, text: &str) {
    if let Some((base, rules)) = TRUSTED.get() {
        merge(base, config, text, *rules);
    }
}

/// A value of the pull request's `site.yaml` that would loosen the base's, and was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loosening {
    /// The dotted key (`limits.maxRenderSteps`, `lint.rules.FN601`).
    pub key: String,
    /// Where the key is in the pull request's `site.yaml` (1-based; the section's line, or
    /// line 1, when the loosening is a key taken away).
    pub line: usize,
    pub column: usize,
    /// What it would have been, and what is used.
    pub message: String,
}

/// Sets each guarded value of `head` (parsed from `text`) to the stricter of it and `base`'s;
/// returns each value of `head` that was looser, in key order.
pub fn merge(
    base: &SiteConfig,
    head: &mut SiteConfig,
    text: &str,
    lookup: RuleLookup,
) -> Vec<Loosening> {
    let mut found = Vec::new();
    let mut loosen = |key: String, message: String| {
        let (line, column) = locate(text, &key);
        found.push(Loosening {
            key,
            line,
            column,
            message,
        });
    };
    limits(&base.limits, &mut head.limits, &mut loosen);
    if head.markdown.unsafe_html && !base.markdown.unsafe_html {
        head.markdown.unsafe_html = false;
        loosen(
            "markdown.unsafeHtml".to_string(),
            "markdown.unsafeHtml is switched on, and off at the base: raw HTML in bodies \
             would reach pages; the base's `false` is used"
                .to_string(),
        );
    }
    if head.theme != base.theme {
        let message = format!(
            "theme changes from `{}` to `{}`: a theme's templates and scripts are what every \
             page runs; the base's theme is used until the change is merged",
            base.theme, head.theme
        );
        head.theme = base.theme.clone();
        loosen("theme".to_string(), message);
    }
    if head.lint.stale_after_days > base.lint.stale_after_days {
        let message = format!(
            "lint.staleAfterDays is raised from {} to {}: notes would go stale later; the \
             base's {} is used",
            base.lint.stale_after_days, head.lint.stale_after_days, base.lint.stale_after_days
        );
        head.lint.stale_after_days = base.lint.stale_after_days;
        loosen("lint.staleAfterDays".to_string(), message);
    }
    head.lint.rules = rules(&base.lint.rules, &head.lint.rules, lookup, &mut loosen);
    found.sort_by(|a, b| (a.line, &a.key).cmp(&(b.line, &b.key)));
    found
}

/// Each limit the smaller of the two.
fn limits(base: &Limits, head: &mut Limits, loosen: &mut impl FnMut(String, String)) {
    let mut one = |name: &str, base: u64, head: u64| -> u64 {
        if head <= base {
            return head;
        }
        loosen(
            format!("limits.{name}"),
            format!("limits.{name} is raised from {base} to {head}; the base's {base} is used"),
        );
        base
    };
    head.max_file_bytes = one("maxFileBytes", base.max_file_bytes, head.max_file_bytes);
    head.max_front_matter_bytes = one(
        "maxFrontMatterBytes",
        base.max_front_matter_bytes as u64,
        head.max_front_matter_bytes as u64,
    ) as usize;
    head.max_files = one("maxFiles", base.max_files as u64, head.max_files as u64) as usize;
    head.max_render_steps = one(
        "maxRenderSteps",
        base.max_render_steps,
        head.max_render_steps,
    );
    head.max_page_bytes = one("maxPageBytes", base.max_page_bytes, head.max_page_bytes);
    head.max_highlight_bytes = one(
        "maxHighlightBytes",
        base.max_highlight_bytes as u64,
        head.max_highlight_bytes as u64,
    ) as usize;
}

/// How strict a rule's setting is: `off` least, then info, warning, error.
fn strictness(value: &str) -> Option<u8> {
    match value {
        "off" => Some(0),
        other => Severity::parse(other).map(|s| s as u8 + 1),
    }
}

/// The `lint.rules` in effect: for each rule either side names, the stricter of the two
/// sides' severities (a side that does not name it has the rule's default). A value neither
/// side can read is left as the pull request wrote it, for lint to refuse.
fn rules(
    base: &BTreeMap<String, String>,
    head: &BTreeMap<String, String>,
    code: RuleLookup,
    loosen: &mut impl FnMut(String, String),
) -> BTreeMap<String, String> {
    let mut setting: BTreeMap<&'static str, (Option<&str>, Option<&str>, Severity)> =
        BTreeMap::new();
    for (side, map) in [(0, base), (1, head)] {
        for (key, value) in map {
            let Some((rule, default)) = code(key) else {
                continue;
            };
            let entry = setting.entry(rule).or_insert((None, None, default));
            match side {
                0 => entry.0 = Some(value.as_str()),
                _ => entry.1 = Some(value.as_str()),
            }
        }
    }
    let mut out: BTreeMap<String, String> = (head.iter())
        .filter(|(key, _)| code(key).is_none())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (name, (base_value, head_value, default)) in setting {
        let base_value = base_value.unwrap_or(default.as_str());
        let head_value = head_value.unwrap_or(default.as_str());
        let value = match (strictness(base_value), strictness(head_value)) {
            (Some(b), Some(h)) if h < b => {
                let key = (head.keys())
                    .find(|k| code(k).is_some_and(|(rule, _)| rule == name))
                    .map_or(format!("lint.rules.{name}"), |k| format!("lint.rules.{k}"));
                loosen(
                    key,
                    format!(
                        "lint.rules sets {name} to `{head_value}`, less strict than the base's \
                         `{base_value}`; the base's is used"
                    ),
                );
                base_value
            }
            _ => head_value,
        };
        out.insert(name.to_string(), value.to_string());
    }
    out
}

/// The line and column of the dotted `key` in `text` (the YAML of `site.yaml`): the deepest
/// part of it found, each part searched below the line of the one before it; line 1, column
/// 1 when not even the first is there.
fn locate(text: &str, key: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = (1, 1);
    let mut from = 0;
    let mut indent: Option<usize> = None;
    for part in key.split('.') {
        let found = (from..lines.len()).find(|&i| {
            let line = lines[i];
            let start = line.len() - line.trim_start().len();
            let deeper = indent.is_none_or(|outer| start > outer);
            let trimmed = line.trim_start();
            deeper
                && (trimmed.starts_with(&format!("{part}:"))
                    || trimmed.starts_with(&format!("\"{part}\":"))
                    || trimmed.starts_with(&format!("'{part}':")))
        });
        match found {
            Some(i) => {
                let start = lines[i].len() - lines[i].trim_start().len();
                at = (i + 1, start + 1);
                from = i + 1;
                indent = Some(start);
            }
            None => break,
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const BASE: &str = "title: T\nbaseUrl: https://x.io\nspecVersions: [{id: a}]\n\
                        capabilityGroups: [{id: g, title: G}]\nkinds: [{id: k}]\n";

    fn lookup(key: &str) -> Option<(&'static str, Severity)> {
        crate::lint::rules::find(key).map(|r| (r.meta.code, r.meta.severity))
    }

    fn config(extra: &str) -> (SiteConfig, String) {
        let text = format!("{BASE}{extra}");
        let config = SiteConfig::parse(&text, Path::new("site.yaml")).expect("parses");
        (config, text)
    }

    #[test]
    fn a_pull_request_can_tighten_but_not_loosen() {
        let (base, _) =
            config("limits:\n  maxRenderSteps: 1000000\nlint:\n  rules:\n    FN601: error\n");
        let (mut head, text) = config(
            "limits:\n  maxRenderSteps: 999999999999\n  maxPageBytes: 1024\n\
             markdown:\n  unsafeHtml: true\ntheme: mine\n\
             lint:\n  staleAfterDays: 9999\n  rules:\n    broken-link: off\n    FN304: error\n",
        );
        let found = merge(&base, &mut head, &text, lookup);
        let keys: Vec<(&str, usize)> = found.iter().map(|l| (l.key.as_str(), l.line)).collect();
        assert_eq!(
            keys,
            [
                ("limits.maxRenderSteps", 7),
                ("markdown.unsafeHtml", 10),
                ("theme", 11),
                ("lint.staleAfterDays", 13),
                ("lint.rules.broken-link", 15),
            ]
        );
        assert_eq!(head.limits.max_render_steps, 1_000_000);
        // Tightened values stay.
        assert_eq!(head.limits.max_page_bytes, 1024);
        assert!(!head.markdown.unsafe_html);
        assert_eq!(head.theme, "default");
        assert_eq!(head.lint.stale_after_days, 180);
        assert_eq!(head.lint.rules["FN601"], "error");
        assert_eq!(head.lint.rules["FN304"], "error");
        assert!(!head.lint.rules.contains_key("broken-link"));
    }

    #[test]
    fn taking_a_stricter_setting_away_is_a_loosening_too() {
        let (base, _) = config("lint:\n  rules:\n    FN304: error\nlimits:\n  maxFiles: 10\n");
        let (mut head, text) = config("");
        let found = merge(&base, &mut head, &text, lookup);
        let keys: Vec<&str> = found.iter().map(|l| l.key.as_str()).collect();
        assert_eq!(keys, ["limits.maxFiles", "lint.rules.FN304"]);
        assert_eq!((found[0].line, found[1].line), (1, 1));
        assert_eq!(head.lint.rules["FN304"], "error");
        assert_eq!(head.limits.max_files, 10);
        // The same settings loosen nothing.
        let (same, same_text) =
            config("lint:\n  rules:\n    FN304: error\nlimits:\n  maxFiles: 10\n");
        let mut again = same.clone();
        assert_eq!(merge(&same, &mut again, &same_text, lookup), Vec::new());
    }
}
