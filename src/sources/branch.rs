//! A repository's default branch as drift reads it: its head, its history since the oldest
//! pinned commit ([`History`]), the files it reads (at `HEAD` and at older mainline commits)
//! and the trails of the files it follows ([`follow`]), each read or followed once.

use super::cache::Repo;
use super::follow::{follow, Trail};
use super::git::Object;
use super::history::History;
use super::locate::Text;
use std::collections::HashMap;
use std::rc::Rc;

/// How many bytes of files of older commits are kept at once: pins in the same file read
/// the same ones, and a commit that deleted a file is read for every block that left it.
const MAX_OLD_BYTES: usize = 256 << 20;

pub(crate) struct Branch {
    /// The branch's name (`main`), when `HEAD` names one.
    pub name: Option<String>,
    /// Its head commit.
    pub head: String,
    pub history: History,
    head_files: HashMap<String, Option<Rc<Text>>>,
    old_files: HashMap<String, Option<Rc<Text>>>,
    old_bytes: usize,
    trails: HashMap<(String, usize, bool), Rc<Trail>>,
}

impl Branch {
    /// The default branch of `repo`, its history read for the pinned `commits` (full hashes).
    pub(crate) fn read(repo: &mut Repo, commits: &[&str]) -> Result<Branch, String> {
        let head = match repo.object("HEAD^{commit}")? {
            Object::Found { oid, .. } => oid,
            _ => return Err("the repository has no default branch".to_string()),
        };
        Ok(Branch {
            name: repo.default_branch(),
            history: History::walk(repo, &head, commits)?,
            head,
            head_files: HashMap::new(),
            old_files: HashMap::new(),
            old_bytes: 0,
            trails: HashMap::new(),
        })
    }

    /// The file at `path` on `HEAD`, if there is one.
    pub(crate) fn head_file(
        &mut self,
        repo: &mut Repo,
        path: &str,
    ) -> Result<Option<Rc<Text>>, String> {
        if let Some(file) = self.head_files.get(path) {
            return Ok(file.clone());
        }
        let file = read(repo, &self.head, path)?;
        self.head_files.insert(path.to_string(), file.clone());
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
    /// together).
    pub(crate) fn files_at<S: AsRef<str>>(
        &mut self,
        repo: &mut Repo,
        index: usize,
        paths: &[S],
    ) -> Result<Vec<Option<Rc<Text>>>, String> {
        let commit = self.history.commit(index).to_string();
        let at_head = commit == self.head;
        let names: Vec<String> = (paths.iter())
            .map(|p| match at_head {
                true => p.as_ref().to_string(),
                false => format!("{commit}:{}", p.as_ref()),
            })
            .collect();
        let files = match at_head {
            true => &mut self.head_files,
            false => &mut self.old_files,
        };
        let missing: Vec<String> = (names.iter())
            .filter(|n| !files.contains_key(*n))
            .map(|n| match at_head {
                true => format!("{commit}:{n}"),
                false => n.clone(),
            })
            .collect();
        if !missing.is_empty() {
            if !at_head && self.old_bytes > MAX_OLD_BYTES {
                files.clear();
                self.old_bytes = 0;
            }
            for (name, object) in missing.iter().zip(repo.objects(&missing)?) {
                let text = match object {
                    Object::Found { kind, data, .. } if kind == "blob" => {
                        self.old_bytes += data.len();
                        Some(Rc::new(Text::new(&data)))
                    }
                    _ => None,
                };
                let key = match at_head {
                    true => name[commit.len() + 1..].to_string(),
                    false => name.clone(),
                };
                files.insert(key, text);
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
        let trail = Rc::new(follow(&self.history, path, from, exists));
        self.trails.insert(key, trail.clone());
        trail
    }
}

/// The bytes of the file `path` at `commit`, if it is a file there.
pub(crate) fn blob(repo: &mut Repo, commit: &str, path: &str) -> Result<Option<Vec<u8>>, String> {
    Ok(match repo.object(&format!("{commit}:{path}"))? {
        Object::Found { kind, data, .. } if kind == "blob" => Some(data),
        _ => None,
    })
}

fn read(repo: &mut Repo, commit: &str, path: &str) -> Result<Option<Rc<Text>>, String> {
    Ok(blob(repo, commit, path)?.map(|data| Rc::new(Text::new(&data))))
}
