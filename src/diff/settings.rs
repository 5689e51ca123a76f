//! What sets the check's rules and what every page runs, compared: `site.yaml` key by key,
//! and each file added, removed or changed under `templates/`, `themes/` and `static/`. Each
//! change is a review item of its own, never folded into a count: a pull request that
//! changes these changes how it is itself checked (limits, `unsafeHtml`, rule severities) or
//! what a reader's browser runs (templates, scripts). A key change that loosens what the
//! base set is marked, as `config::trust` reports it.

use super::base::ConfigText;
use super::model::{FileChange, KeyChange, Settings};
use crate::config::trust::{self, RuleLookup};
use crate::config::{SiteConfig, CONFIG_FILE};
use crate::error::{Error, Result};
use crate::provenance::git::{Git, DIFF_SAFETY};
use crate::provenance::worktree::WorkTree;
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The folders whose files are compared, with `site.yaml`.
const WATCHED: [&str; 4] = [CONFIG_FILE, "templates", "themes", "static"];

/// Most keys of one side's `site.yaml` compared (a huge vocabulary is still listed, up to
/// this, rather than exhausting memory).
const MAX_KEYS: usize = 20_000;

/// What changed in `site.yaml` and the watched folders of the site `site` (a folder of
/// `tree`) since `commit`; `base_text` is the base's `site.yaml`, `base` what it says.
pub(crate) fn changes(
    tree: &WorkTree,
    site: &Path,
    commit: &str,
    base_text: &ConfigText,
    base: &SiteConfig,
    rules: RuleLookup,
) -> Result<Settings> {
    let files = files(tree, site, commit)?;
    let mut keys = Vec::new();
    if files.iter().any(|f| f.path == CONFIG_FILE) {
        let (head_text, mut head) = SiteConfig::load_untrusted(site)?;
        let loosened: BTreeSet<String> = (trust::merge(base, &mut head, &head_text, rules)
            .into_iter())
        .map(|l| l.key)
        .collect();
        keys = key_changes(&base_text.text, &head_text, &loosened);
    }
    Ok(Settings { keys, files })
}

/// The watched files that differ between `commit` and the work tree (tracked files changed,
/// added or removed, and files git does not track yet).
fn files(tree: &WorkTree, site: &Path, commit: &str) -> Result<Vec<FileChange>> {
    let git = || Git::in_work_tree(tree, site);
    let fail = |why: String| Error::Usage {
        message: format!(
            "--base {}: could not list the changes to site.yaml, templates, themes and \
             static files: {why}",
            crate::provenance::short(commit)
        ),
    };
    let diff = (git().args(["diff", "--name-status", "-z", "--no-renames", "--relative"]))
        .args(DIFF_SAFETY)
        .value(commit)
        .and_then(|diff| diff.operands(WATCHED).run(None))
        .map_err(fail)?;
    let untracked = (git().args(["ls-files", "-z", "--others", "--exclude-standard"]))
        .operands(WATCHED)
        .run(None)
        .map_err(fail)?;
    let diff = String::from_utf8_lossy(&diff);
    let mut found: BTreeMap<String, &'static str> = BTreeMap::new();
    let mut fields = diff.split('\0').filter(|f| !f.is_empty());
    while let Some(status) = fields.next() {
        let path = fields.next().unwrap_or_default();
        let change = match status.chars().next() {
            Some('A') => "added",
            Some('D') => "removed",
            _ => "changed",
        };
        found.insert(path.to_string(), change);
    }
    for path in String::from_utf8_lossy(&untracked).split('\0') {
        if !path.is_empty() {
            found.insert(path.to_string(), "added");
        }
    }
    Ok(found
        .into_iter()
        .map(|(path, change)| FileChange {
            kind: kind(&path),
            path,
            change,
        })
        .collect())
}

/// What a watched file is to a reviewer.
fn kind(path: &str) -> &'static str {
    const SCRIPTS: [&str; 9] = [
        "js", "mjs", "cjs", "wasm", "html", "htm", "xhtml", "svg", "xml",
    ];
    let extension = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    if path == CONFIG_FILE {
        "settings"
    } else if path.starts_with("templates/") || path.contains("/templates/") {
        "template"
    } else if SCRIPTS.contains(&extension.as_str()) {
        "script"
    } else {
        "static"
    }
}

/// The keys whose values differ between the two texts of `site.yaml`, each value as JSON;
/// `loosened` marks those that loosen the base.
fn key_changes(base: &str, head: &str, loosened: &BTreeSet<String>) -> Vec<KeyChange> {
    let (before, after) = (flatten(base), flatten(head));
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|key| KeyChange {
            loosens: loosened
                .iter()
                .any(|l| l == key || key.starts_with(&format!("{l}."))),
            before: before.get(key).cloned(),
            after: after.get(key).cloned(),
            key: key.clone(),
        })
        .collect()
}

/// `text`'s YAML as dotted keys to JSON values (lists by index); a text that is not YAML is
/// one key, `(site.yaml)`, holding what it says.
fn flatten(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match serde_yaml::from_str::<Value>(text) {
        Ok(value) => walk("", &value, &mut out),
        Err(_) => {
            out.insert("(site.yaml)".to_string(), "not YAML".to_string());
        }
    }
    out
}

fn walk(prefix: &str, value: &Value, out: &mut BTreeMap<String, String>) {
    if out.len() >= MAX_KEYS {
        return;
    }
    let join = |key: &str| match prefix {
        "" => key.to_string(),
        _ => format!("{prefix}.{key}"),
    };
    match value {
        Value::Mapping(map) => {
            for (key, value) in map {
                let key = match key {
                    Value::String(s) => s.clone(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                };
                walk(&join(&key), value, out);
            }
        }
        Value::Sequence(items) => {
            for (i, value) in items.iter().enumerate() {
                walk(&join(&i.to_string()), value, out);
            }
        }
        Value::Tagged(tagged) => walk(prefix, &tagged.value, out),
        scalar => {
            out.insert(
                prefix.to_string(),
                serde_json::to_string(scalar).unwrap_or_default(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_changed_key_is_listed_and_loosening_ones_marked() {
        let base = "title: T\nlimits:\n  maxRenderSteps: 1000\nkinds: [{id: a}]\n";
        let head = "title: T\nlimits:\n  maxRenderSteps: 99999\nkinds: [{id: a}, {id: b}]\nmarkdown:\n  unsafeHtml: true\n";
        let loosened: BTreeSet<String> = [
            "limits.maxRenderSteps".to_string(),
            "markdown.unsafeHtml".to_string(),
        ]
        .into();
        let changes = key_changes(base, head, &loosened);
        let shown: Vec<(&str, Option<&str>, Option<&str>, bool)> = (changes.iter())
            .map(|c| {
                (
                    c.key.as_str(),
                    c.before.as_deref(),
                    c.after.as_deref(),
                    c.loosens,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("kinds.1.id", None, Some("\"b\""), false),
                ("limits.maxRenderSteps", Some("1000"), Some("99999"), true),
                ("markdown.unsafeHtml", None, Some("true"), true),
            ]
        );
        assert_eq!(kind("static/app.JS"), "script");
        assert_eq!(kind("themes/x/templates/page.html"), "template");
        assert_eq!(kind("themes/x/static/style.css"), "static");
    }
}
