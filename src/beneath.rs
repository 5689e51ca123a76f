//! The one write layer: a folder ([`Root`]) that every file fieldnotes writes stays beneath.
//! Below the root no symlink is followed, at any component: each folder is opened by name
//! from the one above it (`openat` with `O_NOFOLLOW`), and so is the file, so a symlink a pull
//! request commits (`dist -> /home/…`, `content/research -> /etc`) is refused, not written
//! through. The root itself is named by whoever runs fieldnotes (the command line, the cache
//! folder): symlinks in its own path are theirs and are followed.

use crate::error::{Error, Result};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A folder that writes stay beneath.
#[derive(Debug)]
pub struct Root {
    path: PathBuf,
    dir: sys::Dir,
}

/// How a file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Created, or emptied and rewritten in place.
    Truncate,
    /// Created; refused when anything is at its name already.
    New,
}

impl Root {
    /// The folder `path`, as its owner named it (symlinks in `path` are followed), created
    /// with its parents when missing.
    pub fn create(path: &Path) -> Result<Root> {
        std::fs::create_dir_all(path).map_err(|e| Error::io(path, "create", e))?;
        let dir = sys::Dir::open(path).map_err(|e| Error::io(path, "open", e))?;
        Ok(Root {
            path: path.to_path_buf(),
            dir,
        })
    }

    /// The folder `dir` (created when missing) as a write root that a pull request cannot
    /// redirect: when `dir` lies in a site (an ancestor holds `site.yaml`), opened from the
    /// site's root with no symlink followed on the way, since the site's folders are the pull
    /// request's; else as named, since the whole path is then its owner's.
    pub fn in_site(dir: &Path) -> Result<Root> {
        let dir = lexical(dir)?;
        let site = dir
            .ancestors()
            .find(|a| a.join(crate::config::CONFIG_FILE).is_file());
        match site.map(|site| (site, dir.strip_prefix(site))) {
            Some((site, Ok(inside))) => Root::create(site)?.folder(inside, true),
            _ => Root::create(&dir),
        }
    }

    /// Where the root is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `rel` beneath this root (created, with the folders above it, when
    /// `create`), no component of it a symlink.
    pub fn folder(&self, rel: &Path, create: bool) -> Result<Root> {
        let names = self.names(rel)?;
        let mut dir = self.dir.try_clone().map_err(|e| self.error(rel, e))?;
        for name in names {
            dir = dir.child(name, create).map_err(|e| self.error(rel, e))?;
        }
        Ok(Root {
            path: self.path.join(rel),
            dir,
        })
    }

    /// Writes `contents` at `rel` (its folders created), never through a symlink.
    pub fn write(&self, rel: &Path, contents: &[u8], mode: Mode) -> Result<()> {
        self.write_file(rel, contents, mode, None)
    }

    fn write_file(
        &self,
        rel: &Path,
        contents: &[u8],
        mode: Mode,
        permissions: Option<std::fs::Permissions>,
    ) -> Result<()> {
        let (parent, name) = self.split(rel)?;
        let mut file: File = parent
            .dir
            .create_file(name, mode)
            .map_err(|e| self.error(rel, e))?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)
                .map_err(|e| self.error(rel, e))?;
        }
        file.write_all(contents).map_err(|e| self.error(rel, e))?;
        if mode == Mode::New {
            file.sync_all().map_err(|e| self.error(rel, e))?;
        }
        Ok(())
    }

    /// Writes `contents` at `rel` whole or not at all: into a new file beside it, then
    /// renamed over it (a symlink or file at `rel` is replaced, never written through).
    pub fn replace(&self, rel: &Path, contents: &[u8]) -> Result<()> {
        self.replace_with(rel, contents, None)
    }

    /// [`Root::replace`], the new file given `permissions` (those of the file it replaces).
    pub fn replace_with(
        &self,
        rel: &Path,
        contents: &[u8],
        permissions: Option<std::fs::Permissions>,
    ) -> Result<()> {
        let (parent, name) = self.split(rel)?;
        static STAGED: AtomicUsize = AtomicUsize::new(0);
        let mut staging = OsString::from(".");
        staging.push(name);
        let n = STAGED.fetch_add(1, Ordering::Relaxed);
        staging.push(format!(".{}.{n}.tmp", std::process::id()));
        let staging = Path::new(&staging);
        let _ = parent.dir.remove_file(staging.as_os_str());
        parent.write_file(staging, contents, Mode::New, permissions)?;
        let renamed = parent.dir.rename(staging.as_os_str(), &parent.dir, name);
        if let Err(e) = renamed {
            let _ = parent.dir.remove_file(staging.as_os_str());
            return Err(self.error(rel, e));
        }
        Ok(())
    }

    /// Removes the file `rel` beneath this root (no symlink followed to reach it).
    pub fn remove(&self, rel: &Path) -> Result<()> {
        let (parent, name) = self.split(rel)?;
        parent.dir.remove_file(name).map_err(|e| self.error(rel, e))
    }

    /// Renames `from` to `to`, both beneath this root (no symlink followed to reach either).
    pub fn rename(&self, from: &Path, to: &Path) -> Result<()> {
        let (from_dir, from_name) = self.split(from)?;
        let (to_dir, to_name) = self.split(to)?;
        (from_dir.dir)
            .rename(from_name, &to_dir.dir, to_name)
            .map_err(|e| self.error(from, e))
    }

    /// The folder that holds `rel` (created) and `rel`'s last name.
    fn split<'p>(&self, rel: &'p Path) -> Result<(Root, &'p OsStr)> {
        let names = self.names(rel)?;
        let Some((name, above)) = names.split_last() else {
            return Err(self.error(rel, std::io::Error::other("no file name")));
        };
        let above: PathBuf = above.iter().collect();
        Ok((self.folder(&above, true)?, name))
    }

    /// `rel`'s names, refused when it could leave the root (`..`, an absolute path).
    fn names<'p>(&self, rel: &'p Path) -> Result<Vec<&'p OsStr>> {
        let mut names = Vec::new();
        for component in rel.components() {
            match component {
                Component::Normal(name) => names.push(name),
                Component::CurDir => {}
                _ => {
                    let leaves =
                        std::io::Error::other("the path leaves the folder it is written in");
                    return Err(self.error(rel, leaves));
                }
            }
        }
        Ok(names)
    }

    fn error(&self, rel: &Path, e: std::io::Error) -> Error {
        let path = self.path.join(rel);
        if sys::is_symlink_error(&e) {
            let why = format!(
                "a component of the path is a symlink: fieldnotes writes through none (it could \
                 lead outside {}); replace it with a folder",
                self.path.display()
            );
            return Error::io(path, "write", std::io::Error::other(why));
        }
        Error::io(path, "write", e)
    }
}

/// `path` made absolute against the current folder, `.` and `..` taken off lexically (no
/// symlink resolved: which ones the path goes through is what a caller checks).
pub fn lexical(path: &Path) -> Result<PathBuf> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", "find the current folder", e))?;
    let mut out = PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Ok(out)
}

#[cfg(target_os = "linux")]
mod sys {
    //! `openat` per component, with `O_NOFOLLOW`.
    use super::Mode;
    use std::ffi::{CString, OsStr};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    #[derive(Debug)]
    pub struct Dir(OwnedFd);

    fn c_name(name: &OsStr) -> io::Result<CString> {
        CString::new(name.as_bytes()).map_err(|_| io::Error::other("a NUL in a file name"))
    }

    fn check(result: libc::c_int) -> io::Result<libc::c_int> {
        match result {
            -1 => Err(io::Error::last_os_error()),
            fd => Ok(fd),
        }
    }

    impl Dir {
        pub fn open(path: &Path) -> io::Result<Dir> {
            let file = File::open(path)?;
            if !file.metadata()?.is_dir() {
                return Err(io::Error::from_raw_os_error(libc::ENOTDIR));
            }
            Ok(Dir(file.into()))
        }

        pub fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir(self.0.try_clone()?))
        }

        pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Dir> {
            let name = c_name(name)?;
            if create {
                // SAFETY: a valid descriptor and a NUL-terminated name.
                let made = unsafe { libc::mkdirat(self.0.as_raw_fd(), name.as_ptr(), 0o777) };
                if made == -1 {
                    let e = io::Error::last_os_error();
                    if e.raw_os_error() != Some(libc::EEXIST) {
                        return Err(e);
                    }
                }
            }
            let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
            // SAFETY: as above; the descriptor returned is owned by the `OwnedFd`.
            let opened = check(unsafe { libc::openat(self.0.as_raw_fd(), name.as_ptr(), flags) });
            match opened {
                Ok(fd) => Ok(Dir(unsafe { OwnedFd::from_raw_fd(fd) })),
                // `O_DIRECTORY` meets a symlink first (`ENOTDIR`): say it was one.
                Err(e) if self.is_symlink(&name) => Err(io::Error::new(e.kind(), SymlinkMet(e))),
                Err(e) => Err(e),
            }
        }

        fn is_symlink(&self, name: &CString) -> bool {
            let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
            // SAFETY: a valid descriptor, a NUL-terminated name, room for the answer.
            let done = unsafe {
                libc::fstatat(
                    self.0.as_raw_fd(),
                    name.as_ptr(),
                    stat.as_mut_ptr(),
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            // SAFETY: fstatat filled it when it returned 0.
            done == 0 && unsafe { stat.assume_init() }.st_mode & libc::S_IFMT == libc::S_IFLNK
        }

        pub fn create_file(&self, name: &OsStr, mode: Mode) -> io::Result<File> {
            let name = c_name(name)?;
            let how = match mode {
                Mode::Truncate => libc::O_TRUNC,
                Mode::New => libc::O_EXCL,
            };
            let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_NOFOLLOW | libc::O_CLOEXEC | how;
            let permissions: libc::c_uint = 0o666;
            // SAFETY: as above.
            let fd = check(unsafe {
                libc::openat(self.0.as_raw_fd(), name.as_ptr(), flags, permissions)
            })?;
            Ok(unsafe { File::from_raw_fd(fd) })
        }

        pub fn rename(&self, from: &OsStr, to_dir: &Dir, to: &OsStr) -> io::Result<()> {
            let (from, to) = (c_name(from)?, c_name(to)?);
            // SAFETY: valid descriptors and NUL-terminated names.
            check(unsafe {
                libc::renameat(
                    self.0.as_raw_fd(),
                    from.as_ptr(),
                    to_dir.0.as_raw_fd(),
                    to.as_ptr(),
                )
            })?;
            Ok(())
        }

        pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            let name = c_name(name)?;
            // SAFETY: as above.
            check(unsafe { libc::unlinkat(self.0.as_raw_fd(), name.as_ptr(), 0) })?;
            Ok(())
        }
    }

    /// The error of a folder that is a symlink.
    #[derive(Debug)]
    struct SymlinkMet(io::Error);

    impl std::fmt::Display for SymlinkMet {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "a symlink ({})", self.0)
        }
    }

    impl std::error::Error for SymlinkMet {}

    /// `O_NOFOLLOW` met a symlink as the file (`ELOOP`), or a folder was one.
    pub fn is_symlink_error(e: &io::Error) -> bool {
        e.raw_os_error() == Some(libc::ELOOP)
            || e.get_ref().is_some_and(|inner| inner.is::<SymlinkMet>())
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    //! Elsewhere: each component checked with `symlink_metadata` before it is used.
    use super::Mode;
    use std::ffi::{OsStr, OsString};
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::path::{Path, PathBuf};

    const SYMLINK: &str = "a symlink in the path";

    #[derive(Debug)]
    pub struct Dir(PathBuf);

    fn no_symlink(path: &Path) -> io::Result<()> {
        match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => Err(io::Error::other(SYMLINK)),
            _ => Ok(()),
        }
    }

    impl Dir {
        pub fn open(path: &Path) -> io::Result<Dir> {
            Ok(Dir(path.to_path_buf()))
        }

        pub fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir(self.0.clone()))
        }

        pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Dir> {
            let path = self.0.join(name);
            no_symlink(&path)?;
            if create && !path.is_dir() {
                fs::create_dir(&path).or_else(|e| match path.is_dir() {
                    true => Ok(()),
                    false => Err(e),
                })?;
            }
            no_symlink(&path)?;
            Ok(Dir(path))
        }

        pub fn create_file(&self, name: &OsStr, mode: Mode) -> io::Result<File> {
            let path = self.0.join(name);
            no_symlink(&path)?;
            let mut options = OpenOptions::new();
            options.write(true);
            match mode {
                Mode::Truncate => options.create(true).truncate(true),
                Mode::New => options.create_new(true),
            };
            options.open(path)
        }

        pub fn rename(&self, from: &OsStr, to_dir: &Dir, to: &OsStr) -> io::Result<()> {
            fs::rename(self.0.join(from), to_dir.0.join(to))
        }

        pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            fs::remove_file(self.0.join(name))
        }
    }

    pub fn is_symlink_error(e: &io::Error) -> bool {
        e.to_string() == SYMLINK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symlinked() -> (tempfile::TempDir, Root, PathBuf) {
        let dir = tempfile::tempdir().expect("temp");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).expect("outside");
        let root = Root::create(&dir.path().join("root")).expect("root");
        std::os::unix::fs::symlink(&outside, root.path().join("link")).expect("link");
        (dir, root, outside)
    }

    #[test]
    fn writes_beneath_the_root_and_makes_folders() {
        let (_dir, root, _) = symlinked();
        root.write(Path::new("a/b/c.txt"), b"x", Mode::Truncate)
            .expect("written");
        root.replace(Path::new("a/b/c.txt"), b"y")
            .expect("replaced");
        assert_eq!(std::fs::read(root.path().join("a/b/c.txt")).unwrap(), b"y");
        let twice = root.write(Path::new("a/b/c.txt"), b"z", Mode::New);
        assert!(twice.is_err());
    }

    /// A symlink as a folder, as the file, or `..`: refused, nothing written outside.
    #[test]
    fn no_symlink_is_followed_at_any_component() {
        let (_dir, root, outside) = symlinked();
        for rel in ["link/x.txt", "link/deep/x.txt", "link", "../outside/x.txt"] {
            let written = root.write(Path::new(rel), b"x", Mode::Truncate);
            assert!(written.is_err(), "{rel}");
            assert!(root.folder(Path::new(rel), true).is_err(), "{rel}");
        }
        std::os::unix::fs::symlink(outside.join("f"), root.path().join("file")).expect("link");
        assert!(root.write(Path::new("file"), b"x", Mode::Truncate).is_err());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        // Replacing swaps the link itself for a file.
        root.replace(Path::new("file"), b"x").expect("replaced");
        assert!(!root.path().join("file").is_symlink());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }
}
