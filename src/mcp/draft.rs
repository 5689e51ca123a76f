//! The `lint` tool: a draft file's text linted as if it were in the site, beside every other
//! file, so that links, ids, `related` and support cells are checked against the real site.

use super::site::Snapshot;
use crate::diagnostic::{Diagnostic, Severity};
use crate::text_file::Section;
use schemars::JsonSchema;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The rule's code (`FN101`); `fieldnotes lint --explain CODE` explains it.
    pub code: String,
    /// The rule's name.
    pub name: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LintAnswer {
    /// Where the draft was put in the site (`content/research/<id>.md`).
    pub file: String,
    /// Whether it replaced a file the site already has (an edit, not a new file).
    pub replaces: bool,
    pub errors: usize,
    pub warnings: usize,
    /// The draft's findings, sorted by line and column.
    pub findings: Vec<Finding>,
}

/// Lints `text` as the file `path` (relative to the site root) of the site, or, without a
/// path, as `content/research/<id>.md` with the `id` of its front matter.
pub fn lint(site: &Snapshot, text: &str, path: Option<&str>) -> Result<LintAnswer, String> {
    let relative = match path.map(str::trim).filter(|p| !p.is_empty()) {
        Some(path) => checked_path(path)?,
        None => Path::new(crate::load::CONTENT_DIR)
            .join(Section::Research.dir())
            .join(format!("{}.md", front_matter_id(text)?)),
    };
    let replaces = site.index.files.iter().any(|f| f.path == relative);
    let mut files: Vec<(PathBuf, Vec<u8>)> = site
        .index
        .files
        .iter()
        .filter(|f| f.path != relative)
        .map(|f| (f.path.clone(), f.text.clone().into_bytes()))
        .collect();
    files.push((relative.clone(), text.as_bytes().to_vec()));
    let loaded = crate::load::from_memory(&site.index.root, site.index.config.clone(), files);
    let index = crate::index::index(crate::parse::parse(loaded));
    let findings = crate::lint::lint(&index, site.today).map_err(|e| format!("error: {e}"))?;
    let file = crate::text_file::display_path(&relative);
    let findings: Vec<Finding> = findings
        .into_iter()
        .filter(|d| d.file == file)
        .map(finding)
        .collect();
    let count = |s: &str| findings.iter().filter(|f| f.severity == s).count();
    Ok(LintAnswer {
        errors: count(Severity::Error.as_str()),
        warnings: count(Severity::Warning.as_str()),
        file,
        replaces,
        findings,
    })
}

fn finding(d: Diagnostic) -> Finding {
    Finding {
        code: d.code.to_string(),
        name: d.name.to_string(),
        severity: d.severity.as_str().to_string(),
        line: d.line,
        column: d.column,
        end_line: d.end_line,
        end_column: d.end_column,
        message: d.message,
        help: d.help,
    }
}

/// A path the draft may take: a Markdown file in one of `content/`'s sections, relative,
/// with no `..`.
fn checked_path(path: &str) -> Result<PathBuf, String> {
    let segments: Vec<&str> = path.split('/').collect();
    let fits = segments.len() == 3
        && segments[0] == crate::load::CONTENT_DIR
        && Section::from_dir(segments[1]).is_some()
        && segments[2].ends_with(".md")
        && !segments[2].starts_with('.')
        && !path.contains(['\\', '\0']);
    match fits {
        true => Ok(PathBuf::from(path)),
        false => Err(format!(
            "error: `{path}` is not a content file's path; give one like \
             content/research/<id>.md (or content/clients/, content/capabilities/, \
             content/guides/), or leave `path` out to use the draft's `id`"
        )),
    }
}

/// The `id:` line of a draft's front matter.
pub(super) fn front_matter_id(text: &str) -> Result<String, String> {
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let no_id = || {
        "error: the draft has no `id:` in its front matter (between `---` lines) to place it \
         by; add one, or give `path`"
            .to_string()
    };
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(no_id());
    }
    let id = lines
        .take_while(|l| l.trim_end() != "---")
        .find_map(|l| l.strip_prefix("id:"))
        .map(|v| v.trim().trim_matches(['"', '\'']).to_string())
        .filter(|id| !id.is_empty())
        .ok_or_else(no_id)?;
    let plain = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !id.starts_with('.');
    match plain {
        true => Ok(id),
        false => Err(format!(
            "error: the draft's id `{id}` cannot be a file name; ids are kebab-case \
             (letters, digits and `-`)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_is_placed_by_its_id_or_a_content_path() {
        assert_eq!(
            front_matter_id("---\ntitle: x\nid: a-note\n---\nbody").as_deref(),
            Ok("a-note")
        );
        assert!(front_matter_id("no front matter").is_err());
        assert!(front_matter_id("---\nid: ../../etc\n---\n").is_err());
        assert!(checked_path("content/research/a.md").is_ok());
        for bad in [
            "../x.md",
            "content/../x.md",
            "content/research/../a.md",
            "/etc/passwd",
            "content/other/a.md",
        ] {
            assert!(checked_path(bad).is_err(), "{bad}");
        }
    }
}
