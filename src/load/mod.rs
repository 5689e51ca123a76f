//! Load: read `site.yaml` and every Markdown file under `content/`, in sorted path order,
//! within the caps of `site.yaml`'s `limits`, and list the templates and static files
//! ([`assets`]); never reading through a symlink that leaves the folder it was found in
//! ([`fence`]).
//!
//! Content comes from pull requests, so nothing in `content/` may stop the load: a file that
//! is too large, is not UTF-8, is a FIFO, or is a symlink that loops or leads out of
//! `content/` becomes a [`Unreadable`] entry (a lint finding later), and the walk goes on.
//! Only a site without `site.yaml` or `content/` fails here.

pub(crate) mod assets;
pub(crate) mod fence;
pub(crate) mod lists;

use crate::config::{Limits, SiteConfig};
use crate::error::{Error, Result};
use crate::model::Transcript;
use crate::text_file::{FileId, Section, TextFile};
pub use assets::Assets;
use fence::{io_problem, is_git_entry, special_kind, walk_problem, Fence};
use rayon::prelude::*;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The folder under the site root that holds the content.
pub const CONTENT_DIR: &str = "content";

/// What the load step hands to parse: the settings and the raw files.
#[derive(Debug)]
pub struct LoadedSite {
    pub root: PathBuf,
    pub config: SiteConfig,
    /// Every content file, and every entry that could not be read (with empty text).
    pub files: Vec<TextFile>,
    /// For each content file to parse, its section (files that could not be read at all have
    /// none).
    pub sections: Vec<(FileId, Section)>,
    /// Entries that could not be read, in full or at all.
    pub unreadable: Vec<Unreadable>,
    /// The templates and static files a render uses, and those it may not.
    pub assets: Assets,
    /// The `.jsonl` transcripts in `content/observations/`, in path order.
    pub transcripts: Vec<Transcript>,
    /// The lists of self-reports in `content/lists/` (`<id>.yaml`), as positions in `files`.
    pub lists: Vec<FileId>,
}

/// A content entry that could not be read, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub file: FileId,
    pub problem: Problem,
}

/// Why a content entry could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not UTF-8: the text was read with replacement characters.
    NotUtf8 { offset: usize },
    /// A FIFO, socket or device: reading it could block forever.
    NotAFile { kind: &'static str },
    /// A symlink whose target does not exist.
    Dangling,
    /// A symlink that leads back to itself or to a folder that holds it.
    SymlinkLoop,
    /// A symlink that leads out of the site's folder (to `target`).
    SymlinkOutside { target: PathBuf },
    /// A symlink that stays in the site but leads out of the input folder it was found in
    /// (`folder`, e.g. `content`), to `target` (relative to the site root).
    SymlinkLeaves { folder: String, target: PathBuf },
    /// A symlink into a `.git` folder (to `target`, relative to the site root).
    InGit { target: PathBuf },
    /// Larger than `limits.maxFileBytes`; not read.
    TooLarge { bytes: u64, limit: u64 },
    /// The site already has `limits.maxFiles` files; this one and the rest were not read.
    TooMany { limit: usize },
    /// The file system refused.
    Io { message: String },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotUtf8 { offset } => {
                write!(f, "not UTF-8 text (invalid byte at offset {offset})")
            }
            Problem::NotAFile { kind } => write!(f, "it is a {kind}, not a regular file"),
            Problem::Dangling => write!(f, "it is a symlink to a file that does not exist"),
            Problem::SymlinkLoop => write!(
                f,
                "it is a symlink that leads back to itself, or to a folder that holds it"
            ),
            Problem::SymlinkOutside { target } => write!(
                f,
                "it is a symlink that leads out of the site, to {}",
                target.display()
            ),
            Problem::SymlinkLeaves { folder, target } => write!(
                f,
                "it is a symlink that leads out of {folder}/, to {}",
                target.display()
            ),
            Problem::InGit { target } => write!(
                f,
                "it is a symlink into the repository's .git folder, to {}",
                target.display()
            ),
            Problem::TooLarge { bytes, limit } => write!(
                f,
                "it has {bytes} bytes, more than the {limit} of limits.maxFileBytes"
            ),
            Problem::TooMany { limit } => write!(
                f,
                "the site has more than {limit} content files (limits.maxFiles); this one \
                 and the rest were not read"
            ),
            Problem::Io { message } => write!(f, "{message}"),
        }
    }
}

/// Reads the site in `root`. Fails only when the site itself cannot be read
/// (no `site.yaml`, no `content/`); a bad entry becomes a finding later.
pub fn load(root: &Path) -> Result<LoadedSite> {
    let config = SiteConfig::load(root)?;
    let content = root.join(CONTENT_DIR);
    if !content.is_dir() {
        return Err(Error::Usage {
            message: format!(
                "{}: no such folder; a site keeps its notes in content/research/, clients in \
                 content/clients/, capabilities in content/capabilities/ (the manual: {}); \
                 `fieldnotes init DIR` writes a new site to start from",
                content.display(),
                crate::error::manual("content-format", None)
            ),
        });
    }
    let site = Fence::site(root).map_err(|e| Error::io(root, "resolve", e))?;
    let found = walk(root, &site, config.limits.max_files);
    let assets = assets::scan(root, &site, &config.theme);
    let limits = config.limits.clone();
    let (transcripts, found): (Vec<Found>, Vec<Found>) =
        found.into_iter().partition(|f| f.transcript);
    let transcripts = transcripts
        .par_iter()
        .map(|entry| read_transcript(root, entry, &limits))
        .collect();
    let read: Vec<(TextFile, Option<Problem>)> = found
        .par_iter()
        .map(|entry| match &entry.problem {
            Some(problem) => (
                TextFile::new(relative(root, &entry.path), String::new()),
                Some(problem.clone()),
            ),
            None => read_file(root, &entry.path, &limits),
        })
        .collect();
    let mut site = LoadedSite::new(root, config);
    site.assets = assets;
    site.transcripts = transcripts;
    for ((file, problem), entry) in read.into_iter().zip(found) {
        site.add(file, entry.section, problem);
    }
    for path in lists::find(root) {
        let (file, problem) = read_file(root, &path, &limits);
        site.add_list(file, problem);
    }
    Ok(site)
}

/// Lists the site's templates and static files again (`fieldnotes serve`, after one changed),
/// as [`load`] does.
pub fn assets(root: &Path, theme: &str) -> Result<Assets> {
    let site = Fence::site(root).map_err(|e| Error::io(root, "resolve", e))?;
    Ok(assets::scan(root, &site, theme))
}

/// A site made of files in memory (tests, fuzzing): `files` are paths relative to the root
/// (`content/research/x.md`) and their bytes. The same caps and checks as [`load`] apply, but
/// for those of the file system; paths outside a section's folder are left out.
pub fn from_memory(root: &Path, config: SiteConfig, files: Vec<(PathBuf, Vec<u8>)>) -> LoadedSite {
    let (lists, files): (Vec<_>, Vec<_>) =
        (files.into_iter()).partition(|(path, _)| lists::is_list(path));
    let (transcripts, files): (Vec<_>, Vec<_>) = files.into_iter().partition(|(path, _)| {
        path.parent() == Some(&Path::new(CONTENT_DIR).join(Section::Observations.dir()))
            && is_transcript(path)
    });
    let mut transcripts: Vec<Transcript> = transcripts
        .into_iter()
        .map(|(path, bytes)| transcript_of(path, Ok(bytes)))
        .collect();
    transcripts.sort_by(|a, b| a.path.cmp(&b.path));
    let mut files: Vec<(PathBuf, Section, Vec<u8>)> = files
        .into_iter()
        .filter_map(|(path, bytes)| {
            let mut parts = path.components().map(|c| c.as_os_str().to_str());
            let in_content = parts.next()? == Some(CONTENT_DIR);
            let section = Section::from_dir(parts.next()??)?;
            let is_markdown = path.extension().is_some_and(|e| e == "md");
            (in_content && is_markdown).then_some((path, section, bytes))
        })
        .collect();
    files.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    let limits = config.limits.clone();
    let mut site = LoadedSite::new(root, config);
    site.transcripts = transcripts;
    for (id, (path, section, bytes)) in files.into_iter().enumerate() {
        if id == limits.max_files {
            let problem = Problem::TooMany {
                limit: limits.max_files,
            };
            site.add(TextFile::new(path, String::new()), section, Some(problem));
            break;
        }
        let (file, problem) = if bytes.len() as u64 > limits.max_file_bytes {
            let problem = Problem::TooLarge {
                bytes: bytes.len() as u64,
                limit: limits.max_file_bytes,
            };
            (TextFile::new(path, String::new()), Some(problem))
        } else {
            decode(path, bytes)
        };
        site.add(file, section, problem);
    }
    let mut lists = lists;
    lists.sort();
    for (path, bytes) in lists {
        let (file, problem) = decode(path, bytes);
        site.add_list(file, problem);
    }
    site
}

/// Reads one content file again (`fieldnotes serve`, after an edit): `relative` is its path
/// under the site root. The same caps and checks as [`load`] apply, but for the walk's (the
/// caller makes sure the file is a regular Markdown file of a section).
pub fn read_one(root: &Path, relative: &Path, limits: &Limits) -> (TextFile, Option<Problem>) {
    read_file(root, &root.join(relative), limits)
}

impl LoadedSite {
    fn new(root: &Path, config: SiteConfig) -> LoadedSite {
        LoadedSite {
            root: root.to_path_buf(),
            config,
            files: Vec::new(),
            sections: Vec::new(),
            unreadable: Vec::new(),
            assets: Assets::default(),
            transcripts: Vec::new(),
            lists: Vec::new(),
        }
    }

    /// Adds a list of self-reports; it is parsed unless it could not be read at all.
    fn add_list(&mut self, file: TextFile, problem: Option<Problem>) {
        let id = self.files.len();
        self.files.push(file);
        if matches!(problem, None | Some(Problem::NotUtf8 { .. })) {
            self.lists.push(id);
        }
        if let Some(problem) = problem {
            self.unreadable.push(Unreadable { file: id, problem });
        }
    }

    /// Adds a file; it is parsed unless it could not be read at all.
    fn add(&mut self, file: TextFile, section: Section, problem: Option<Problem>) {
        let id = self.files.len();
        self.files.push(file);
        // A file read with replacement characters is still parsed; one not read is not.
        if matches!(problem, None | Some(Problem::NotUtf8 { .. })) {
            self.sections.push((id, section));
        }
        if let Some(problem) = problem {
            self.unreadable.push(Unreadable { file: id, problem });
        }
    }
}

/// A content entry the walk found: a Markdown file to read, or why it cannot be.
struct Found {
    path: PathBuf,
    section: Section,
    problem: Option<Problem>,
    /// An observation's `.jsonl` transcript, not a Markdown file.
    transcript: bool,
}

/// Walks each section's folder in sorted order, following symlinks only while they stay in
/// `content/` (see [`fence`]), and stops after `max_files` Markdown files. `.git` entries are
/// passed over.
fn walk(root: &Path, site: &Fence, max_files: usize) -> Vec<Found> {
    let mut found = Vec::new();
    let content = match site.inner(CONTENT_DIR) {
        Ok(Some(content)) => content,
        Ok(None) => return found,
        Err(problem) => {
            // Nothing under content/ is read; the section is only a placeholder.
            found.push(Found {
                path: root.join(CONTENT_DIR),
                section: Section::ALL[0],
                problem: Some(problem),
                transcript: false,
            });
            return found;
        }
    };
    let mut files = 0;
    for section in Section::ALL {
        let dir = root.join(CONTENT_DIR).join(section.dir());
        if !dir.is_dir() && !dir.is_symlink() {
            continue;
        }
        let mut entries = WalkDir::new(&dir)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter();
        while let Some(entry) = entries.next() {
            let mut push = |path: &Path, problem| {
                found.push(Found {
                    path: path.to_path_buf(),
                    section,
                    problem,
                    transcript: false,
                })
            };
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let path = e.path().unwrap_or(&dir).to_path_buf();
                    push(&path, Some(walk_problem(&e)));
                    continue;
                }
            };
            let path = entry.path();
            let refused = content.refuses(&entry);
            if refused.is_some() || is_git_entry(&entry) {
                if let Some(problem) = refused {
                    push(path, Some(problem));
                }
                if entry.file_type().is_dir() {
                    entries.skip_current_dir();
                }
                continue;
            }
            let is_markdown = path.extension().is_some_and(|e| e == "md");
            let transcript = section == Section::Observations
                && entry.depth() == 1
                && is_transcript(path)
                && !entry.file_type().is_dir();
            if entry.file_type().is_dir() || !(is_markdown || transcript) {
                continue;
            }
            if files == max_files {
                push(path, Some(Problem::TooMany { limit: max_files }));
                return found;
            }
            files += 1;
            let problem = (!entry.file_type().is_file()).then(|| Problem::NotAFile {
                kind: special_kind(&entry.file_type()),
            });
            push(path, problem);
            if let Some(last) = found.last_mut() {
                last.transcript = transcript;
            }
        }
    }
    found
}

/// Whether `path` names an observation's transcript (`<id>.jsonl`).
fn is_transcript(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jsonl")
}

/// Reads a transcript the walk found, within `limits.maxFileBytes`.
fn read_transcript(root: &Path, entry: &Found, limits: &Limits) -> Transcript {
    let bytes = match &entry.problem {
        Some(problem) => Err(problem.clone()),
        None => read_capped(&entry.path, limits.max_file_bytes),
    };
    transcript_of(relative(root, &entry.path), bytes)
}

/// A transcript from its bytes, or with why they could not be read.
fn transcript_of(path: PathBuf, bytes: std::result::Result<Vec<u8>, Problem>) -> Transcript {
    match bytes.map(String::from_utf8) {
        Ok(Ok(text)) => Transcript::new(path, text, None),
        Ok(Err(e)) => {
            let problem = Problem::NotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            };
            Transcript::new(path, String::new(), Some(problem.to_string()))
        }
        Err(problem) => Transcript::new(path, String::new(), Some(problem.to_string())),
    }
}

fn relative(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).unwrap_or(path).to_path_buf()
}

/// Reads one file as text, at most `limits.max_file_bytes` of it; a file that is not UTF-8,
/// too large or cannot be read comes back with its problem.
fn read_file(root: &Path, path: &Path, limits: &Limits) -> (TextFile, Option<Problem>) {
    let relative = relative(root, path);
    let failed = |problem| {
        (
            TextFile::new(relative.clone(), String::new()),
            Some(problem),
        )
    };
    match read_capped(path, limits.max_file_bytes) {
        Ok(bytes) => decode(relative, bytes),
        Err(problem) => failed(problem),
    }
}

/// A file's bytes as text; bytes that are not UTF-8 are replaced, and that is a problem.
fn decode(path: PathBuf, bytes: Vec<u8>) -> (TextFile, Option<Problem>) {
    match String::from_utf8(bytes) {
        Ok(text) => (TextFile::new(path, text), None),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            (TextFile::new(path, text), Some(Problem::NotUtf8 { offset }))
        }
    }
}

/// The bytes of a regular file no larger than `limit`. The size is checked on the open file,
/// and the read stops past `limit`, so a file that grows meanwhile cannot exhaust memory.
fn read_capped(path: &Path, limit: u64) -> std::result::Result<Vec<u8>, Problem> {
    let file = std::fs::File::open(path).map_err(|e| io_problem(&e))?;
    let meta = file.metadata().map_err(|e| io_problem(&e))?;
    if !meta.is_file() {
        return Err(Problem::NotAFile {
            kind: special_kind(&meta.file_type()),
        });
    }
    if meta.len() > limit {
        return Err(Problem::TooLarge {
            bytes: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_problem(&e))?;
    if bytes.len() as u64 > limit {
        return Err(Problem::TooLarge {
            bytes: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(limits: &str) -> SiteConfig {
        let text = format!(
            "title: T\nbaseUrl: https://x.io\nspecVersions: [{{id: a}}]\n\
             capabilityGroups: [{{id: g, title: G}}]\nkinds: [{{id: k}}]\nlimits: {limits}\n"
        );
        SiteConfig::parse(&text, Path::new("site.yaml")).expect("config")
    }

    fn file(path: &str, bytes: &[u8]) -> (PathBuf, Vec<u8>) {
        (PathBuf::from(path), bytes.to_vec())
    }

    #[test]
    fn files_in_memory_get_the_same_caps() {
        let files = vec![
            file("content/research/b.md", b"---\nid: b\n---\n"),
            file("content/research/a.md", &[b'x'; 200]),
            file("content/guides/c.md", b"\xff"),
            file("content/other/d.md", b""),
            file("README.md", b""),
        ];
        let site = from_memory(Path::new("."), config("{maxFileBytes: 100}"), files.clone());
        let problems: Vec<_> = site
            .unreadable
            .iter()
            .map(|u| (site.files[u.file].display_path(), u.problem.clone()))
            .collect();
        assert_eq!(
            problems,
            [
                (
                    "content/research/a.md".to_string(),
                    Problem::TooLarge {
                        bytes: 200,
                        limit: 100
                    }
                ),
                (
                    "content/guides/c.md".to_string(),
                    Problem::NotUtf8 { offset: 0 }
                ),
            ]
        );
        // The file too large is not parsed; the one with replaced bytes is.
        assert_eq!(
            site.sections,
            [(1, Section::Research), (2, Section::Guides)]
        );
        let site = from_memory(Path::new("."), config("{maxFiles: 1}"), files);
        assert_eq!(site.files.len(), 2);
        assert_eq!(site.unreadable[0].problem, Problem::TooMany { limit: 1 });
    }
}
