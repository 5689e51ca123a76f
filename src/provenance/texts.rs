//! The files a run read from one repository, each kept as its [`Text`] (its bytes decoded and
//! its lines indexed): a file that thirty sources cite is read from git, counted and split
//! into lines once, not thirty times (issue 40: thirty citations of one 15 MiB line took
//! minutes, each citation counting the file's lines again).
//!
//! What is kept is bounded by [`KEPT_BYTES`]; past it the file kept longest is let go. The
//! callers visit pins file by file ([`super::by_file`]), so even a let-go file is read again
//! only by a later pass (`build --excerpts` verifies after it reads the excerpts).

use super::locate::Text;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// The most bytes of file text kept at once (each file is at most
/// [`super::git::MAX_OBJECT_BYTES`]).
const KEPT_BYTES: usize = 256 << 20;

/// A file's text, or why it is not read (too many lines), by `<commit>:<path>`.
pub(crate) type Read = Result<Arc<Text>, String>;

/// The texts of one repository's files read in this run, by `<commit>:<path>`.
#[derive(Debug)]
pub(crate) struct Texts {
    /// The most bytes kept ([`KEPT_BYTES`]).
    limit: usize,
    by_name: HashMap<String, Read>,
    /// The names kept, oldest first.
    order: VecDeque<String>,
    bytes: usize,
    /// How many times a file's bytes were decoded and counted: once per file is the promise.
    reads: usize,
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::within(KEPT_BYTES)
    }
}

impl Texts {
    fn within(limit: usize) -> Texts {
        Texts {
            limit,
            by_name: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            reads: 0,
        }
    }

    /// The text kept for `name`, if it is.
    pub(crate) fn get(&self, name: &str) -> Option<Read> {
        self.by_name.get(name).cloned()
    }

    /// Reads `data`, the bytes of the file `name`, into its text and keeps it.
    pub(crate) fn read(&mut self, name: &str, data: &[u8]) -> Read {
        self.reads += 1;
        let read = Text::read(data).map(Arc::new);
        let size = read.as_ref().map_or(0, |text| text.bytes());
        while self.bytes + size > self.limit {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(Ok(text)) = self.by_name.remove(&oldest) {
                self.bytes -= text.bytes();
            }
        }
        self.bytes += size;
        self.order.push_back(name.to_string());
        self.by_name.insert(name.to_string(), read.clone());
        read
    }

    /// How many files were read (decoded and their lines counted) in this run.
    #[cfg(test)]
    pub(crate) fn reads(&self) -> usize {
        self.reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_once_and_the_oldest_let_go_past_the_budget() {
        let mut texts = Texts::within(250);
        let big = vec![b'x'; 100];
        for name in ["c:a", "c:b"] {
            assert!(texts.read(name, &big).is_ok());
        }
        assert!(texts.get("c:a").is_some() && texts.get("c:b").is_some());
        assert!(texts.read("c:c", &big).is_ok());
        assert!(texts.get("c:a").is_none(), "the oldest is let go");
        assert!(texts.get("c:b").is_some() && texts.get("c:c").is_some());
        assert_eq!(texts.reads(), 3);
        assert!(texts.bytes <= 250);
        let lines = vec![b'\n'; 1_000_001];
        assert!(texts
            .read("c:d", &lines)
            .is_err_and(|why| why.contains("lines")));
        assert!(texts.get("c:d").is_some_and(|read| read.is_err()));
    }
}

/// `build --excerpts` end to end, below the binary: a site citing one file thirty times (and
/// by a short and a full hash) reads it from git once, for the excerpts and for verification.
#[cfg(test)]
mod once_per_file {
    use super::super::cache::{Cache, CacheConfig};
    use super::super::git::Git;
    use super::super::{excerpt, verify};
    use std::path::Path;

    fn git(dir: &Path, args: impl FnOnce(Git) -> Git) -> String {
        let out = args(Git::new(dir)).run(None).expect("git runs");
        String::from_utf8(out).expect("utf-8").trim().to_string()
    }

    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("a fixture") {
            let path = entry.expect("an entry").path();
            let target = to.join(path.file_name().expect("a name"));
            match path.is_dir() {
                true => copy(&path, &target),
                false => drop(std::fs::copy(&path, &target).expect("copy")),
            }
        }
    }

    #[test]
    fn thirty_citations_of_one_file_read_it_once() {
        let repo = tempfile::tempdir().expect("temp dir");
        let line = "var a = 1; ".repeat(20_000);
        std::fs::create_dir_all(repo.path().join("src")).expect("mkdir");
        std::fs::write(repo.path().join("src/min.js"), format!("{line}\n{line}\n")).expect("w");
        git(repo.path(), |g| g.args(["init", "-q"]));
        git(repo.path(), |g| g.args(["add", "-A"]));
        git(repo.path(), |g| {
            g.args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-qm",
                "x",
            ])
        });
        let commit = git(repo.path(), |g| g.args(["rev-parse", "HEAD"]));

        let site = tempfile::tempdir().expect("temp dir");
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
        copy(&fixtures, site.path());
        let note = site
            .path()
            .join("content/research/alpha-defaults-to-sse.md");
        let text = std::fs::read_to_string(&note).expect("note");
        let sources: String = (0..30)
            .map(|i| {
                let pin = if i % 2 == 0 {
                    &commit[..]
                } else {
                    &commit[..7 + i % 20]
                };
                format!(
                    "  - url: https://github.com/example/big\n    title: min {i}\n    \
                     commit: {pin}\n    path: src/min.js:{}\n    date: 2026-09-01\n",
                    1 + i % 2
                )
            })
            .collect();
        let text = text.replacen("sources:\n", &format!("sources:\n{sources}"), 1);
        std::fs::write(&note, text).expect("write");
        let index = crate::open(site.path()).expect("the site opens");

        let cache_dir = tempfile::tempdir().expect("temp dir");
        let mut config = CacheConfig::new(cache_dir.path().to_path_buf());
        config.offline = true;
        let mapping = format!("https://github.com/example/big={}", repo.path().display());
        config.map(&mapping).expect("a mapping");
        let mut cache = Cache::new(config);
        let excerpts = excerpt::excerpts(&index, &mut cache);
        let verification = verify::verify(&index, &mut cache);
        assert!(excerpts.len() >= 30, "{} excerpts", excerpts.len());
        assert!(verification.verified() >= 30);
        let repo = cache
            .repo("https://github.com/example/big")
            .expect("opened");
        assert_eq!(repo.texts.reads(), 1, "the file is read once for 60 uses");
    }
}
