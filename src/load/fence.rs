//! Fences: the one rule every walk of an input folder keeps. A file found under an input
//! folder (`content/`, `templates/`, `static/`, `themes/`, a theme and its `templates/` and
//! `static/`) is read only when its real path, symlinks resolved, stays inside that same
//! folder; an input folder itself only when it stays inside the folder that holds it (the
//! site root, `themes/`, the theme); and nothing inside a `.git` folder is ever read.
//!
//! Content comes from pull requests: a symlink in one could otherwise publish any file of the
//! machine that builds the site, the repository's `.git/config` (which can hold a token) or a
//! `.env` beside the content, or show its first line in a lint code frame.

use super::Problem;
use std::path::{Component, Path, PathBuf};

/// The name of the folder git keeps a repository in; never read.
pub const GIT_DIR: &str = ".git";

/// An input folder, resolved: where the files found under it may really be.
#[derive(Debug, Clone)]
pub struct Fence {
    /// The site root, resolved.
    site: PathBuf,
    /// The folder, resolved.
    folder: PathBuf,
    /// The folder as the site names it (`content`, `themes/x/static`), for messages.
    name: String,
}

impl Fence {
    /// The site root: the outermost fence, inside which every other one lies.
    pub fn site(root: &Path) -> std::io::Result<Fence> {
        let site = std::fs::canonicalize(root)?;
        Ok(Fence {
            folder: site.clone(),
            site,
            name: String::new(),
        })
    }

    /// The input folder at `name` (relative to the site root, `/`-separated), which must lie
    /// inside this one. `Ok(None)`: there is no such folder. `Err`: it may not be read, and
    /// why (a finding at `name`).
    pub fn inner(&self, name: &str) -> Result<Option<Fence>, Problem> {
        let path = self.site.join(name);
        if !path.exists() && !path.is_symlink() {
            return Ok(None);
        }
        let folder = self.admit(&path)?;
        if !folder.is_dir() {
            return Ok(None);
        }
        Ok(Some(Fence {
            site: self.site.clone(),
            folder,
            name: name.to_string(),
        }))
    }

    /// Why an entry a walk of this folder found may not be read: a symlink whose real path
    /// leaves the folder, enters `.git`, dangles or loops. `None`: it may be read. Only
    /// symlinks are resolved: any other entry lies where its folder does.
    pub fn refuses(&self, entry: &walkdir::DirEntry) -> Option<Problem> {
        if !entry.path_is_symlink() {
            return None;
        }
        let target = match self.admit(entry.path()) {
            Ok(target) => target,
            Err(problem) => return Some(problem),
        };
        // A link to a folder that holds it would walk the same files again, forever.
        let holder = entry
            .path()
            .parent()
            .and_then(|p| std::fs::canonicalize(p).ok());
        match holder {
            Some(holder) if holder.starts_with(&target) => Some(Problem::SymlinkLoop),
            _ => None,
        }
    }

    /// The folder as the site names it: relative to the site root, `/`-separated (`static`,
    /// `themes/x/templates`); empty for the site root.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The real path of `path`, when it lies inside this folder and outside `.git`.
    fn admit(&self, path: &Path) -> Result<PathBuf, Problem> {
        let target = std::fs::canonicalize(path).map_err(|e| io_problem(&e))?;
        let Ok(in_site) = target.strip_prefix(&self.site) else {
            return Err(Problem::SymlinkOutside { target });
        };
        if in_site.components().any(is_git) {
            return Err(Problem::InGit {
                target: in_site.to_path_buf(),
            });
        }
        if !target.starts_with(&self.folder) {
            return Err(Problem::SymlinkLeaves {
                folder: self.name.clone(),
                target: in_site.to_path_buf(),
            });
        }
        Ok(target)
    }
}

/// Whether a walk should pass over an entry without reading it or reporting it: a `.git`
/// folder or file (a submodule's content folder has one).
pub fn is_git_entry(entry: &walkdir::DirEntry) -> bool {
    entry.file_name().eq_ignore_ascii_case(GIT_DIR)
}

fn is_git(component: Component<'_>) -> bool {
    component.as_os_str().eq_ignore_ascii_case(GIT_DIR)
}

/// The problem a failed walk step stands for.
pub fn walk_problem(e: &walkdir::Error) -> Problem {
    if e.loop_ancestor().is_some() {
        return Problem::SymlinkLoop;
    }
    match e.io_error() {
        Some(io) => io_problem(io),
        None => Problem::Io {
            message: e.to_string(),
        },
    }
}

/// The problem an I/O error stands for (a dangling symlink, a loop, or the error itself).
pub fn io_problem(e: &std::io::Error) -> Problem {
    // ELOOP: "too many levels of symbolic links" (40 on Linux, 62 on the BSDs and macOS).
    let eloop = if cfg!(target_os = "linux") { 40 } else { 62 };
    if e.raw_os_error() == Some(eloop) {
        Problem::SymlinkLoop
    } else if e.kind() == std::io::ErrorKind::NotFound {
        Problem::Dangling
    } else {
        Problem::Io {
            message: e.to_string(),
        }
    }
}

/// What a file that is neither a regular file nor a folder is, in messages.
pub fn special_kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "device";
        }
    }
    let _ = file_type;
    "special file"
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A site with `content/` and `static/`, a `.env` and a `.git/config` at its root.
    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp");
        for folder in ["content/research", "static", ".git"] {
            std::fs::create_dir_all(dir.path().join(folder)).expect("mkdir");
        }
        std::fs::write(dir.path().join(".env"), "SECRET=1\n").expect("env");
        std::fs::write(dir.path().join(".git/config"), "[http]\n").expect("config");
        dir
    }

    /// The problem with the entry at `path` of a walk of `folder`, if any.
    fn refused(site: &Path, folder: &str, path: &str) -> Option<Problem> {
        let fence = Fence::site(site).expect("site");
        let fence = fence.inner(folder).expect("admitted").expect("exists");
        let entry = walkdir::WalkDir::new(site.join(path))
            .into_iter()
            .next()
            .expect("entry")
            .expect("walkable");
        fence.refuses(&entry)
    }

    #[test]
    fn a_link_must_stay_in_the_folder_it_was_found_in() {
        let dir = site();
        let root = dir.path();
        symlink("../../.env", root.join("content/research/env.md")).expect("link");
        symlink("../.git/config", root.join("static/config")).expect("link");
        symlink("../../static", root.join("content/research/elsewhere")).expect("link");
        symlink("/etc/hostname", root.join("static/host")).expect("link");
        symlink("../content/research", root.join("static/same-site")).expect("link");
        std::fs::write(root.join("content/research/a.md"), "").expect("note");
        symlink("a.md", root.join("content/research/b.md")).expect("link");

        let leaves = |target: &str| Problem::SymlinkLeaves {
            folder: "content".into(),
            target: target.into(),
        };
        assert_eq!(
            refused(root, "content", "content/research/env.md"),
            Some(leaves(".env"))
        );
        assert_eq!(
            refused(root, "content", "content/research/elsewhere"),
            Some(leaves("static"))
        );
        assert_eq!(
            refused(root, "static", "static/config"),
            Some(Problem::InGit {
                target: ".git/config".into()
            })
        );
        assert!(matches!(
            refused(root, "static", "static/host"),
            Some(Problem::SymlinkOutside { .. })
        ));
        assert!(matches!(
            refused(root, "static", "static/same-site"),
            Some(Problem::SymlinkLeaves { .. })
        ));
        assert_eq!(refused(root, "content", "content/research/b.md"), None);
    }

    #[test]
    fn an_input_folder_must_stay_in_the_site_and_out_of_git() {
        let dir = site();
        let root = dir.path();
        let fence = Fence::site(root).expect("site");
        assert!(fence.inner("templates").expect("no folder").is_none());
        symlink(".git", root.join("templates")).expect("link");
        assert!(matches!(
            fence.inner("templates"),
            Err(Problem::InGit { .. })
        ));
        std::fs::remove_file(root.join("templates")).expect("unlink");
        symlink("/etc", root.join("templates")).expect("link");
        assert!(matches!(
            fence.inner("templates"),
            Err(Problem::SymlinkOutside { .. })
        ));
        std::fs::remove_file(root.join("templates")).expect("unlink");
        symlink("gone", root.join("templates")).expect("link");
        assert_eq!(fence.inner("templates").err(), Some(Problem::Dangling));
        let content = fence.inner("content").expect("admitted").expect("exists");
        symlink("../static", root.join("content/shared")).expect("link");
        assert!(matches!(
            content.inner("content/shared"),
            Err(Problem::SymlinkLeaves { .. })
        ));
    }
}
