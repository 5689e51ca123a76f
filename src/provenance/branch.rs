//! A repository's default branch as drift reads it: its name, head and history since the
//! oldest pinned commit, read once and shared by every thread ([`Shared`]); and, per thread,
//! the files it reads (at `HEAD` and at older mainline commits) and the trails of the files
//! it follows ([`follow`]), each read or followed once ([`Branch`]).

use super::cache::Repo;
use super::follow::{follow, Trail};
use super::git::{too_large, Object};
use super::history::History;
use super::locate::Text;
use std::collections::HashMap;
use std::rc::Rc;

/// How many bytes of files of older commits a thread keeps at once: pins in the same file
/// read the same ones, and a commit that deleted a file is read for every block that left it.
const MAX_OLD_BYTES: usize = 48 << 20;

/// A repository's default branch: what all its pins share.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The branch's name (`main`), when `HEAD` names one.
    pub name: Option<String>,
    /// Its head commit.
    pub head: String,
    pub history: History,
}

impl Shared {
    /// The default branch of `repo`, its history read for the pinned `commits` (full hashes).
    pub(crate) fn read(repo: &mut Repo, commits: &[&str]) -> Result<Shared, String> {
        let head = match repo.object("HEAD^{commit}")?.identity() {
            Some((oid, _)) => oid.to_string(),
            None => return Err("the repository has no default branch".to_string()),
        };
        Ok(Shared {
            name: repo.default_branch(),
            history: History::walk(repo, &head, commits)?,
            head,
        })
    }
}

/// One thread's view of a default branch: the shared history, and the files and trails
/// this thread has read.
pub(crate) struct Branch<'s> {
    pub name: Option<&'s str>,
    pub head: &'s str,
    pub history: &'s History,
    head_files: HashMap<String, Option<Rc<Text>>>,
    old_files: HashMap<String, Option<Rc<Text>>>,
    old_bytes: usize,
    trails: HashMap<(String, usize, bool), Rc<Trail>>,
}

impl<'s> Branch<'s> {
    pub(crate) fn new(shared: &'s Shared) -> Branch<'s> {
        Branch {
            name: shared.name.as_deref(),
            head: &shared.head,
            history: &shared.history,
            head_files: HashMap::new(),
            old_files: HashMap::new(),
            old_bytes: 0,
            trails: HashMap::new(),
        }
    }

    /// The file at `path` on `HEAD`, if there is one.
    pub(crate) fn head_file(
        &mut self,
        repo: &mut Repo,
        path: &str,
    ) -> Result<Option<Rc<Text>>, String> {
        let name = format!("{}:{path}", self.head);
        if let Some(file) = self.head_files.get(&name) {
            return Ok(file.clone());
        }
        let file = read(repo, self.head, path)?;
        self.head_files.insert(name, file.clone());
        Ok(file)
    }

    /// The file at `path` in the mainline commit at `index`, if there is one.
    pub(crate) fn file_at(
        &mut self,
        repo: &mut Repo,
        index: usize,
        path: &str,
    ) -> Result<Option<Rc<Text>>, String> {
        Ok(self.files_at(repo, index, &[path])?.remove(0))
    }

    /// The files at `paths` in the mainline commit at `index` (those not read yet, read
    /// together; a file the commit changed by its blob, which skips walking the commit's
    /// folders and is read once whichever commits have it).
    pub(crate) fn files_at<S: AsRef<str>>(
        &mut self,
        repo: &mut Repo,
        index: usize,
        paths: &[S],
    ) -> Result<Vec<Option<Rc<Text>>>, String> {
        let commit = self.history.commit(index);
        let at_head = commit == self.head;
        let names: Vec<String> = (paths.iter())
            .map(
                |p| match (at_head, self.history.blob_after(index, p.as_ref())) {
                    (false, Some(blob)) => blob.to_string(),
                    _ => format!("{commit}:{}", p.as_ref()),
                },
            )
            .collect();
        let files = match at_head {
            true => &mut self.head_files,
            false => &mut self.old_files,
        };
        let missing: Vec<&String> = names.iter().filter(|n| !files.contains_key(*n)).collect();
        if !missing.is_empty() {
            if !at_head && self.old_bytes > MAX_OLD_BYTES {
                files.clear();
                self.old_bytes = 0;
            }
            for (name, object) in missing.iter().zip(repo.objects(&missing)?) {
                let text = match object {
                    Object::Found { kind, data, .. } if kind == "blob" => {
                        self.old_bytes += data.len();
                        Some(Rc::new(text(name, &data)?))
                    }
                    Object::TooLarge { kind, size, .. } if kind == "blob" => {
                        return Err(too_large(&shown(name), size))
                    }
                    Object::NotFetched => return Err(not_fetched(name)),
                    _ => None,
                };
                files.insert(name.to_string(), text);
            }
        }
        Ok(names
            .iter()
            .map(|n| files.get(n).cloned().flatten())
            .collect())
    }

    /// The trail of `path` from the mainline commit at `from` on, where it exists or not.
    pub(crate) fn trail(&mut self, path: &str, from: usize, exists: bool) -> Rc<Trail> {
        let key = (path.to_string(), from, exists);
        if let Some(trail) = self.trails.get(&key) {
            return trail.clone();
        }
        let trail = Rc::new(follow(self.history, path, from, exists));
        self.trails.insert(key, trail.clone());
        trail
    }
}

/// The bytes of the file `path` at `commit`, if it is a file there.
pub(crate) fn blob(repo: &mut Repo, commit: &str, path: &str) -> Result<Option<Vec<u8>>, String> {
    Ok(match repo.object(&format!("{commit}:{path}"))? {
        Object::Found { kind, data, .. } if kind == "blob" => Some(data),
        Object::TooLarge { kind, size, .. } if kind == "blob" => {
            return Err(too_large(&shown(&format!("{commit}:{path}")), size))
        }
        Object::NotFetched => return Err(not_fetched(&format!("{commit}:{path}"))),
        _ => None,
    })
}

/// `<commit>:<path>` or a blob's hash, as messages show it.
fn shown(name: &str) -> String {
    format!("`{}`", crate::terminal::escape(name))
}

/// The text of the file `name` names, or why it is not read (too many lines).
fn text(name: &str, data: &[u8]) -> Result<Text, String> {
    Text::read(data).map_err(|why| format!("{}: {why}", shown(name)))
}

/// Why a file cannot be read from a partial clone that may not fetch.
fn not_fetched(name: &str) -> String {
    format!(
        "`{}` is not in the partial clone, which may not be fetched now (--offline)",
        crate::terminal::escape(name)
    )
}

fn read(repo: &mut Repo, commit: &str, path: &str) -> Result<Option<Rc<Text>>, String> {
    let name = format!("{commit}:{path}");
    match blob(repo, commit, path)? {
        Some(data) => Ok(Some(Rc::new(text(&name, &data)?))),
        None => Ok(None),
    }
}
