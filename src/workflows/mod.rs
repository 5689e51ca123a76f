//! `fieldnotes workflows`: the files that let readers report support to a site hosted on
//! GitHub, written for that site: the "Report support" issue form (in the site's words, with
//! its clients and capabilities), the `submit` workflow that turns a report into a pull
//! request, the script that workflow quotes its results with, and a `lint` workflow for pull
//! requests. Both workflows run the released fieldnotes binary, checked against the release's
//! `SHA256SUMS`, never a build from source, so they work in any repository.
//!
//! - [`form`]: the issue form, its questions those [`crate::submit::form::QUESTIONS`] reads.
//! - [`jobs`]: the two workflows and the install step they share.

mod form;
mod jobs;

pub use form::LABEL;

use crate::beneath::{Mode, Root};
use crate::error::{Error, Result};
use crate::index::SiteIndex;
use crate::model::doc_id;
use std::path::{Path, PathBuf};

/// Where fieldnotes releases are published (`.github/workflows/release.yml` attaches the
/// binaries and `SHA256SUMS` to each `v<version>` tag's release there).
pub const RELEASES: &str = "fieldnotes-dev/fieldnotes";

/// What the written files say beyond the site itself.
#[derive(Debug, Clone)]
pub struct Options {
    /// The release the workflows install, without its `v` (`0.1.0`).
    pub version: String,
    /// The GitHub repository (`owner/name`) whose releases hold that version.
    pub releases: String,
    /// The site's folder within its git repository, `/`-separated (`.` at the top).
    pub site_path: String,
}

/// One file to write: its path below the repository's top, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub path: &'static str,
    pub text: String,
}

/// The paths written, relative to the repository's top.
pub const FORM: &str = ".github/ISSUE_TEMPLATE/report-support.yml";
pub const SUBMIT: &str = ".github/workflows/submit.yml";
pub const LINT: &str = ".github/workflows/lint.yml";
pub const REVIEW_TEXT: &str = ".github/scripts/review-text.sh";

/// The words of a site the form uses: its title, and its clients' and capabilities' ids and
/// titles in the site's order.
#[derive(Debug, Clone, Default)]
pub struct SiteWords {
    pub title: String,
    /// What the site calls a client, a capability, … (the form's headings and texts).
    pub vocabulary: crate::config::Vocabulary,
    pub clients: Vec<(String, String)>,
    pub capabilities: Vec<(String, String)>,
}

impl SiteWords {
    /// The words of the indexed site.
    pub fn of(index: &SiteIndex) -> SiteWords {
        let title = |t: &Option<crate::model::Spanned<String>>, id: &str| {
            t.as_ref()
                .map(|t| t.value.trim())
                .filter(|t| !t.is_empty())
                .unwrap_or(id)
                .to_string()
        };
        let clients = (index.content.clients.iter())
            .map(|c| {
                let id = doc_id(&c.id, &c.doc).to_string();
                (id.clone(), title(&c.title, &id))
            })
            .collect();
        let capabilities = (index.content.capabilities.iter())
            .map(|c| {
                let id = doc_id(&c.id, &c.doc).to_string();
                (id.clone(), title(&c.title, &id))
            })
            .collect();
        SiteWords {
            title: index.config.title.clone(),
            vocabulary: index.config.vocabulary.clone(),
            clients,
            capabilities,
        }
    }
}

/// Every file, for the site whose words are `words`.
pub fn files(words: &SiteWords, options: &Options) -> std::result::Result<Vec<File>, String> {
    Ok(vec![
        File {
            path: FORM,
            text: form::issue_form(words)?,
        },
        File {
            path: SUBMIT,
            text: jobs::submit(options)?,
        },
        File {
            path: LINT,
            text: jobs::lint(options)?,
        },
        File {
            path: REVIEW_TEXT,
            text: REVIEW_TEXT_SCRIPT.to_string(),
        },
    ])
}

/// The script the `submit` workflow quotes fieldnotes' output with: the one this repository's
/// own workflow runs, so both keep GitHub's limits the same way.
const REVIEW_TEXT_SCRIPT: &str = include_str!("../../.github/scripts/review-text.sh");

/// Writes `files` beneath `out` (no symlink followed). Without `force`, a file already there
/// refuses the whole write, before anything is written; with it, each is replaced whole.
pub fn write(out: &Path, files: &[File], force: bool) -> Result<Vec<PathBuf>> {
    if !force {
        let there: Vec<String> = (files.iter())
            .filter(|f| std::fs::symlink_metadata(out.join(f.path)).is_ok())
            .map(|f| out.join(f.path).display().to_string())
            .collect();
        if !there.is_empty() {
            return Err(Error::Usage {
                message: format!(
                    "{} already there: nothing was written; pass --force to replace {}, or \
                     --out DIR to write elsewhere",
                    there.join(", "),
                    if there.len() == 1 { "it" } else { "them" }
                ),
            });
        }
    }
    let root = Root::create(out)?;
    let mut written = Vec::new();
    for file in files {
        let rel = Path::new(file.path);
        match force {
            true => root.replace(rel, file.text.as_bytes())?,
            false => root.write(rel, file.text.as_bytes(), Mode::New)?,
        }
        written.push(out.join(rel));
    }
    Ok(written)
}

/// The site's folder relative to the top of the git repository that holds it (`.` when the
/// site is the top, or no repository holds it), `/`-separated.
pub fn site_path(site: &Path, top: &Path) -> std::result::Result<String, String> {
    let relative = site.strip_prefix(top).map_err(|_| {
        format!(
            "the site {} is not inside {}: pass --site-path, the site's folder within the \
             repository",
            site.display(),
            top.display()
        )
    })?;
    let parts: Vec<String> = (relative.components())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let path = match parts.is_empty() {
        true => ".".to_string(),
        false => parts.join("/"),
    };
    check_site_path(&path)?;
    Ok(path)
}

/// Refuses a site path the workflows could not quote safely: it is written into YAML and
/// compared in shell, so only plain names are taken.
pub fn check_site_path(path: &str) -> std::result::Result<(), String> {
    let plain = |part: &str| {
        !part.is_empty()
            && part != ".."
            && !part.starts_with('-')
            && (part.bytes()).all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    match path == "." || path.split('/').all(plain) {
        true => Ok(()),
        false => Err(format!(
            "the site path `{}` is not a plain relative folder (letters, digits, `.`, `_`, `-`, \
             separated by `/`)",
            crate::terminal::escape(path)
        )),
    }
}

/// Refuses a version or repository name the workflows could not hold as plain text.
pub fn check_options(options: &Options) -> std::result::Result<(), String> {
    let version_ok = (options.version.split(['.', '-', '+']))
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && options.version.starts_with(|c: char| c.is_ascii_digit());
    if !version_ok {
        return Err(format!(
            "`{}` is not a release version such as 1.2.3",
            crate::terminal::escape(&options.version)
        ));
    }
    let repo_ok = options.releases.split('/').count() == 2
        && (options.releases.split('/')).all(|p| {
            !p.is_empty()
                && !p.starts_with(['.', '-'])
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        });
    if !repo_ok {
        return Err(format!(
            "`{}` is not a GitHub repository written owner/name",
            crate::terminal::escape(&options.releases)
        ));
    }
    check_site_path(&options.site_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_path_is_relative_to_the_repository_and_plain() {
        let top = Path::new("/r");
        assert_eq!(site_path(Path::new("/r"), top), Ok(".".to_string()));
        assert_eq!(
            site_path(Path::new("/r/examples/site"), top),
            Ok("examples/site".to_string())
        );
        assert!(site_path(Path::new("/elsewhere"), top).is_err());
        assert!(site_path(Path::new("/r/a b"), top).is_err());
        assert!(check_site_path("../x").is_err());
        assert!(check_site_path("x/$(id)").is_err());
    }

    #[test]
    fn options_that_would_not_stay_text_are_refused() {
        let good = Options {
            version: "0.1.0".into(),
            releases: RELEASES.into(),
            site_path: ".".into(),
        };
        assert_eq!(check_options(&good), Ok(()));
        for (version, releases) in [
            ("v1.0.0", RELEASES),
            ("1.0.0\"; curl x", RELEASES),
            ("1.0.0", "owner"),
            ("1.0.0", "owner/name/x"),
            ("1.0.0", "o/${{ x }}"),
        ] {
            let bad = Options {
                version: version.into(),
                releases: releases.into(),
                ..good.clone()
            };
            assert!(check_options(&bad).is_err(), "{version} {releases}");
        }
    }
}
