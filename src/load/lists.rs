//! The lists of self-reports, `content/lists/<id>.yaml`: found beside the sections, never
//! through a symlink (one that is there is passed over), in sorted order.

use super::CONTENT_DIR;
use std::path::{Path, PathBuf};

/// The folder under `content/` that holds the lists.
pub const LISTS_DIR: &str = "lists";

/// Whether `path` (relative to the site root) names a list: `content/lists/<id>.yaml`.
pub fn is_list(path: &Path) -> bool {
    path.parent() == Some(&Path::new(CONTENT_DIR).join(LISTS_DIR))
        && path.extension().is_some_and(|e| e == "yaml")
}

/// The regular `.yaml` files directly in `content/lists/` under `root`, sorted.
pub fn find(root: &Path) -> Vec<PathBuf> {
    let content = std::fs::symlink_metadata(root.join(CONTENT_DIR));
    if !content.is_ok_and(|m| m.is_dir()) {
        return Vec::new();
    }
    let dir = root.join(CONTENT_DIR).join(LISTS_DIR);
    let Ok(meta) = std::fs::symlink_metadata(&dir) else {
        return Vec::new();
    };
    if !meta.is_dir() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    found.sort();
    found
}
