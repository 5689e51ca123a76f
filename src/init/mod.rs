//! `fieldnotes init`: a new site that lints clean and builds, written whole into a new or
//! empty folder through the write layer, or not at all.

mod sites;

use crate::beneath::{Mode, Root};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

pub use sites::Example;

/// The folder the files are written into first, inside the target folder; its entries are
/// moved up once every file is written.
const STAGING: &str = ".fieldnotes-init.tmp";

/// Writes the example site `example` into `dir` (created when missing), which must be empty
/// (a `.git` folder alone is allowed). Returns the paths written, relative to `dir`.
pub fn init(dir: &Path, example: Example) -> Result<Vec<&'static str>> {
    let created = refuse_occupied(dir)?;
    let root = Root::create(dir)?;
    let written = stage(&root, example).and_then(|files| {
        for top in top_level(&files) {
            root.rename(&Path::new(STAGING).join(top), Path::new(top))?;
        }
        Ok(files)
    });
    // The staging folder is empty after the moves; after a failure it holds what was staged.
    let _ = std::fs::remove_dir_all(dir.join(STAGING));
    if written.is_err() && created {
        let _ = std::fs::remove_dir(dir);
    }
    written
}

/// Writes every file of `example` under the staging folder of `root`.
fn stage(root: &Root, example: Example) -> Result<Vec<&'static str>> {
    let staging = root.folder(Path::new(STAGING), true)?;
    let mut written = Vec::new();
    for (path, text) in example.files() {
        staging.write(Path::new(path), text.as_bytes(), Mode::New)?;
        written.push(path);
    }
    Ok(written)
}

/// The first component of each path, once each, in order.
fn top_level(files: &[&'static str]) -> Vec<&'static str> {
    let mut tops: Vec<&'static str> = Vec::new();
    for file in files {
        let top = file.split('/').next().unwrap_or(file);
        if !tops.contains(&top) {
            tops.push(top);
        }
    }
    tops
}

/// Refuses a `dir` that is a file or holds anything but a `.git` folder; returns whether it
/// is missing (and will be created).
fn refuse_occupied(dir: &Path) -> Result<bool> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(Error::Usage {
                message: format!(
                    "{} is a file; fieldnotes init writes a new site into a folder: name a new \
                     folder, e.g. `fieldnotes init my-site`",
                    dir.display()
                ),
            })
        }
        Err(e) => return Err(Error::io(dir, "read", e)),
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, "read", e))?;
        if entry.file_name() != ".git" {
            found.push(entry.file_name().into());
        }
    }
    found.sort();
    match found.first() {
        None => Ok(false),
        Some(first) => Err(Error::Usage {
            message: format!(
                "{} is not empty (it holds {}{}); fieldnotes init writes a new site only into \
                 a new or empty folder, so nothing of yours is overwritten: name a new folder, \
                 e.g. `fieldnotes init my-site`, or empty this one",
                dir.display(),
                first.display(),
                match found.len() {
                    1 => String::new(),
                    n => format!(" and {} more", n - 1),
                }
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_site_into_a_new_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let site = dir.path().join("demo");
        let written = init(&site, Example::Minimal).expect("init");
        assert!(written.contains(&"site.yaml"));
        assert!(site.join("site.yaml").is_file());
        assert!(site.join("content/research").is_dir());
        assert!(!site.join(STAGING).exists());
    }

    #[test]
    fn refuses_a_folder_that_holds_anything() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        let refused = init(dir.path(), Example::Minimal);
        assert!(matches!(refused, Err(Error::Usage { .. })), "{refused:?}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("read").collect();
        assert_eq!(left.len(), 1, "nothing written beside the file");
    }

    #[test]
    fn top_level_entries_once_each() {
        assert_eq!(
            top_level(&["site.yaml", "content/a.md", "content/b.md", ".gitignore"]),
            ["site.yaml", "content", ".gitignore"]
        );
    }
}
