//! Verify: for each pinned source, does its commit exist in the repository (a short hash
//! naming exactly one commit), does its path exist at that commit, and does every line range
//! lie within the file? The answers are [`Problem`]s, reported by rules FN951–FN955
//! (`lint::rules::source_*`) through [`crate::lint::lint_sources`].
//!
//! [`resolve`] is the first half of that check, shared with drift and excerpts: the commit's
//! full hash and the file's lines at it.

use super::cache::{Cache, Repo};
use super::git::{too_large, Object};
use super::locate::Text;
use super::pin::LineRange;
use super::release::{self, Reach, Tags};
use super::{pinned, short, Holder, Pinned};
use crate::index::SiteIndex;
use crate::model::text;
use std::collections::HashMap;
use std::sync::Arc;

/// Why a pinned source does not hold, or could not be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The source could not be checked; the text says why.
    NotChecked(String),
    /// The commit names no commit of the repository; the text says what was looked at.
    CommitUnknown(String),
    /// The short hash starts the names of several commits (full hashes, sorted).
    CommitAmbiguous(Vec<String>),
    /// No such file at the commit; `folder` when the path is a folder but lines were pinned.
    PathMissing { commit: String, folder: bool },
    /// A line range past the end of the file.
    LinesOutOfRange {
        range: LineRange,
        lines: usize,
        commit: String,
    },
    /// The commit is on no branch or tag: only the head of a pull request (the ref named)
    /// leads to it, or no ref of the clone does.
    OnNoBranch {
        commit: String,
        pull: Option<String>,
    },
    /// The support cell's `version` does not name a release of the client (its
    /// `releaseTags`) that contains the commit; the text says which release does.
    VersionNotRelease(String),
}

impl Problem {
    /// The problem in a few words, as the reason a source could not be compared or read.
    pub fn reason(&self) -> String {
        match self {
            Problem::NotChecked(why) => why.clone(),
            Problem::CommitUnknown(why) => format!("unknown commit: {why}"),
            Problem::CommitAmbiguous(commits) => {
                format!("the short hash names {} commits", commits.len())
            }
            Problem::PathMissing { commit, folder } => {
                let what = if *folder { "a folder" } else { "missing" };
                format!("the path is {what} at commit {}", short(commit))
            }
            Problem::LinesOutOfRange { range, lines, .. } => {
                format!("lines {range} are past the end of the file ({lines} lines)")
            }
            Problem::OnNoBranch { commit, pull } => match pull {
                Some(pull) => format!("commit {} is only at the head of {pull}", short(commit)),
                None => format!("commit {} is on no branch or tag", short(commit)),
            },
            Problem::VersionNotRelease(why) => why.clone(),
        }
    }
}

/// A source whose commit and path were found.
#[derive(Debug)]
pub(crate) struct Resolved {
    /// The commit's full hash.
    pub commit: String,
    /// The file's text at the commit; `None` for a folder or when no path is pinned.
    pub lines: Option<Arc<Text>>,
}

/// One pinned source and what verification found wrong with it (nothing: it holds).
#[derive(Debug)]
pub struct Checked<'a> {
    pub pinned: Pinned<'a>,
    pub problems: Vec<Problem>,
    /// The commit's full hash, when it resolved.
    pub commit: Option<String>,
}

/// What `fieldnotes sources verify` found, for every pinned source of the site.
#[derive(Debug, Default)]
pub struct Verification<'a> {
    pub sources: Vec<Checked<'a>>,
}

impl<'a> Verification<'a> {
    /// Every problem, with its source.
    pub fn problems(&self) -> impl Iterator<Item = (&Pinned<'a>, &Problem)> {
        self.sources
            .iter()
            .flat_map(|c| c.problems.iter().map(move |p| (&c.pinned, p)))
    }

    /// Whether no source at all could be checked: there are some, and each is
    /// [`Problem::NotChecked`].
    pub fn nothing_checked(&self) -> bool {
        !self.sources.is_empty()
            && (self.sources.iter()).all(|c| matches!(&c.problems[..], [Problem::NotChecked(_)]))
    }

    /// How many sources hold: commit, path and lines all found.
    pub fn verified(&self) -> usize {
        self.sources
            .iter()
            .filter(|c| c.problems.is_empty())
            .count()
    }
}

/// Checks every pinned source of the site against its repository.
pub fn verify<'a>(index: &'a SiteIndex, cache: &mut Cache) -> Verification<'a> {
    verify_where(index, cache, &|_| true)
}

/// Checks the pinned sources `keep` keeps (`--changed-since`: those of the files changed).
pub fn verify_where<'a>(
    index: &'a SiteIndex,
    cache: &mut Cache,
    keep: &dyn Fn(&Pinned<'a>) -> bool,
) -> Verification<'a> {
    let pins: Vec<Pinned<'a>> = pinned(index).into_iter().filter(|p| keep(p)).collect();
    let mut tags: HashMap<String, Tags> = HashMap::new();
    let mut found: Vec<(Vec<Problem>, Option<String>)> = vec![Default::default(); pins.len()];
    for i in super::by_file(&pins) {
        found[i] = match resolve(&pins[i], cache) {
            Ok(resolved) => {
                let mut problems = out_of_range(&pins[i], &resolved);
                problems.extend(where_from(
                    index,
                    &pins[i],
                    &resolved.commit,
                    cache,
                    &mut tags,
                ));
                (problems, Some(resolved.commit))
            }
            Err(problem) => (vec![problem], None),
        };
    }
    let sources = (pins.into_iter().zip(found))
        .map(|(pinned, (problems, commit))| Checked {
            pinned,
            problems,
            commit,
        })
        .collect();
    Verification { sources }
}

/// What the refs of the repository say of a resolved commit: on no branch or tag
/// ([`Problem::OnNoBranch`]); not in the release its cell's `version` names
/// ([`Problem::VersionNotRelease`]). A repository whose refs cannot be read says nothing.
fn where_from(
    index: &SiteIndex,
    pinned: &Pinned<'_>,
    commit: &str,
    cache: &mut Cache,
    tags: &mut HashMap<String, Tags>,
) -> Vec<Problem> {
    let Some(url) = pinned.repository.as_deref() else {
        return Vec::new();
    };
    let Ok(repo) = cache.repo(url) else {
        return Vec::new();
    };
    let tags = tags.entry(url.to_string()).or_default();
    let mut problems = Vec::new();
    let mut reach = tags.reach(repo, commit);
    // A cached clone's branches may be older than the remote's: before saying a commit is on
    // no branch, bring them up to date (once per run).
    if matches!(reach, Ok(Reach::PullRequest(_) | Reach::Nowhere)) && repo.update() {
        *tags = Tags::default();
        reach = tags.reach(repo, commit);
    }
    match reach {
        Ok(Reach::PullRequest(pull)) => problems.push(Problem::OnNoBranch {
            commit: commit.to_string(),
            pull: Some(pull),
        }),
        Ok(Reach::Nowhere) => problems.push(Problem::OnNoBranch {
            commit: commit.to_string(),
            pull: None,
        }),
        Ok(Reach::Branch) | Err(_) => {}
    }
    if let Some((_, cell, pattern)) = release::client_pin(index, pinned) {
        let version = text(&cell.version);
        let observed = match pinned.holder {
            Holder::Cell { client, cell } => release::observed_version(index, client, cell),
            _ => false,
        };
        if !version.is_empty() && !observed {
            if let Ok(Some(why)) = release::version_problem(tags, repo, pattern, version, commit) {
                problems.push(Problem::VersionNotRelease(why));
            }
        }
    }
    problems
}

/// The ranges of `pinned` that run past the end of the file.
pub(crate) fn out_of_range(pinned: &Pinned<'_>, resolved: &Resolved) -> Vec<Problem> {
    let Some(lines) = &resolved.lines else {
        return Vec::new();
    };
    pinned
        .ranges
        .iter()
        .filter(|r| r.end() > lines.len())
        .map(|&range| Problem::LinesOutOfRange {
            range,
            lines: lines.len(),
            commit: resolved.commit.clone(),
        })
        .collect()
}

/// Finds the source's commit and file in its repository (fetching when the commit is not in
/// the cache yet).
pub(crate) fn resolve(pinned: &Pinned<'_>, cache: &mut Cache) -> Result<Resolved, Problem> {
    let url = checkable(pinned)?;
    let repo = cache.repo(url).map_err(Problem::NotChecked)?;
    resolve_in(pinned, repo)
}

/// The repository of a source that can be checked, or why it cannot be.
pub(crate) fn checkable<'p>(pinned: &'p Pinned<'_>) -> Result<&'p str, Problem> {
    let commit = pinned.commit.value.as_str();
    let Some(url) = &pinned.repository else {
        return Err(Problem::NotChecked(
            "its `url` is not the http(s) URL of a repository".to_string(),
        ));
    };
    if !((7..=40).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit())) {
        return Err(Problem::NotChecked(format!(
            "commit `{commit}` is not 7 to 40 hex digits (see FN402)"
        )));
    }
    if let Some(error) = pinned.path_error {
        return Err(Problem::NotChecked(format!(
            "path `{}`: {} (see FN403)",
            pinned.path(),
            error.problem
        )));
    }
    Ok(url)
}

/// [`resolve`] in the source's repository, `repo`.
pub(crate) fn resolve_in(pinned: &Pinned<'_>, repo: &mut Repo) -> Result<Resolved, Problem> {
    checkable(pinned)?;
    let commit = pinned.commit.value.to_ascii_lowercase();
    let commit = resolve_commit(repo, &commit)?;
    if pinned.file.is_empty() {
        return Ok(Resolved {
            commit,
            lines: None,
        });
    }
    let at = format!("{commit}:{}", pinned.file.trim_start_matches('/'));
    let shown = || format!("`{}` at commit {}", pinned.file, short(&commit));
    // A file many sources cite is read once ([`super::texts`]).
    let read = match repo.texts.get(&at) {
        Some(read) => read,
        None => match repo.object(&at).map_err(Problem::NotChecked)? {
            Object::Found { kind, data, .. } if kind == "blob" => repo.texts.read(&at, &data),
            object => return not_a_text(pinned, commit, object),
        },
    };
    match read {
        Ok(text) => Ok(Resolved {
            lines: Some(text),
            commit,
        }),
        Err(why) => Err(Problem::NotChecked(format!("{}: {why}", shown()))),
    }
}

/// What [`resolve_in`] makes of an object at the pinned path that is not a file's text.
fn not_a_text(pinned: &Pinned<'_>, commit: String, object: Object) -> Result<Resolved, Problem> {
    let shown = || format!("`{}` at commit {}", pinned.file, short(&commit));
    match object {
        Object::TooLarge { kind, size, .. } if kind == "blob" => {
            Err(Problem::NotChecked(too_large(&shown(), size)))
        }
        Object::Found { kind, .. } | Object::TooLarge { kind, .. }
            if kind == "tree" && pinned.ranges.is_empty() =>
        {
            Ok(Resolved {
                commit,
                lines: None,
            })
        }
        Object::Found { kind, .. } | Object::TooLarge { kind, .. } => Err(Problem::PathMissing {
            commit,
            folder: kind == "tree",
        }),
        Object::NotFetched => Err(Problem::NotChecked(format!(
            "the content of `{}` at commit {} is not in the partial clone, which may not be \
             fetched now",
            pinned.file,
            short(&commit)
        ))),
        Object::Missing | Object::Ambiguous => Err(Problem::PathMissing {
            commit,
            folder: false,
        }),
    }
}

/// The full hash of the one commit `hash` (7–40 lower-case hex digits) names.
fn resolve_commit(repo: &mut Repo, hash: &str) -> Result<String, Problem> {
    let mut fetched_commit = false;
    loop {
        match repo.object(hash).map_err(Problem::NotChecked)? {
            Object::Found { oid, kind, .. } | Object::TooLarge { oid, kind, .. }
                if kind == "commit" =>
            {
                return Ok(oid)
            }
            Object::Found { kind, .. } | Object::TooLarge { kind, .. } => {
                return Err(Problem::CommitUnknown(format!(
                    "`{hash}` names a {kind}, not a commit"
                )))
            }
            Object::Ambiguous => return disambiguate(repo, hash),
            // Not in the cache: fetch branches and tags once; then (a full hash only) the
            // commit itself, which may be on no branch; then the heads of pull requests
            // (`refs/pull/*`), where a short hash of a commit on no branch is found.
            Object::Missing if repo.update() => continue,
            Object::Missing if hash.len() == 40 && !fetched_commit => {
                fetched_commit = true;
                if repo.fetch_commit(hash) || repo.fetch_pulls() {
                    continue;
                }
            }
            Object::Missing if repo.fetch_pulls() => continue,
            Object::Missing | Object::NotFetched => {}
        }
        if repo.offline() {
            // A mistyped hash and a commit newer than the cache look alike here; neither can
            // pass, or an offline run in CI would pass a pin nobody can open.
            return Err(Problem::CommitUnknown(format!(
                "no commit of the cached clone starts `{hash}`, and --offline kept fieldnotes \
                 from fetching it: check the commit (a digit off?), or fetch it by running \
                 `sources verify` without --offline"
            )));
        }
        return Err(match repo.staleness() {
            Some(why) => Problem::NotChecked(format!(
                "commit `{hash}` is not in the cache, which may be out of date: {why}"
            )),
            None => Problem::CommitUnknown(format!("no commit of the repository starts `{hash}`")),
        });
    }
}

/// A short hash that starts several objects' names: the one commit among them, or the problem.
fn disambiguate(repo: &mut Repo, hash: &str) -> Result<String, Problem> {
    let mut commits = Vec::new();
    for candidate in repo
        .objects_starting_with(hash)
        .map_err(Problem::NotChecked)?
    {
        let object = repo.object(&candidate).map_err(Problem::NotChecked)?;
        if let Some((_, kind)) = object.identity() {
            if kind == "commit" {
                commits.push(candidate);
            }
        }
    }
    match commits.len() {
        1 => Ok(commits.remove(0)),
        0 => Err(Problem::CommitUnknown(format!(
            "`{hash}` starts the names of several objects, none of them a commit"
        ))),
        _ => Err(Problem::CommitAmbiguous(commits)),
    }
}
