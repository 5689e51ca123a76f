//! Tests: the map in `src/lib.rs` is kept. They read `src/` and fail when a pipeline step
//! imports a later one, when lint and render import each other, when a step imports the
//! command layer, or when two modules import each other (directly or round a longer loop).
//!
//! An import is any `crate::a::b` path, `use crate::{…}` group or `super::` path outside
//! `#[cfg(test)]` code. Modules are compared at the level where they are siblings: an import
//! of `crate::render::views` from `crate::lint::rules::x` is an edge `lint → render`, and one
//! from `crate::render::feeds` to `crate::render::views` an edge `feeds → views` inside
//! `render`. A module and its own parent or children may use each other freely.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root: `["render", "views"]`.
type ModulePath = Vec<String>;

/// The pipeline steps, in order: each may import the ones before it, never one after.
const STEPS: [&str; 6] = ["load", "parse", "index", "lint", "render", "write"];

/// Modules every step may read: facts with no step of their own (errors, settings, the model,
/// its field table, loaded files and positions in them, findings, dates, terminal text).
const FOUNDATION: [&str; 8] = [
    "error",
    "config",
    "model",
    "field_table",
    "text_file",
    "diagnostic",
    "dates",
    "terminal",
];

/// The command layer: it drives the steps, and no step or foundation module imports it.
const COMMAND_LAYER: [&str; 8] = [
    "cli", "commands", "serve", "scaffold", "init", "mcp", "lsp", "probe",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The module a file under `src/` defines.
fn module_of(file: &Path) -> ModulePath {
    let relative = file.strip_prefix(src()).expect("under src");
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The file's text before its first `#[cfg(test)]`, comments dropped.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("source readable");
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules `code` (of module `here`) names: `crate::x::y` and `super::z` paths, and the
/// members of `use crate::{x, y::z}` groups, each cut to its leading lowercase segments.
fn imports(here: &ModulePath, code: &str) -> BTreeSet<ModulePath> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = [rest.find("crate::"), rest.find("super::")]
        .into_iter()
        .flatten()
        .min()
    {
        let is_crate = rest[at..].starts_with("crate::");
        let before = rest[..at].chars().last();
        rest = &rest[at..];
        let prefix = if is_crate { "crate::" } else { "super::" };
        let tail = &rest[prefix.len()..];
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let base: ModulePath = if is_crate {
            Vec::new()
        } else {
            let mut base = here.clone();
            base.pop();
            base
        };
        if let Some(group) = tail.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for member in group[..end].split(',') {
                found.insert(join(&base, module_segments(member.trim())));
            }
        } else {
            found.insert(join(&base, module_segments(tail)));
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

fn join(base: &ModulePath, tail: ModulePath) -> ModulePath {
    base.iter().cloned().chain(tail).collect()
}

/// The leading module segments of a path: `views::NoteView` → `["views"]`.
fn module_segments(path: &str) -> ModulePath {
    path.split("::")
        .map(|s| {
            s.trim()
                .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'))
        })
        .take_while(|s| {
            !s.is_empty()
                && s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_string)
        .collect()
}

/// Every module and the modules it imports.
fn graph() -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    let mut graph = BTreeMap::new();
    for entry in walkdir::WalkDir::new(src()).sort_by_file_name() {
        let entry = entry.expect("walk src");
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let module = module_of(path);
        let imported = imports(&module, &code_of(path));
        graph
            .entry(module)
            .or_insert_with(BTreeSet::new)
            .extend(imported);
    }
    let modules: BTreeSet<ModulePath> = graph.keys().cloned().collect();
    for targets in graph.values_mut() {
        // An import names a module or an item in one: keep the longest known module prefix.
        *targets = targets
            .iter()
            .filter_map(|t| {
                (1..=t.len())
                    .rev()
                    .map(|n| t[..n].to_vec())
                    .find(|m| modules.contains(m))
            })
            .collect();
    }
    graph
}

/// The edge `from → to` as seen between siblings: both cut just below their common ancestor;
/// `None` when one contains the other.
fn sibling_edge(from: &ModulePath, to: &ModulePath) -> Option<(ModulePath, ModulePath)> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    if common == from.len() || common == to.len() {
        return None;
    }
    Some((from[..=common].to_vec(), to[..=common].to_vec()))
}

/// Every sibling-level edge, with one import that makes it (for messages).
fn sibling_edges() -> BTreeMap<(ModulePath, ModulePath), (ModulePath, ModulePath)> {
    let mut edges = BTreeMap::new();
    for (from, targets) in graph() {
        for to in targets {
            if let Some(edge) = sibling_edge(&from, &to) {
                edges.entry(edge).or_insert((from.clone(), to.clone()));
            }
        }
    }
    edges
}

fn name(module: &ModulePath) -> String {
    module.join("::")
}

/// Each loop among sibling modules, once, as `a → b → a`.
fn cycles() -> Vec<String> {
    let edges = sibling_edges();
    let mut next: BTreeMap<&ModulePath, Vec<&ModulePath>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
    }
    let mut found = BTreeSet::new();
    for start in next.keys() {
        // Depth-first search for a path back to `start` through modules sorted after it, so
        // each loop is reported from its smallest member only.
        let mut stack = vec![(vec![*start], 0usize)];
        while let Some((path, index)) = stack.pop() {
            let last = path.last().expect("non-empty");
            let Some(&to) = next.get(last).and_then(|v| v.get(index)) else {
                continue;
            };
            stack.push((path.clone(), index + 1));
            if to == *start {
                let names: Vec<String> = path.iter().map(|m| name(m)).collect();
                found.insert(format!("{} → {}", names.join(" → "), name(start)));
            } else if to > *start && !path.contains(&to) && path.len() < 8 {
                let mut longer = path.clone();
                longer.push(to);
                stack.push((longer, 0));
            }
        }
    }
    found.into_iter().collect()
}

/// Every top-level import that breaks the layering, as `from → to (by a → b)`.
fn layering_breaks() -> Vec<String> {
    let step = |m: &str| STEPS.iter().position(|s| *s == m);
    let mut breaks = Vec::new();
    for ((from, to), (by_from, by_to)) in sibling_edges() {
        if from.len() != 1 {
            continue;
        }
        let (a, b) = (from[0].as_str(), to[0].as_str());
        let wrong = match (step(a), step(b)) {
            (Some(i), Some(j)) => j > i || (a, b) == ("render", "lint"),
            _ if FOUNDATION.contains(&a) => !FOUNDATION.contains(&b),
            _ => false,
        } || (step(a).is_some() && COMMAND_LAYER.contains(&b));
        if wrong {
            breaks.push(format!(
                "{a} → {b} (by {} → {})",
                name(&by_from),
                name(&by_to)
            ));
        }
    }
    breaks
}

#[test]
fn pipeline_steps_import_only_earlier_steps_and_foundation() {
    let breaks = layering_breaks();
    assert!(
        breaks.is_empty(),
        "the pipeline runs {}; lint and render never import each other; foundation modules \
         ({}) import only each other; no step imports the command layer ({}). These imports \
         break that:\n{}",
        STEPS.join(" → "),
        FOUNDATION.join(", "),
        COMMAND_LAYER.join(", "),
        breaks.join("\n")
    );
}

#[test]
fn no_two_modules_import_each_other() {
    let cycles = cycles();
    assert!(
        cycles.is_empty(),
        "modules that import each other (move what both need into one of them or below \
         both):\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_reader_finds_crate_super_and_grouped_imports() {
    let here: ModulePath = vec!["render".into(), "views".into()];
    let code = "use crate::{index::SiteIndex, lint::walk::parse_date};\n\
                use super::feeds::Feed;\nlet x = crate::model::Note::default();\n\
                macro_rules! m { ($crate::x) => {} }";
    let found: Vec<String> = imports(&here, code).iter().map(name).collect();
    assert_eq!(
        found,
        ["index", "lint::walk::parse_date", "model", "render::feeds"]
    );
    let feeds = vec!["render".to_string(), "feeds".to_string()];
    assert_eq!(
        sibling_edge(&here, &feeds),
        Some((here.clone(), feeds.clone()))
    );
    assert_eq!(sibling_edge(&here, &vec!["render".to_string()]), None);
    let lint = vec!["lint".to_string(), "rules".to_string(), "x".to_string()];
    assert_eq!(
        sibling_edge(&lint, &here),
        Some((vec!["lint".to_string()], vec!["render".to_string()]))
    );
}
