//! Releases: which tags of a client's repository are its releases (the client's
//! `releaseTags`, a pattern whose one `*` stands for the version: `v*`, `v*-vscode`), the
//! release a pinned commit is first in (a support cell's `version`), the newest release a pin
//! can move to, and whether a commit is on a branch or tag at all or only at the head of a
//! pull request.
//!
//! A release is a tag the pattern matches whose version starts with a digit and has no
//! pre-release part (`0.56.0`, not `0.56.0-nightly.20260822` or `0.57.0-preview.0`): a cell
//! names what users install.

use super::cache::Repo;
use super::Pinned;
use crate::index::observations::compare_versions;
use crate::index::SiteIndex;
use crate::model::{text, Client, SupportCell};
use std::collections::{BTreeSet, HashMap};

/// One release: its tag, the version the tag names, and the commit it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    pub tag: String,
    pub version: String,
    pub commit: String,
}

/// The version `tag` names under `pattern` (`v*` reads `v1.2.3` as `1.2.3`), if it names one.
pub fn version_of<'t>(pattern: &str, tag: &'t str) -> Option<&'t str> {
    let (before, after) = pattern.split_once('*')?;
    let version = tag.strip_prefix(before)?.strip_suffix(after)?;
    (!version.is_empty()).then_some(version)
}

/// The tag that names `version` under `pattern`.
pub fn tag_of(pattern: &str, version: &str) -> String {
    pattern.replacen('*', version, 1)
}

/// Whether `version` is a release: it starts with a digit and has no pre-release part.
pub fn is_release(version: &str) -> bool {
    version.starts_with(|c: char| c.is_ascii_digit())
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.')
}

/// Why a `releaseTags` pattern cannot be read, if it cannot: it needs exactly one `*`.
pub fn pattern_problem(pattern: &str) -> Option<String> {
    match pattern.matches('*').count() {
        1 => None,
        n => Some(format!(
            "`releaseTags: {pattern}` has {n} `*`; write one, where the version stands (`v*`)"
        )),
    }
}

/// The client's release-tag pattern, if it has a readable one.
pub fn pattern(client: &Client) -> Option<&str> {
    let pattern = text(&client.release_tags);
    (!pattern.is_empty() && pattern_problem(pattern).is_none()).then_some(pattern)
}

/// The client whose support cell holds `pinned`, with the cell, when the source points into
/// that client's own `repository` and the client names its `releaseTags`.
pub fn client_pin<'i>(
    index: &'i SiteIndex,
    pinned: &Pinned<'_>,
) -> Option<(&'i Client, &'i SupportCell, &'i str)> {
    let (client, cell) = own_pin(index, pinned)?;
    pattern(client).map(|p| (client, cell, p))
}

/// The client whose support cell holds `pinned`, with the cell, when the source points into
/// that client's own `repository` (whether or not it names its `releaseTags`).
pub fn own_pin<'i>(
    index: &'i SiteIndex,
    pinned: &Pinned<'_>,
) -> Option<(&'i Client, &'i SupportCell)> {
    let super::Holder::Cell { client, cell } = pinned.holder else {
        return None;
    };
    let client = &index.content.clients[client];
    let own = super::pin::repository_url(text(&client.repository))?;
    (pinned.repository.as_deref() == Some(own.as_str())).then(|| (client, &client.support[cell]))
}

/// Whether the `version` of cell `cell` of client `client` is the version one of the
/// client's own observations it cites ran (its package's or its `clientInfo`'s): the claim is
/// as of that session, and its code sources say how, whichever commit they pin. Such a version
/// is neither checked against the pins nor rewritten from them.
pub fn observed_version(index: &SiteIndex, client: usize, cell: usize) -> bool {
    let cell = &index.content.clients[client].support[cell];
    let version = text(&cell.version);
    !version.is_empty()
        && (cell.observations.iter())
            .filter_map(|o| index.ids.observation(&o.value))
            .filter(|&o| index.observations.client[o] == Some(client))
            .map(|o| &index.content.observations[o])
            .any(|o| {
                o.package_version() == Some(version) || o.client_info_version() == Some(version)
            })
}

/// What one repository's tags and refs say about commits, each asked of git once per run.
#[derive(Debug, Default)]
pub struct Tags {
    releases: HashMap<String, Vec<Release>>,
    containing: HashMap<String, BTreeSet<String>>,
    reach: HashMap<String, Reach>,
}

/// Where a commit can be reached from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// From a branch or tag.
    Branch,
    /// Only from the head of a pull request: the first such ref.
    PullRequest(String),
    /// From no ref the clone has (fetched by its hash alone).
    Nowhere,
}

impl Tags {
    /// The releases `pattern` names, oldest version first.
    pub fn releases(&mut self, repo: &mut Repo, pattern: &str) -> Result<&[Release], String> {
        if !self.releases.contains_key(pattern) {
            let out = (repo.git())
                .args([
                    "for-each-ref",
                    "--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)",
                    "refs/tags",
                ])
                .run(None)?;
            let mut releases: Vec<Release> = String::from_utf8_lossy(&out)
                .lines()
                .filter_map(|line| {
                    let mut fields = line.split('\0');
                    let (tag, object, peeled) = (fields.next()?, fields.next()?, fields.next()?);
                    let version = version_of(pattern, tag).filter(|v| is_release(v))?;
                    Some(Release {
                        tag: tag.to_string(),
                        version: version.to_string(),
                        commit: if peeled.is_empty() { object } else { peeled }.to_string(),
                    })
                })
                .collect();
            releases.sort_by(|a, b| compare_versions(&a.version, &b.version));
            self.releases.insert(pattern.to_string(), releases);
        }
        Ok(&self.releases[pattern])
    }

    /// The names of the tags that contain `commit` (a full hash).
    pub fn containing(
        &mut self,
        repo: &mut Repo,
        commit: &str,
    ) -> Result<&BTreeSet<String>, String> {
        if !self.containing.contains_key(commit) {
            let out = (repo.git())
                .args(["for-each-ref", "--format=%(refname:strip=2)"])
                .option("--contains", commit)
                .args(["refs/tags"])
                .run(None)?;
            let tags = String::from_utf8_lossy(&out)
                .lines()
                .map(str::to_string)
                .collect();
            self.containing.insert(commit.to_string(), tags);
        }
        Ok(&self.containing[commit])
    }

    /// The first release under `pattern` that contains every one of `commits` (full hashes).
    pub fn first_release(
        &mut self,
        repo: &mut Repo,
        pattern: &str,
        commits: &[&str],
    ) -> Result<Option<Release>, String> {
        let mut sets = Vec::new();
        for commit in commits {
            sets.push(self.containing(repo, commit)?.clone());
        }
        let releases = self.releases(repo, pattern)?;
        Ok((releases.iter())
            .find(|r| sets.iter().all(|tags| tags.contains(&r.tag)))
            .cloned())
    }

    /// Where `commit` (a full hash) can be reached from.
    pub fn reach(&mut self, repo: &mut Repo, commit: &str) -> Result<Reach, String> {
        if let Some(reach) = self.reach.get(commit) {
            return Ok(reach.clone());
        }
        let reach = match first_ref(repo, commit, ["refs/heads", "refs/tags", "refs/remotes"])? {
            Some(_) => Reach::Branch,
            None => match first_ref(repo, commit, ["refs/pull", "refs/merge-requests"])? {
                Some(pull) => Reach::PullRequest(pull),
                None => Reach::Nowhere,
            },
        };
        self.reach.insert(commit.to_string(), reach.clone());
        Ok(reach)
    }
}

/// The first ref under `refs` (folders of refs) that contains `commit`.
fn first_ref<const N: usize>(
    repo: &mut Repo,
    commit: &str,
    refs: [&'static str; N],
) -> Result<Option<String>, String> {
    let out = (repo.git())
        .args(["for-each-ref", "--count=1", "--format=%(refname)"])
        .option("--contains", commit)
        .args(refs)
        .run(None)?;
    let name = String::from_utf8_lossy(&out).trim().to_string();
    Ok((!name.is_empty()).then_some(name))
}

/// Why a cell's `version` does not name a release containing `commit`, if it does not.
pub fn version_problem(
    tags: &mut Tags,
    repo: &mut Repo,
    pattern: &str,
    version: &str,
    commit: &str,
) -> Result<Option<String>, String> {
    let tag = tag_of(pattern, version);
    let exists = (tags.releases(repo, pattern)?.iter()).any(|r| r.tag == tag);
    if exists && tags.containing(repo, commit)?.contains(&tag) {
        return Ok(None);
    }
    let first = tags.first_release(repo, pattern, &[commit])?;
    let first = match first {
        Some(r) => format!(
            "the first release that does is {} (`version: \"{}\"`)",
            r.tag, r.version
        ),
        None => "no release the clone has contains it yet".to_string(),
    };
    let what = match exists {
        true => format!(
            "release {tag} does not contain commit {}",
            super::short(commit)
        ),
        false => format!("there is no release tag {tag} (`releaseTags: {pattern}`)"),
    };
    Ok(Some(format!("{what}; {first}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_reads_the_version_out_of_a_tag() {
        assert_eq!(version_of("v*", "v0.61.0"), Some("0.61.0"));
        assert_eq!(version_of("v*-vscode", "v1.2.22-vscode"), Some("1.2.22"));
        assert_eq!(version_of("v*-vscode", "v1.0.67-jetbrains"), None);
        assert_eq!(version_of("v*", "cli-v3.0.56"), None);
        assert_eq!(version_of("v*", "v"), None);
        assert_eq!(tag_of("v*-vscode", "1.2.22"), "v1.2.22-vscode");
        assert!(is_release("0.56.0") && !is_release("0.56.0-nightly.20260822.g5411f113c"));
        assert!(!is_release("0.57.0-preview.0") && !is_release("latest"));
        assert!(pattern_problem("v*").is_none() && pattern_problem("v").is_some());
        assert!(pattern_problem("*-*").is_some());
    }
}
