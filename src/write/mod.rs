//! Write: put rendered files into a fresh folder beside the output, then swap it into place,
//! so a failed or killed build never leaves a half-written site, and never clears a folder
//! fieldnotes did not write.
//!
//! The staging folder is `.<out>.tmp-<pid>` beside the output; on commit the previous output
//! moves to `.<out>.old-<pid>`, the staging folder takes its name, and the old one is removed.
//! A build killed before the swap leaves the previous output as it was (and a staging folder
//! the next build removes); one killed between the two renames leaves the previous output
//! under `.old-<pid>`, which the next build moves back before it starts; one killed while
//! removing the old output leaves part of it, which the next build removes.
//!
//! Every file is written through [`crate::beneath::Root`], the one write layer: no symlink is
//! followed below the site root (for an output inside the site, such as `--out dist/site`
//! with `dist` a symlink a pull request commits) or below the output's parent (for one
//! outside it, named by the maintainer).

use crate::beneath::{lexical, Mode, Root};
use crate::error::{Error, Result};
use crate::render::output::{check_output_path, Output, Shared};
use pool::Writers;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

mod pool;

/// Most bytes one build writes, all files together: each page's render has its own budget
/// (`limits.maxPageBytes`), and this one bounds their sum, counted as each file is handed
/// over, so that a template printing its page's fill on every one of 10,000 notes stops
/// with an error instead of filling the disk. A site of 10,000 notes writes about 300 MiB.
pub const MAX_BUILD_BYTES: u64 = 2 << 30;

/// The file that marks a folder as fieldnotes output, safe to replace.
pub const MARKER: &str = ".fieldnotes-output";

/// Folders of the site that output may never go into: reading them is how the next build
/// finds its content, templates and static files (and `.git` is the repository).
const SITE_FOLDERS: [&str; 5] = [
    crate::load::CONTENT_DIR,
    crate::load::assets::TEMPLATES_DIR,
    crate::load::assets::STATIC_DIR,
    crate::load::assets::THEMES_DIR,
    crate::load::fence::GIT_DIR,
];

/// Writes into `.<out>.tmp-<pid>` and renames it to `out` when [`StagedDir::commit`] is called.
pub struct StagedDir {
    out: PathBuf,
    /// The folder that holds the output, and the names in it of the output, the staging
    /// folder and the previous output while it is swapped out.
    parent: Root,
    name: String,
    staging: PathBuf,
    old: PathBuf,
    committed: bool,
    /// Bytes handed to the writers so far (see [`MAX_BUILD_BYTES`]).
    written: u64,
    /// Writes the files on background threads; `None` once finished.
    writers: Option<Writers>,
}

impl StagedDir {
    /// Prepares a staging folder beside `out`. Refuses (see [`check_out`]) to replace a
    /// non-empty folder that fieldnotes did not write, a symlink, one that holds the site
    /// itself, or one inside the site's input folders or `.git`. Removes what killed builds
    /// left beside `out`.
    pub fn create(out: &Path, site_root: &Path) -> Result<StagedDir> {
        check_out(out, site_root)?;
        let name = out
            .file_name()
            .map_or("public".into(), |n| n.to_string_lossy().into_owned());
        let parent = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let parent_root = parent_root(parent, site_root)?;
        let parent = parent_root.path().to_path_buf();
        recover(out, &parent, &name)?;
        let pid = std::process::id();
        let staging = parent.join(format!(".{name}.tmp-{pid}"));
        let old = parent.join(format!(".{name}.old-{pid}"));
        for leftover in [&staging, &old] {
            if leftover.exists() {
                fs::remove_dir_all(leftover).map_err(|e| Error::io(leftover, "clear", e))?;
            }
        }
        let staged = parent_root.folder(Path::new(staging.file_name().expect("a name")), true)?;
        staged.write(
            Path::new(MARKER),
            b"written by fieldnotes; the folder is replaced on each build\n",
            Mode::New,
        )?;
        Ok(StagedDir {
            out: out.to_path_buf(),
            parent: parent_root,
            name,
            staging,
            old,
            committed: false,
            written: 0,
            writers: Some(Writers::start(staged)),
        })
    }

    /// Swaps the staged folder into place of the output folder.
    /// Waits for every file to be written first.
    pub fn commit(mut self) -> Result<()> {
        if let Some(writers) = self.writers.take() {
            writers.finish()?;
        }
        let name = |path: &Path| PathBuf::from(path.file_name().expect("a name"));
        let (out, staging, old) = (Path::new(&self.name), name(&self.staging), name(&self.old));
        let had_output = self.out.exists();
        if had_output {
            self.parent.rename(out, &old)?;
        }
        if let Err(e) = self.parent.rename(&staging, out) {
            if had_output {
                let _ = self.parent.rename(&old, out);
            }
            return Err(e);
        }
        self.committed = true;
        if had_output {
            fs::remove_dir_all(&self.old)
                .map_err(|e| Error::io(&self.old, "remove the previous output", e))?;
        }
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        // Writers stop before their folder goes.
        drop(self.writers.take());
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

impl Output for StagedDir {
    fn put(&mut self, path: &str, contents: &[u8]) -> Result<()> {
        self.put_shared(path, &Arc::new(contents.to_vec()))
    }

    /// Queues the file for the writer threads: it is on disk when [`StagedDir::commit`]
    /// returns.
    fn put_shared(&mut self, path: &str, contents: &Shared) -> Result<()> {
        check_output_path(path)?;
        self.written = self.written.saturating_add(contents.len() as u64);
        if self.written > MAX_BUILD_BYTES {
            return Err(Error::Usage {
                message: format!(
                    "{path}: the build wrote more than its limit of {MAX_BUILD_BYTES} bytes \
                     (all files together), so nothing was written; a template prints far too \
                     much on every page: make it print less"
                ),
            });
        }
        match &self.writers {
            Some(writers) => writers.write(PathBuf::from(path), contents.clone()),
            None => Err(Error::io(
                self.staging.join(path),
                "write",
                std::io::Error::other("the output was already committed"),
            )),
        }
    }
}

/// The output's parent folder as a write root: beneath the site root when it lies there (a
/// pull request commits what is inside the site, symlinks too), else as the maintainer named
/// it. Created when missing.
fn parent_root(parent: &Path, site_root: &Path) -> Result<Root> {
    let real = fs::canonicalize(site_root).map_err(|e| Error::io(site_root, "open", e))?;
    let parent = lexical(parent)?;
    for root in [lexical(site_root)?, real] {
        if let Ok(inside) = parent.strip_prefix(&root) {
            return Root::create(&root)?.folder(inside, true);
        }
    }
    Root::create(&parent)
}

/// Cleans up after killed builds: the staging and previous-output folders (`.<out>.tmp-<pid>`,
/// `.<out>.old-<pid>`) of processes that no longer run are removed, whatever state the kill
/// left them in (only fieldnotes makes folders of those names beside an output), except that
/// a previous output moved aside by a build killed mid-swap, still whole (it has the marker),
/// is moved back when there is no output.
fn recover(out: &Path, parent: &Path, name: &str) -> Result<()> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Ok(());
    };
    let mut leftovers: Vec<(PathBuf, bool)> = entries
        .filter_map(|entry| {
            let file_name = entry.ok()?.file_name();
            let rest = file_name.to_str()?.strip_prefix(&format!(".{name}."))?;
            let (is_old, pid) = match rest.split_once('-')? {
                ("tmp", pid) => (false, pid),
                ("old", pid) => (true, pid),
                _ => return None,
            };
            let pid: u32 = pid.parse().ok()?;
            is_stale(pid).then(|| (parent.join(&file_name), is_old))
        })
        .collect();
    leftovers.sort();
    for (path, is_old) in leftovers {
        let whole = path.join(MARKER).is_file() && !path.is_symlink();
        if is_old && whole && !out.exists() && !out.is_symlink() {
            fs::rename(&path, out).map_err(|e| Error::io(&path, "restore the output from", e))?;
        } else {
            remove_leftover(&path)?;
        }
    }
    Ok(())
}

/// Removes a killed build's leftover folder (a symlink or file of that name: only the link).
fn remove_leftover(path: &Path) -> Result<()> {
    let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    let removed = match is_dir {
        true => fs::remove_dir_all(path),
        false => fs::remove_file(path),
    };
    removed.map_err(|e| Error::io(path, "remove", e))
}

/// Whether the build with this process id is gone (on Linux, from `/proc`; elsewhere any
/// other build's folder counts as left behind).
fn is_stale(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    let proc = Path::new("/proc");
    !(proc.is_dir() && proc.join(pid.to_string()).exists())
}

/// Refuses, before anything is written, an output folder that building into would harm:
/// the site root or a folder holding it; a folder at or inside the site's `content/`,
/// `templates/`, `static/`, `themes/` or `.git` (as named, or where a symlink among them
/// leads); a symlink (the build replaces the output folder, so it would replace the link,
/// not the folder it names); a file; a non-empty folder without the marker.
pub fn check_out(out: &Path, site_root: &Path) -> Result<()> {
    let refuse = |why: &str| {
        Err(Error::Usage {
            message: format!("refusing to write the site into {}: {why}", out.display()),
        })
    };
    let (out_abs, root_abs) = (absolute(out)?, absolute(site_root)?);
    if root_abs.starts_with(&out_abs) {
        return refuse(
            "it holds the site itself, and building would replace it; choose another --out",
        );
    }
    for folder in SITE_FOLDERS {
        let named = root_abs.join(folder);
        let real = fs::canonicalize(&named).unwrap_or_else(|_| named.clone());
        if out_abs.starts_with(&named) || out_abs.starts_with(&real) {
            return refuse(&format!(
                "it is the site's {folder}/ folder or inside it, which building would change; \
                 choose another --out, outside {folder}/"
            ));
        }
    }
    if out.is_symlink() {
        let target = fs::read_link(out).unwrap_or_default();
        return refuse(&format!(
            "it is a symlink (to {}), and a build replaces the output folder itself; pass the \
             folder it names as --out, or remove the link",
            target.display()
        ));
    }
    if out.exists() && !out.is_dir() {
        return refuse("it is a file, not a folder; choose another --out");
    }
    let is_empty = out
        .read_dir()
        .map(|mut d| d.next().is_none())
        .unwrap_or(true);
    if out.exists() && !is_empty && !out.join(MARKER).is_file() {
        return refuse(&format!(
            "it is not empty and has no {MARKER} file, so fieldnotes did not write it; \
             empty it or choose another --out"
        ));
    }
    Ok(())
}

/// `path` made absolute with symlinks resolved, also when it does not exist yet: its longest
/// existing prefix is resolved and the rest appended (`..` taken off lexically: a folder that
/// does not exist is no symlink).
fn absolute(path: &Path) -> Result<PathBuf> {
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Error::io(".", "find the current folder", e))?
            .join(path)
    };
    let components: Vec<Component<'_>> = full.components().collect();
    for split in (1..=components.len()).rev() {
        let prefix: PathBuf = components[..split].iter().collect();
        let Ok(mut out) = fs::canonicalize(&prefix) else {
            continue;
        };
        for component in &components[split..] {
            match component {
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(name) => out.push(name),
                _ => {}
            }
        }
        return Ok(out);
    }
    Ok(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_resolves_missing_tails() {
        let dir = tempfile::tempdir().expect("temp");
        let base = fs::canonicalize(dir.path()).expect("canonical");
        let path = dir.path().join("a/b/../c");
        assert_eq!(absolute(&path).expect("absolute"), base.join("a/c"));
    }
}
