//! Where render puts what it makes: the [`Output`] trait a render writes through, the
//! [`Shared`] bytes it hands over, and outputs held in memory (tests, `fieldnotes serve`).
//! The folder on disk is the write step's ([`crate::write::StagedDir`]), which implements
//! this trait: render never imports write.

use crate::error::{Error, Result};
use std::sync::Arc;

/// A file's bytes, shared between a render, its memo, the served site and the writers
/// without copying (a `Vec` moves into it as it is).
pub type Shared = Arc<Vec<u8>>;

/// Where rendered files go: a folder on disk, or memory (tests, `serve`).
pub trait Output {
    /// Writes `contents` at `path` (relative, `/`-separated, e.g. `research/x.html`).
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()>;

    /// Writes `contents` at `path`, where the caller keeps them shared (a page reused from an
    /// earlier render); outputs that can hold shared bytes take them without a copy.
    fn put_shared(&mut self, path: &str, contents: &Shared) -> Result<()> {
        self.put(path, contents)
    }
}

/// Rendered files kept in memory, sorted by path.
#[derive(Debug, Default)]
pub struct MemoryOutput {
    pub files: std::collections::BTreeMap<String, Vec<u8>>,
}

/// Rendered files kept in memory as shared bytes, so a page reused from an earlier render
/// is not copied (`fieldnotes serve`).
#[derive(Debug, Default, Clone)]
pub struct SharedOutput {
    pub files: std::collections::BTreeMap<String, Shared>,
}

impl Output for SharedOutput {
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()> {
        self.put_shared(path, &Arc::new(contents.to_vec()))
    }

    fn put_shared(&mut self, path: &str, contents: &Shared) -> Result<()> {
        check_output_path(path)?;
        self.files.insert(path.to_string(), contents.clone());
        Ok(())
    }
}

impl Output for MemoryOutput {
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()> {
        check_output_path(path)?;
        self.files.insert(path.to_string(), contents.to_vec());
        Ok(())
    }
}

/// Refuses an output path that could land outside the output folder: absolute, with `..`,
/// `.` or empty segments, backslashes or NUL (an id like `../../x` must never become a file
/// outside the site, even with the lint rules that flag it turned off).
pub(crate) fn check_output_path(path: &str) -> Result<()> {
    let bad = path.is_empty()
        || path.contains(['\\', '\0'])
        || path
            .split('/')
            .any(|segment| matches!(segment, "" | "." | ".."));
    if bad {
        let error = std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the path leaves the output folder or is not a plain relative path; check the \
             ids and file names that make up its route",
        );
        return Err(Error::io(path, "write", error));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_stay_inside_the_output() {
        for ok in ["index.html", "research/a-note.html", "api/notes.json"] {
            assert!(check_output_path(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x.html",
            "research/../../x.html",
            "research//x.html",
            "./x",
            "a\\..\\x",
            "a\0b",
        ] {
            assert!(check_output_path(bad).is_err(), "{bad:?}");
        }
    }
}
