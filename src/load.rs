//! Load: read `site.yaml` and every Markdown file under `content/`, in sorted path order.

use crate::config::SiteConfig;
use crate::error::{Error, Result};
use crate::source::{FileId, Section, SourceFile};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The folder under the site root that holds the content.
pub const CONTENT_DIR: &str = "content";

/// What the load step hands to parse: the settings and the raw files.
#[derive(Debug)]
pub struct LoadedSite {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub files: Vec<SourceFile>,
    /// For each content file, its section (same order as `files`).
    pub sections: Vec<(FileId, Section)>,
    /// Files that exist but could not be read as UTF-8 text.
    pub unreadable: Vec<Unreadable>,
}

/// A content file that could not be read, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub file: FileId,
    pub reason: String,
}

/// Reads the site in `root`. Fails only when the site itself cannot be read
/// (no `site.yaml`, no `content/`); a bad file becomes a finding later.
pub fn load(root: &Path) -> Result<LoadedSite> {
    let config = SiteConfig::load(root)?;
    let content = root.join(CONTENT_DIR);
    if !content.is_dir() {
        return Err(Error::Usage {
            message: format!(
                "{}: no such folder; a site keeps its notes in content/research/, clients in \
                 content/clients/, capabilities in content/capabilities/ (see README.md)",
                content.display()
            ),
        });
    }
    let mut site = LoadedSite {
        root: root.to_path_buf(),
        config,
        files: Vec::new(),
        sections: Vec::new(),
        unreadable: Vec::new(),
    };
    let mut found: Vec<(PathBuf, Section)> = Vec::new();
    for section in Section::ALL {
        let dir = content.join(section.dir());
        if !dir.is_dir() {
            continue;
        }
        for entry in WalkDir::new(&dir).sort_by_file_name().min_depth(1) {
            let entry = entry.map_err(|e| {
                let path = e.path().unwrap_or(&dir).to_path_buf();
                Error::io(path, "walk", e.into())
            })?;
            let path = entry.path();
            if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "md") {
                found.push((path.to_path_buf(), section));
            }
        }
    }
    let read: Vec<(SourceFile, Option<String>)> = found
        .par_iter()
        .map(|(path, _)| read_file(root, path))
        .collect();
    for (id, ((file, problem), (_, section))) in read.into_iter().zip(found).enumerate() {
        site.files.push(file);
        site.sections.push((id, section));
        if let Some(reason) = problem {
            site.unreadable.push(Unreadable { file: id, reason });
        }
    }
    Ok(site)
}

/// Reads one file as text; a file that is not UTF-8 or cannot be read comes back with a reason.
fn read_file(root: &Path, path: &Path) -> (SourceFile, Option<String>) {
    let relative = path.strip_prefix(root).unwrap_or(path).to_path_buf();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (SourceFile::new(relative, text), None),
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let reason = format!("not UTF-8 text (invalid byte at offset {valid})");
                (SourceFile::new(relative, text), Some(reason))
            }
        },
        Err(e) => (
            SourceFile::new(relative, String::new()),
            Some(e.to_string()),
        ),
    }
}
