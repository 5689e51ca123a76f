//! The repository cache: one bare clone per repository, in a folder named after its URL
//! (`<cache>/github.com/nousresearch/hermes-agent.git`; an `http://` repository's host
//! folder is `http+<host>`), one folder per repository URL and never two.
//!
//! A repository that is not in the cache is cloned (`git clone --bare`); one that is, is used
//! as it is, and fetched (`git fetch`, branches and tags) only when a pinned commit is not in
//! it or when drift needs the default branch as it is now — at most once per run. Network
//! calls have a time limit and never prompt; when they fail, or with `--offline`, fieldnotes
//! works from what the cache holds and says which sources it could not check.
//!
//! Two ways to provide a repository without a network: clone it into the folder
//! [`CacheConfig::folder`] names (`git clone --bare <repo> <folder>`), or map its URL to a
//! local repository with `--repo URL=PATH` ([`CacheConfig::map`]), which is used in place
//! and never fetched.

use super::git::{Git, Object, Objects, DIFF_SAFETY, NO_PATHS};
use super::pin::repository_url;
use super::texts::Texts;
use super::worktree;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where repositories come from.
#[derive(Debug, Clone)]
pub struct CacheConfig {
    /// The cache folder.
    pub dir: PathBuf,
    /// Repository URL (as [`repository_url`] writes it) → a local repository used in place.
    pub repos: BTreeMap<String, PathBuf>,
    /// Never clone or fetch.
    pub offline: bool,
    /// The longest a clone or fetch may take.
    pub timeout: Duration,
    /// Clone without file contents (`git clone --filter=blob:none`): commits and folders now,
    /// each file's content fetched when first read.
    pub partial: bool,
}

/// The default time limit of a clone or fetch.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

impl CacheConfig {
    pub fn new(dir: PathBuf) -> CacheConfig {
        CacheConfig {
            dir,
            repos: BTreeMap::new(),
            offline: false,
            timeout: DEFAULT_TIMEOUT,
            partial: false,
        }
    }

    /// `$XDG_CACHE_HOME/fieldnotes/repos`, else `~/.cache/fieldnotes/repos`, else
    /// `.fieldnotes-cache` in the current folder.
    pub fn default_dir() -> PathBuf {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|home| PathBuf::from(home).join(".cache"))
            });
        match base {
            Some(base) => base.join("fieldnotes").join("repos"),
            None => PathBuf::from(".fieldnotes-cache"),
        }
    }

    /// Adds a `URL=PATH` mapping: sources in the repository at URL are read from the local
    /// repository PATH (bare or not), which is never fetched.
    pub fn map(&mut self, spec: &str) -> Result<(), String> {
        let (url, path) = spec
            .split_once('=')
            .filter(|(url, path)| !url.is_empty() && !path.is_empty())
            .ok_or_else(|| format!("--repo {spec}: write URL=PATH"))?;
        let url = repository_url(url)
            .ok_or_else(|| format!("--repo {spec}: {url} is not an http(s) URL"))?;
        self.repos.insert(url, PathBuf::from(path));
        Ok(())
    }

    /// The folder the bare clone of `repository` (a [`repository_url`]) lives in: its host and
    /// path under the cache, ending in `.git`, each segment written with `A-Z a-z 0-9 . _ -`
    /// alone (any other byte percent-encoded, as are the dots of `.`, `..` and of a `.git`
    /// ending). The scheme is part of the name (`http+<host>` for `http://`; `https://`, the
    /// usual one, is the host alone): two URLs never share a folder, so a pin is never
    /// checked against another repository's clone.
    pub fn folder(&self, repository: &str) -> PathBuf {
        let (scheme, rest) = repository.split_once("://").unwrap_or(("", repository));
        let mut segments: Vec<String> = (rest.split('/'))
            .filter(|s| !s.is_empty())
            .map(safe_segment)
            .collect();
        if let Some(host) = segments.first_mut() {
            if scheme != "https" {
                *host = format!("{}+{host}", safe_segment(scheme));
            }
        }
        if let Some(last) = segments.last_mut() {
            last.push_str(".git");
        }
        let mut folder = self.dir.clone();
        folder.extend(segments);
        folder
    }
}

/// A path segment with only `A-Z a-z 0-9 . _ -`, every other byte percent-encoded (`%` too),
/// so that two segments never become one name: never `.` or `..`, and never ending in
/// `.git` (the last segment's own ending).
fn safe_segment(segment: &str) -> String {
    let mut safe = String::new();
    for byte in segment.bytes() {
        match byte.is_ascii_alphanumeric() || b"._-".contains(&byte) {
            true => safe.push(char::from(byte)),
            false => safe.push_str(&format!("%{byte:02X}")),
        }
    }
    if safe.bytes().all(|b| b == b'.') {
        return safe.replace('.', "%2E");
    }
    match safe.strip_suffix(".git") {
        Some(stem) => format!("{stem}%2Egit"),
        None => safe,
    }
}

/// The repositories of one run, each opened (and cloned or fetched) at most once.
pub struct Cache {
    config: CacheConfig,
    repos: HashMap<String, Result<Repo, String>>,
}

impl Cache {
    pub fn new(config: CacheConfig) -> Cache {
        Cache {
            config,
            repos: HashMap::new(),
        }
    }

    /// The repository at `url` (a [`repository_url`]): mapped, cached, or cloned now. The error
    /// says why it cannot be read.
    pub fn repo(&mut self, url: &str) -> Result<&mut Repo, String> {
        if !self.repos.contains_key(url) {
            let opened = open(&self.config, url);
            self.repos.insert(url.to_string(), opened);
        }
        match self.repos.get_mut(url).expect("inserted above") {
            Ok(repo) => Ok(repo),
            Err(why) => Err(why.clone()),
        }
    }
}

impl Cache {
    /// The repositories at `urls` (each opened as [`Cache::repo`] does), each borrowed apart
    /// from the others, so that each can be read on a thread of its own.
    pub fn repos<'c>(&'c mut self, urls: &[&str]) -> Vec<Result<&'c mut Repo, String>> {
        for url in urls {
            let _ = self.repo(url);
        }
        let mut opened: HashMap<&str, Result<&mut Repo, String>> = (self.repos.iter_mut())
            .filter(|(url, _)| urls.contains(&url.as_str()))
            .map(|(url, repo)| (url.as_str(), repo.as_mut().map_err(|why| why.clone())))
            .collect();
        (urls.iter())
            .map(|url| {
                opened
                    .remove(url)
                    .unwrap_or_else(|| Err(format!("{url}: not opened")))
            })
            .collect()
    }
}

fn open(config: &CacheConfig, url: &str) -> Result<Repo, String> {
    if let Some(path) = config.repos.get(url) {
        return Ok(Repo::new(mapped_git_dir(url, path)?, url, Remote::Local));
    }
    let folder = config.folder(url);
    if folder.join("HEAD").is_file() {
        let remote = match config.offline {
            true => Remote::Offline,
            false => Remote::Online(config.timeout),
        };
        return Ok(Repo::new(folder, url, remote));
    }
    if config.offline {
        return Err(format!(
            "{url} is not in the cache ({}) and --offline is set",
            folder.display()
        ));
    }
    clone(url, &folder, config.timeout, config.partial)
        .map_err(|e| format!("{url} is not in the cache and could not be cloned: {e}"))?;
    let mut repo = Repo::new(folder, url, Remote::Online(config.timeout));
    repo.fetched = true;
    Ok(repo)
}

/// The git folder of the repository `--repo URL=PATH` names: PATH itself when it is a bare
/// repository (it is named, not searched for), else the work tree holding it, found as
/// [`worktree::find`] does (never by git's own search).
fn mapped_git_dir(url: &str, path: &Path) -> Result<PathBuf, String> {
    let git_dir = match worktree::looks_like_git_dir(path) {
        true => path.canonicalize().ok(),
        false => worktree::find(path).map(|tree| tree.git_dir),
    };
    git_dir.ok_or_else(|| {
        format!(
            "--repo {url}={}: not a git repository (no `.git` in it or above it, and not a \
             bare repository)",
            path.display()
        )
    })
}

/// Clones `url` bare into `folder` (without file contents when `partial`), through a
/// temporary folder beside it so that a failed clone leaves nothing behind.
fn clone(url: &str, folder: &Path, timeout: Duration, partial: bool) -> Result<(), String> {
    let parent = folder.parent().ok_or("the cache folder has no parent")?;
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("could not create {}: {e}", parent.display()))?;
    let staging = folder.with_extension(format!("git.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let git = match partial {
        true => Git::new(parent).args(["clone", "--bare", "--quiet", "--filter=blob:none"]),
        false => Git::new(parent).args(["clone", "--bare", "--quiet"]),
    };
    let cloned = (git.operands([OsStr::new(url), staging.as_os_str()])).run(Some(timeout));
    // The clone moves into place through the one write layer (no symlink followed).
    let name = |p: &Path| PathBuf::from(p.file_name().unwrap_or_default());
    let rename = || {
        crate::beneath::Root::create(parent)
            .and_then(|root| root.rename(&name(&staging), &name(folder)))
    };
    let moved = cloned.and_then(|_| {
        rename().or_else(|e| match folder.join("HEAD").is_file() {
            // Another run cloned it first: theirs is as good.
            true => Ok(()),
            false => Err(format!(
                "could not move the clone to {}: {e}",
                folder.display()
            )),
        })
    });
    let _ = std::fs::remove_dir_all(&staging);
    moved
}

/// Where a repository's objects come from, and so whether what it lacks is missing upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Remote {
    /// A `--repo URL=PATH` mapping: the repository itself, never fetched.
    Local,
    /// A cached clone that may not be fetched (`--offline`).
    Offline,
    /// A cached clone, fetched with this time limit.
    Online(Duration),
}

/// One repository: its git folder, whether it may be fetched, and its object reader.
pub struct Repo {
    git_dir: PathBuf,
    url: String,
    remote: Remote,
    fetched: bool,
    /// Whether the heads of pull requests were fetched in this run.
    pulls_fetched: bool,
    /// Why the one fetch of this run failed, if it did.
    fetch_error: Option<String>,
    objects: Option<Objects>,
    renames: HashMap<(String, String), HashMap<String, String>>,
    /// The default branch's name, once asked (`Some(None)`: `HEAD` names no branch).
    branch: Option<Option<String>>,
    /// Whether it is a partial clone, once asked.
    partial: Option<bool>,
    /// The files read from it in this run, each read once.
    pub(crate) texts: Texts,
}

impl Repo {
    fn new(git_dir: PathBuf, url: &str, remote: Remote) -> Repo {
        Repo {
            git_dir,
            url: url.to_string(),
            remote,
            fetched: false,
            pulls_fetched: false,
            fetch_error: None,
            objects: None,
            renames: HashMap::new(),
            branch: None,
            partial: None,
            texts: Texts::default(),
        }
    }

    /// Another reader of the same repository (its own `cat-file`), never fetched: for reading
    /// on another thread.
    pub(crate) fn reader(&self) -> Repo {
        let mut reader = Repo::new(self.git_dir.clone(), &self.url, self.remote);
        reader.fetched = true;
        reader
    }

    /// Whether this run may not fetch the clone (`--offline`): what it lacks is then unknown
    /// here, and a pin it lacks cannot be trusted.
    pub fn offline(&self) -> bool {
        matches!(self.remote, Remote::Offline)
    }

    /// Why the repository may lack what its remote has (a commit pushed since it was last
    /// fetched): `--offline`, or this run's fetch failed. `None` for a mapped repository, or
    /// a clone cloned or fetched in this run, where what is missing is missing upstream too.
    pub fn staleness(&self) -> Option<String> {
        match (self.remote, &self.fetch_error) {
            (Remote::Offline, _) => Some(format!(
                "the cached clone of {} was not fetched (--offline)",
                self.url
            )),
            (_, Some(error)) => Some(error.clone()),
            _ => None,
        }
    }

    /// The object `name` names (`<hash>`, `<hash>:<path>`, `HEAD^{commit}`).
    pub(crate) fn object(&mut self, name: &str) -> Result<Object, String> {
        Ok(self.objects(&[name])?.remove(0))
    }

    /// The objects `names` name, in order, asked for together. In a partial clone that may
    /// not fetch, a file whose content was never fetched is [`Object::NotFetched`], never
    /// missing: its path or hash is in the commit's folders.
    pub(crate) fn objects<S: AsRef<str>>(&mut self, names: &[S]) -> Result<Vec<Object>, String> {
        if self.objects.is_none() {
            self.objects = Some(Objects::start(|| self.git())?);
        }
        let objects = self.objects.as_mut().expect("started above");
        let mut answer = objects.get_many(names);
        if answer.is_err() {
            // A reader that failed once is not trusted again: the next call starts another.
            self.objects = None;
        }
        if let Ok(answers) = &mut answer {
            let missing = answers.contains(&Object::Missing);
            let may_fetch = matches!(self.remote, Remote::Online(_));
            if missing && !may_fetch && self.partial() {
                for (name, answer) in names.iter().zip(answers.iter_mut()) {
                    if *answer == Object::Missing && self.listed(name.as_ref())? {
                        *answer = Object::NotFetched;
                    }
                }
            }
        }
        answer
    }

    /// Whether the repository is a partial clone (`remote.origin.promisor`), asked once.
    fn partial(&mut self) -> bool {
        if self.partial.is_none() {
            let git =
                (self.git().args(["config", "--bool", "--get"])).value("remote.origin.promisor");
            let out = git.and_then(|git| git.run(None));
            self.partial = Some(out.is_ok_and(|o| String::from_utf8_lossy(&o).trim() == "true"));
        }
        self.partial == Some(true)
    }

    /// Whether `name` (`<hash>`, or `<commit>:<path>`) names an entry of the repository's
    /// folders: a hash of 40 or 64 hex digits read from them, or a path its folder lists.
    fn listed(&mut self, name: &str) -> Result<bool, String> {
        let Some((commit, path)) = name.split_once(':') else {
            return Ok(matches!(name.len(), 40 | 64));
        };
        let (folder, file) = path.rsplit_once('/').unwrap_or(("", path));
        let objects = self.objects.as_mut().ok_or("git cat-file is closed")?;
        Ok(
            match objects.get_many(&[format!("{commit}:{folder}")])?.remove(0) {
                Object::Found { kind, data, .. } => kind == "tree" && tree_lists(&data, file),
                Object::TooLarge { size, .. } => {
                    return Err(super::git::too_large(&format!("folder `{folder}`"), size))
                }
                _ => false,
            },
        )
    }

    /// Brings branches, tags and the default branch up to date with the remote, once per run.
    /// Returns whether anything may have changed. A failure is kept ([`Repo::fetch_error`]),
    /// and the cache is used as it is.
    pub(crate) fn update(&mut self) -> bool {
        let Remote::Online(timeout) = self.remote else {
            return false;
        };
        if self.fetched {
            return false;
        }
        self.fetched = true;
        let fetch = self.git().args([
            "fetch",
            "--quiet",
            "--prune",
            "origin",
            "+refs/heads/*:refs/heads/*",
            "+refs/tags/*:refs/tags/*",
        ]);
        if let Err(e) = fetch.run(Some(timeout)) {
            self.fetch_error = Some(format!("could not fetch {}: {e}", self.url));
            return false;
        }
        self.follow_default_branch(timeout);
        self.objects = None;
        self.branch = None;
        true
    }

    /// Fetches one commit by its full hash (a commit on no branch, such as a pull request's),
    /// keeping it under `refs/fieldnotes/`. Returns whether it was fetched.
    pub(crate) fn fetch_commit(&mut self, hash: &str) -> bool {
        let Remote::Online(timeout) = self.remote else {
            return false;
        };
        let refspec = format!("{hash}:refs/fieldnotes/{hash}");
        let fetched = (self.git().args(["fetch", "--quiet", "origin"]))
            .value(&refspec)
            .and_then(|fetch| fetch.run(Some(timeout)))
            .is_ok();
        if fetched {
            self.objects = None;
        }
        fetched
    }

    /// Fetches the heads of the remote's pull requests (GitHub's `refs/pull/*/head`,
    /// GitLab's `refs/merge-requests/*/head`) into the same names, once per run. Returns
    /// whether they were fetched.
    pub(crate) fn fetch_pulls(&mut self) -> bool {
        let Remote::Online(timeout) = self.remote else {
            return false;
        };
        if self.pulls_fetched {
            return false;
        }
        self.pulls_fetched = true;
        let fetch = self.git().args([
            "fetch",
            "--quiet",
            "origin",
            "+refs/pull/*/head:refs/pull/*/head",
            "+refs/merge-requests/*/head:refs/merge-requests/*/head",
        ]);
        let fetched = fetch.run(Some(timeout)).is_ok();
        if fetched {
            self.objects = None;
        }
        fetched
    }

    /// Points `HEAD` at the remote's default branch, which may have changed since the clone.
    fn follow_default_branch(&mut self, timeout: Duration) {
        let ls_remote = self.git().args(["ls-remote", "--symref", "origin", "HEAD"]);
        let Ok(out) = ls_remote.run(Some(timeout)) else {
            return;
        };
        let text = String::from_utf8_lossy(&out);
        let branch = text.lines().find_map(|l| {
            l.strip_prefix("ref: ")?
                .strip_suffix("\tHEAD")
                .filter(|r| r.starts_with("refs/heads/"))
        });
        if let Some(branch) = branch {
            let point = self.git().args(["symbolic-ref", "HEAD"]).value(branch);
            let _ = point.and_then(|git| git.run(None));
        }
    }

    /// Full hashes of every object whose name starts with `prefix` (at least 4 hex digits).
    pub(crate) fn objects_starting_with(&mut self, prefix: &str) -> Result<Vec<String>, String> {
        let out = (self.git().args(["rev-parse"]))
            .option("--disambiguate", prefix)
            .run(None)?;
        let mut hashes: Vec<String> = String::from_utf8_lossy(&out)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        hashes.sort();
        Ok(hashes)
    }

    /// The name of the default branch (`main`), if `HEAD` names one; asked of git once.
    pub fn default_branch(&mut self) -> Option<String> {
        if self.branch.is_none() {
            let out = (self.git().args(["symbolic-ref", "--short", "HEAD"])).run(None);
            let name = out.map(|o| String::from_utf8_lossy(&o).trim().to_string());
            self.branch = Some(name.ok().filter(|n| !n.is_empty()));
        }
        self.branch.clone().flatten()
    }

    /// Files renamed between two commits: old path → new path (`git diff -M`).
    pub(crate) fn renames(
        &mut self,
        from: &str,
        to: &str,
    ) -> Result<&HashMap<String, String>, String> {
        let key = (from.to_string(), to.to_string());
        if !self.renames.contains_key(&key) {
            let out = (self.git())
                .args(["diff", "-z", "--name-status", "-M", "--diff-filter=R"])
                .args(DIFF_SAFETY)
                .value(from)?
                .value(to)?
                .operands(NO_PATHS)
                .run(None)?;
            let text = String::from_utf8_lossy(&out);
            let mut fields = text.split('\0').filter(|f| !f.is_empty());
            let mut map = HashMap::new();
            while let (Some(_status), Some(old), Some(new)) =
                (fields.next(), fields.next(), fields.next())
            {
                map.insert(old.to_string(), new.to_string());
            }
            self.renames.insert(key.clone(), map);
        }
        Ok(&self.renames[&key])
    }

    /// git on this repository. A partial clone's missing file contents are fetched as they
    /// are read only from a cache that may be fetched, and a transfer that stalls (under
    /// 1 KB/s for 30 s) is given up; elsewhere they are missing.
    pub(crate) fn git(&self) -> Git {
        let git = Git::on(&self.git_dir);
        match self.remote {
            Remote::Online(_) => git.args([
                "-c",
                "http.lowSpeedLimit=1000",
                "-c",
                "http.lowSpeedTime=30",
            ]),
            Remote::Local | Remote::Offline => git.no_lazy_fetch(),
        }
    }
}

/// Whether a tree object's data lists an entry named `name` (entries: `<mode> <name>\0`,
/// then the hash's bytes, 20 or 32 of them).
fn tree_lists(data: &[u8], name: &str) -> bool {
    let hash_len = 20;
    let mut rest = data;
    while let Some(space) = rest.iter().position(|&b| b == b' ') {
        let Some(nul) = rest[space..].iter().position(|&b| b == 0) else {
            return false;
        };
        if &rest[space + 1..space + nul] == name.as_bytes() {
            return true;
        }
        rest = rest.get(space + nul + 1 + hash_len..).unwrap_or_default();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_repository_has_its_own_safe_folder() {
        let config = CacheConfig::new(PathBuf::from("/c"));
        assert_eq!(
            config.folder("https://github.com/NousResearch/hermes-agent"),
            Path::new("/c/github.com/NousResearch/hermes-agent.git")
        );
        assert_eq!(
            config.folder("https://git.test/../a b/.."),
            Path::new("/c/git.test/%2E%2E/a%20b/%2E%2E.git")
        );
        // The scheme is part of the name; so is every byte of the URL.
        assert_eq!(
            config.folder("http://github.com/o/r"),
            Path::new("/c/http+github.com/o/r.git")
        );
        let urls = [
            "https://git.test/a b/c",
            "https://git.test/a_b/c",
            "https://git.test/a%20b/c",
            "http://git.test/a b/c",
            "https://git.test/a b.git/c",
            "https://git.test/a b/c.git",
            "https://git.test:8443/a b/c",
        ];
        let folders: std::collections::BTreeSet<PathBuf> =
            urls.iter().map(|u| config.folder(u)).collect();
        assert_eq!(folders.len(), urls.len(), "{folders:?}");
    }

    #[test]
    fn repo_mappings_are_keyed_by_repository() {
        let mut config = CacheConfig::new(PathBuf::from("/c"));
        config
            .map("https://github.com/o/r/blob/main/x=/tmp/r")
            .expect("maps");
        assert_eq!(
            config.repos.get("https://github.com/o/r"),
            Some(&PathBuf::from("/tmp/r"))
        );
        // Owner and repository match without case.
        config
            .map("https://github.com/Acme/Widget=/tmp/w")
            .expect("maps");
        let key = repository_url("https://github.com/acme/WIDGET/blob/x/a.py").expect("a url");
        assert_eq!(config.repos.get(&key), Some(&PathBuf::from("/tmp/w")));
        assert!(config.map("https://github.com/o/r").is_err());
        assert!(config.map("ssh://x=/tmp").is_err());
    }
}
