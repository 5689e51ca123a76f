//! The base side: the site as the base commit holds it, read from git's objects (never
//! checked out, so nothing in it is a file git or fieldnotes could run or follow) within
//! bounds: every folder listing and file size is asked before its content is read, files
//! past `limits.maxFileBytes` (the smaller of the two sides' values, and never past the
//! 16 MiB git's reader takes) are not read, symlinks are not followed, and the walk stops
//! after `limits.maxFiles` content files or a budget of folder entries. What is left out is
//! an [`Unread`] entry, reported beside the diff.

use super::model::Unread;
use super::tree::{self, Entry, Kind};
use crate::config::{Limits, SiteConfig, CONFIG_FILE};
use crate::error::{Error, Result};
use crate::load::{self, LoadedSite, CONTENT_DIR};
use crate::provenance::git::{too_large, Git, Object, Objects, MAX_OBJECT_BYTES};
use crate::provenance::worktree::WorkTree;
use crate::text_file::Section;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// The base revision's site, loaded as the load step loads the work tree's.
pub(crate) struct BaseSite {
    pub loaded: LoadedSite,
    /// What was not read, and why.
    pub unread: Vec<Unread>,
}

/// Reads the site at `site` (a folder of the work tree `tree`) as `commit` holds it. `head`
/// is the work tree's `site.yaml` limits: the base is read within the smaller of each.
pub(crate) fn read(tree: &WorkTree, site: &Path, commit: &str, head: &Limits) -> Result<BaseSite> {
    let short = crate::provenance::short(commit).to_string();
    let fail = |why: String| Error::Usage {
        message: format!("--base {short}: {why}"),
    };
    let Opened {
        mut reader,
        entries,
        config: text,
    } = open(tree, site, commit, &fail)?;
    let config = Reader::config(&text.text, &text.shown, head)?;
    let mut files = Vec::new();
    if let Some(content) = find(&entries, CONTENT_DIR, Kind::Folder) {
        let wanted = reader.walk(&content.oid, &config.limits).map_err(&fail)?;
        files = reader
            .contents(wanted, config.limits.max_file_bytes)
            .map_err(&fail)?;
    }
    let loaded = load::from_memory(site, config, files);
    reader.unread.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(BaseSite {
        loaded,
        unread: reader.unread,
    })
}

/// `site.yaml` as a commit holds it: its text, and its name in errors (`abc1234:site.yaml`).
pub(crate) struct ConfigText {
    pub text: String,
    pub shown: String,
}

/// The `site.yaml` of the site at `site` (a folder of the work tree `tree`) as `commit`
/// holds it, read from git's objects within the same bounds as the rest of the base.
pub(crate) fn config_at(tree: &WorkTree, site: &Path, commit: &str) -> Result<ConfigText> {
    let short = crate::provenance::short(commit).to_string();
    let fail = |why: String| Error::Usage {
        message: format!("{short}: {why}"),
    };
    Ok(open(tree, site, commit, &fail)?.config)
}

/// The base opened: its object reader, the site folder's entries and its `site.yaml`.
struct Opened {
    reader: Reader,
    entries: Vec<Entry>,
    config: ConfigText,
}

/// Opens the site at `site` (a folder of `tree`) as `commit` holds it; `fail` makes an error
/// of what went wrong.
fn open(
    tree: &WorkTree,
    site: &Path,
    commit: &str,
    fail: &impl Fn(String) -> Error,
) -> Result<Opened> {
    let git = || Git::in_work_tree(tree, site).no_lazy_fetch();
    let mut reader = Reader {
        objects: Objects::start(git).map_err(fail)?,
        unread: Vec::new(),
    };
    let prefix = site_prefix(tree, site).map_err(fail)?;
    let site_tree = reader.site_tree(commit, &prefix).map_err(fail)?;
    let shown = format!(
        "{}:{}",
        crate::provenance::short(commit),
        Path::new(&prefix).join(CONFIG_FILE).display()
    );
    let entries = reader.list(&site_tree).map_err(fail)?;
    let text = reader.config_text(&entries, &shown).map_err(fail)?;
    Ok(Opened {
        reader,
        entries,
        config: ConfigText { text, shown },
    })
}

/// The site folder's path in the repository (`/`-separated; empty at the top).
fn site_prefix(tree: &WorkTree, site: &Path) -> std::result::Result<String, String> {
    let relative = site.strip_prefix(&tree.top).map_err(|_| {
        format!(
            "{} is not inside the work tree {}",
            site.display(),
            tree.top.display()
        )
    })?;
    let parts: Option<Vec<&str>> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    parts
        .map(|p| p.join("/"))
        .ok_or_else(|| "the site folder's path is not UTF-8".to_string())
}

/// The entry `name` of kind `kind` in `entries`.
fn find<'a>(entries: &'a [Entry], name: &str, kind: Kind) -> Option<&'a Entry> {
    entries.iter().find(|e| e.name == name && e.kind == kind)
}

/// A content file to read: its site path and blob.
struct Wanted {
    path: PathBuf,
    oid: String,
}

/// The object reader, and what it left out.
struct Reader {
    objects: Objects,
    unread: Vec<Unread>,
}

impl Reader {
    /// One object, read when within `limit`.
    fn object(&mut self, oid: &str, limit: u64) -> std::result::Result<Object, String> {
        let mut found = self.objects.get_many_within(&[oid], limit)?;
        Ok(found.pop().unwrap_or(Object::Missing))
    }

    /// The entries of the tree `oid`.
    fn list(&mut self, oid: &str) -> std::result::Result<Vec<Entry>, String> {
        match self.object(oid, MAX_OBJECT_BYTES)? {
            Object::Found { kind, data, oid } if kind == "tree" => {
                tree::entries(&data, oid.len() / 2)
            }
            Object::TooLarge { size, .. } => Err(too_large("a folder listing", size)),
            _ => Err(format!("the folder object {oid} is not in this clone")),
        }
    }

    /// The tree of the folder `prefix` at `commit`.
    fn site_tree(&mut self, commit: &str, prefix: &str) -> std::result::Result<String, String> {
        let data = match self.object(commit, MAX_OBJECT_BYTES)? {
            Object::Found { kind, data, .. } if kind == "commit" => data,
            _ => return Err("the commit is not in this clone; fetch it".to_string()),
        };
        let text = String::from_utf8_lossy(&data);
        let mut oid = (text.lines().next())
            .and_then(|line| line.strip_prefix("tree "))
            .map(str::to_string)
            .ok_or("the commit names no tree")?;
        for part in prefix.split('/').filter(|p| !p.is_empty()) {
            let entries = self.list(&oid)?;
            oid = find(&entries, part, Kind::Folder)
                .map(|e| e.oid.clone())
                .ok_or_else(|| {
                    format!(
                        "the site folder `{prefix}` does not exist at this commit; give a \
                         --base where it does"
                    )
                })?;
        }
        Ok(oid)
    }

    /// The text of the base's `site.yaml`, among the site folder's `entries`.
    fn config_text(
        &mut self,
        entries: &[Entry],
        shown: &str,
    ) -> std::result::Result<String, String> {
        let Some(entry) = entries.iter().find(|e| e.name == CONFIG_FILE) else {
            return Err(format!(
                "{shown} does not exist: the site is not there at this commit; give a revision \
                 where it is"
            ));
        };
        if entry.kind != Kind::File {
            return Err(format!(
                "{shown} is not a file (a symlink or a folder); fieldnotes reads the settings \
                 only from a site.yaml file"
            ));
        }
        let data = match self.object(&entry.oid, MAX_OBJECT_BYTES)? {
            Object::Found { data, .. } => data,
            Object::TooLarge { size, .. } => return Err(too_large(shown, size)),
            _ => return Err(format!("{shown} is not in this clone; fetch the commit")),
        };
        String::from_utf8(data).map_err(|_| format!("{shown} is not UTF-8 text"))
    }

    /// The base's `site.yaml`, its limits each the smaller of its own and `head`'s.
    fn config(text: &str, shown: &str, head: &Limits) -> Result<SiteConfig> {
        SiteConfig::parse(text, Path::new(shown)).map(|mut config| {
            let limits = &mut config.limits;
            limits.max_files = limits.max_files.min(head.max_files);
            limits.max_file_bytes = limits.max_file_bytes.min(head.max_file_bytes);
            limits.max_front_matter_bytes =
                (limits.max_front_matter_bytes).min(head.max_front_matter_bytes);
            config
        })
    }

    /// The content files under the tree `content` that the load step reads: each section's
    /// Markdown files at any depth, and the observations' `.jsonl` transcripts; at most
    /// `limits.maxFiles` of them, and at most a budget of folder entries looked at.
    fn walk(&mut self, content: &str, limits: &Limits) -> std::result::Result<Vec<Wanted>, String> {
        let top = self.list(content)?;
        let mut queue: VecDeque<(PathBuf, String, usize)> = VecDeque::new();
        for section in Section::ALL {
            if let Some(entry) = find(&top, section.dir(), Kind::Folder) {
                let path = Path::new(CONTENT_DIR).join(section.dir());
                queue.push_back((path, entry.oid.clone(), 0));
            }
        }
        let mut budget = limits.max_files.saturating_mul(2).saturating_add(10_000);
        let mut wanted = Vec::new();
        while let Some((folder, oid, depth)) = queue.pop_front() {
            let entries = self.list(&oid)?;
            if entries.len() > budget {
                self.left_out(
                    &folder,
                    format!(
                        "the base's content folders hold more entries than fieldnotes looks \
                         at ({} with limits.maxFiles {}); this folder and the rest were not \
                         read",
                        limits.max_files.saturating_mul(2).saturating_add(10_000),
                        limits.max_files
                    ),
                );
                break;
            }
            budget -= entries.len();
            let observations = folder == Path::new(CONTENT_DIR).join(Section::Observations.dir());
            for entry in entries {
                let path = folder.join(&entry.name);
                let markdown = entry.name.ends_with(".md");
                let transcript = observations && depth == 0 && entry.name.ends_with(".jsonl");
                match entry.kind {
                    _ if entry.name == ".git" => {}
                    Kind::Folder => queue.push_back((path, entry.oid, depth + 1)),
                    Kind::File | Kind::Symlink if !(markdown || transcript) => {}
                    _ if wanted.len() == limits.max_files => {
                        self.left_out(
                            &path,
                            format!(
                                "the base has more than {} content files (limits.maxFiles); \
                                 this one and the rest were not read",
                                limits.max_files
                            ),
                        );
                        return Ok(wanted);
                    }
                    Kind::Symlink => self.left_out(
                        &path,
                        "it is a symlink in the base commit; fieldnotes does not follow \
                         symlinks there"
                            .to_string(),
                    ),
                    Kind::File => wanted.push(Wanted {
                        path,
                        oid: entry.oid,
                    }),
                    Kind::Other => {}
                }
            }
        }
        Ok(wanted)
    }

    /// The bytes of each wanted file within `limit`; the others left out with why.
    fn contents(
        &mut self,
        wanted: Vec<Wanted>,
        limit: u64,
    ) -> std::result::Result<Vec<(PathBuf, Vec<u8>)>, String> {
        let oids: Vec<&str> = wanted.iter().map(|w| w.oid.as_str()).collect();
        let objects = self.objects.get_many_within(&oids, limit)?;
        let mut files = Vec::with_capacity(wanted.len());
        for (file, object) in wanted.into_iter().zip(objects) {
            match object {
                Object::Found { data, .. } => files.push((file.path, data)),
                Object::TooLarge { size, .. } => {
                    let why = format!(
                        "it has {size} bytes, more than the {limit} fieldnotes reads of a base \
                         file (limits.maxFileBytes, at most {} MiB)",
                        MAX_OBJECT_BYTES >> 20
                    );
                    self.left_out(&file.path, why);
                }
                _ => self.left_out(
                    &file.path,
                    "its content is not in this clone (a partial clone?); fetch it".to_string(),
                ),
            }
        }
        Ok(files)
    }

    fn left_out(&mut self, path: &Path, reason: String) {
        self.unread.push(Unread {
            path: crate::text_file::display_path(path),
            reason,
        });
    }
}
