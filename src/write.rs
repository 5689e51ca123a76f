//! Write: put rendered files into a fresh folder beside the output, then swap it into place,
//! so a failed build never leaves a half-written site.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where rendered files go: a folder on disk, or memory (tests, `serve`).
pub trait Output {
    /// Writes `contents` at `path` (relative, `/`-separated, e.g. `research/x.html`).
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()>;
}

/// Rendered files kept in memory, sorted by path.
#[derive(Debug, Default)]
pub struct MemoryOutput {
    pub files: std::collections::BTreeMap<String, Vec<u8>>,
}

impl Output for MemoryOutput {
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()> {
        self.files.insert(path.to_string(), contents.to_vec());
        Ok(())
    }
}

/// The file that marks a folder as fieldnotes output, safe to replace.
pub const MARKER: &str = ".fieldnotes-output";

/// Writes into `<out>.tmp-<pid>` and renames it to `out` when [`StagedDir::commit`] is called.
pub struct StagedDir {
    out: PathBuf,
    staging: PathBuf,
    committed: bool,
}

impl StagedDir {
    /// Prepares a staging folder beside `out`. Refuses to replace a non-empty folder that
    /// fieldnotes did not write, or one that holds the site itself.
    pub fn create(out: &Path, site_root: &Path) -> Result<StagedDir> {
        check_replaceable(out, site_root)?;
        let name = out
            .file_name()
            .map_or("public".into(), |n| n.to_string_lossy().into_owned());
        let parent = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(parent)
            .map_err(|e| Error::io(parent, "create the output's parent folder", e))?;
        let staging = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if staging.exists() {
            fs::remove_dir_all(&staging).map_err(|e| Error::io(&staging, "clear", e))?;
        }
        fs::create_dir_all(&staging).map_err(|e| Error::io(&staging, "create", e))?;
        fs::write(
            staging.join(MARKER),
            b"written by fieldnotes; the folder is replaced on each build\n",
        )
        .map_err(|e| Error::io(&staging, "write the output marker in", e))?;
        Ok(StagedDir {
            out: out.to_path_buf(),
            staging,
            committed: false,
        })
    }

    /// Swaps the staged folder into place of the output folder.
    pub fn commit(mut self) -> Result<()> {
        let old = self.staging.with_extension("old");
        if self.out.exists() {
            fs::rename(&self.out, &old).map_err(|e| Error::io(&self.out, "move aside", e))?;
        }
        fs::rename(&self.staging, &self.out)
            .map_err(|e| Error::io(&self.out, "move into place", e))?;
        self.committed = true;
        if old.exists() {
            fs::remove_dir_all(&old)
                .map_err(|e| Error::io(&old, "remove the previous output", e))?;
        }
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

impl Output for StagedDir {
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()> {
        let target = self.staging.join(path);
        if let Some(dir) = target.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
        }
        let file = fs::File::create(&target).map_err(|e| Error::io(&target, "create", e))?;
        let mut writer = std::io::BufWriter::new(file);
        writer
            .write_all(contents)
            .and_then(|_| writer.flush())
            .map_err(|e| Error::io(&target, "write", e))
    }
}

fn check_replaceable(out: &Path, site_root: &Path) -> Result<()> {
    let refuse = |why: &str| {
        Err(Error::Usage {
            message: format!("refusing to write the site into {}: {why}", out.display()),
        })
    };
    if let (Ok(out_abs), Ok(root_abs)) = (fs::canonicalize(out), fs::canonicalize(site_root)) {
        if root_abs.starts_with(&out_abs) {
            return refuse("it holds the site itself; choose another --out");
        }
    }
    let is_empty = out
        .read_dir()
        .map(|mut d| d.next().is_none())
        .unwrap_or(true);
    if out.exists() && !is_empty && !out.join(MARKER).exists() {
        return refuse(&format!(
            "it is not empty and has no {MARKER} file, so fieldnotes did not write it; \
             empty it or choose another --out"
        ));
    }
    Ok(())
}
