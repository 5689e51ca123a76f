//! The form's "Evidence URL" read into what a support cell cites: a source line at a commit
//! (a GitHub or GitLab permalink, `…/blob/<commit>/<file>#L10-L20`: a source with the
//! repository, `commit` and `path`), a commit (`…/commit/<hash>`: a source with `pin: fixed`,
//! since the commit is the point), a documentation page (a source with its `url` alone), or an
//! observation (its id, or its page on the site). A repository URL at a branch moves, and is
//! refused with how to get a permalink.

use super::cell::Source;
use super::form::{Answer, EVIDENCE};
use super::Problem;
use crate::index::SiteIndex;
use crate::model::{doc_id, text, PIN_FIXED};
use crate::parse::source_path;
use crate::parse::url_pin;
use crate::provenance::pin::format_path;

/// What a report cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Evidence {
    Source(Source),
    /// An observation of the client, by id.
    Observation(String),
}

/// Reads the evidence answer `answer` of a report about `client` (its id).
pub(crate) fn read(
    index: &SiteIndex,
    client: &str,
    answer: &Answer,
    title: Option<String>,
    quote: Option<String>,
) -> Result<Evidence, Problem> {
    let value = answer.text.as_str();
    let problem =
        |message: String, help: &str| Problem::at(Some(EVIDENCE), answer.line, message, help);
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(problem(
            "holds spaces, line breaks or control characters".to_string(),
            "give one URL (or one observation id), nothing else: put what it shows under \
             \"What the source shows\" or \"Notes\"",
        ));
    }
    if !value.contains("://") {
        return observation(index, client, value, answer);
    }
    let Some(rest) = strip_scheme(value) else {
        return Err(problem(
            format!("`{}` is not an http(s) URL", shown(value)),
            "give an https:// URL: a permalink to the lines, a documentation page, or an \
             observation's page",
        ));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') {
        return Err(problem(
            format!("`{}` has no host, or a user name in it", shown(value)),
            "give the URL as a browser shows it, with no `user@` before the host",
        ));
    }
    let base = index.config.base_url.trim_end_matches('/');
    if let Some(id) = observation_page(base, value) {
        return observation(index, client, id, answer);
    }
    if let Some((commit, path)) = url_pin::read(value) {
        let repository = repository(rest)
            .ok_or_else(|| problem(format!("`{}` names no repository", shown(value)), PERMALINK))?;
        let written = format_path(&path.file, &path.lines);
        return match source_path::read(&written) {
            Ok(read) if read == path => Ok(Evidence::Source(Source {
                url: repository,
                title,
                commit: Some(commit),
                path: Some(written),
                date: None,
                quote: None,
                retrieved: None,
                pin: None,
            })),
            _ => Err(problem(
                format!(
                    "the file in `{}` is not a path in a repository",
                    shown(value)
                ),
                PERMALINK,
            )),
        };
    }
    match forge_reference(rest) {
        Forge::Commit(repository, commit) => Ok(Evidence::Source(Source {
            url: repository,
            title,
            commit: Some(commit),
            path: None,
            date: None,
            quote: None,
            retrieved: None,
            pin: Some(PIN_FIXED.to_string()),
        })),
        Forge::Branch(reference) => Err(problem(
            format!(
                "`{}` is at `{reference}`, a branch or tag, which moves: the lines it shows \
                 today are other lines next month",
                shown(value)
            ),
            PERMALINK,
        )),
        // A page no commit pins carries the sentence it is cited for (lint FN407); the day
        // it was read is the report's.
        Forge::Other => match quote {
            Some(quote) => Ok(Evidence::Source(Source {
                url: value.to_string(),
                title,
                commit: None,
                path: None,
                date: None,
                quote: Some(quote),
                retrieved: None,
                pin: None,
            })),
            None => Err(problem(
                format!(
                    "`{}` is a page without a commit, and the report quotes nothing from it",
                    shown(value)
                ),
                "paste the sentence the status rests on, copied from the page word for word,                  under \"Quote\"; or give a permalink to source lines at a commit",
            )),
        },
    }
}

/// How to get a URL that pins a commit.
const PERMALINK: &str = "give a permalink: on GitHub, open the file, click the first line \
     number, shift-click the last, and press `y` (or choose \"Copy permalink\"); the URL then \
     holds the commit, as in https://github.com/<owner>/<repo>/blob/<commit>/<file>#L10-L20";

/// The URL after `http://` or `https://` (any case), or `None`.
fn strip_scheme(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https").then_some(rest)
}

/// The observation id of a page of the site (`<baseUrl>/observations/<id>`, `.html`, `.md`
/// or a trailing `/`).
fn observation_page<'a>(base: &str, url: &'a str) -> Option<&'a str> {
    let base = strip_scheme(base)?.trim_end_matches('/');
    let rest = strip_scheme(url)?;
    let rest = rest.split(['?', '#']).next()?;
    let (host, path) = rest.split_once('/')?;
    let (base_host, base_path) = base.split_once('/').unwrap_or((base, ""));
    if !host.eq_ignore_ascii_case(base_host) {
        return None;
    }
    let path = path.strip_prefix(base_path)?.trim_start_matches('/');
    let id = path.strip_prefix("observations/")?.trim_end_matches('/');
    let id = (id.strip_suffix(".html").or_else(|| id.strip_suffix(".md"))).unwrap_or(id);
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// An observation of `client` by id, or why it is not one.
fn observation(
    index: &SiteIndex,
    client: &str,
    id: &str,
    answer: &Answer,
) -> Result<Evidence, Problem> {
    let found = (index.content.observations.iter()).find(|o| doc_id(&o.id, &o.doc) == id);
    match found {
        Some(o) if text(&o.client) == client => Ok(Evidence::Observation(id.to_string())),
        Some(o) => Err(Problem::at(
            Some(EVIDENCE),
            answer.line,
            format!(
                "observation `{}` is of client `{}`, not `{client}`",
                shown(id),
                crate::terminal::escape(text(&o.client))
            ),
            "cite an observation of the client the report is about",
        )),
        None => Err(Problem::at(
            Some(EVIDENCE),
            answer.line,
            format!("`{}` is neither a URL nor an observation's id", shown(id)),
            "give an https:// URL (a permalink to the lines at a commit, or a documentation \
             page), or the id of an observation on the site (its page's last path segment)",
        )),
    }
}

/// What a GitHub or GitLab URL names, when it is not a file at a commit.
enum Forge {
    /// `…/commit/<hash>`: the repository's URL and the commit.
    Commit(String, String),
    /// Repository content at a branch or tag (`/blob/main/…`, `/tree/v2`, the repository
    /// itself): the reference (`default branch` for the repository's home page).
    Branch(String),
    /// Anything else: an issue, a pull request, a release, another host.
    Other,
}

fn forge_reference(rest: &str) -> Forge {
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let Some((host, path)) = rest.split_once('/') else {
        return Forge::Other;
    };
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (repo, after) = match host {
        "github.com" if segments.len() >= 2 => (&segments[..2], &segments[2..]),
        "gitlab.com" => match segments.iter().position(|s| *s == "-") {
            Some(dash) if dash >= 2 => (&segments[..dash], &segments[dash + 1..]),
            None if segments.len() >= 2 => (&segments[..], &[][..]),
            _ => return Forge::Other,
        },
        _ => return Forge::Other,
    };
    let repository = format!("https://{host}/{}", repo.join("/"));
    let is_hex = |s: &str| (7..=40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit());
    match after {
        [] => Forge::Branch("the default branch".to_string()),
        ["commit" | "commits", hash, ..] if is_hex(hash) => {
            Forge::Commit(repository, hash.to_ascii_lowercase())
        }
        ["blob" | "tree" | "raw" | "blame", reference, ..] => {
            Forge::Branch(shown(reference).into_owned())
        }
        _ => Forge::Other,
    }
}

/// The repository of a GitHub (`owner/repo`) or GitLab (everything before `/-/`) URL, as
/// written, after its scheme.
fn repository(rest: &str) -> Option<String> {
    let (host, path) = rest.split_once('/')?;
    let segments: Vec<&str> = path.split('/').collect();
    let repo = match segments.iter().position(|s| *s == "-") {
        Some(dash) => &segments[..dash],
        None => segments.get(..2)?,
    };
    (repo.len() >= 2 && repo.iter().all(|s| !s.is_empty()))
        .then(|| format!("https://{}/{}", host.to_ascii_lowercase(), repo.join("/")))
}

/// A value from the form, for a message: control characters escaped, at most 200 characters.
fn shown(value: &str) -> std::borrow::Cow<'_, str> {
    std::borrow::Cow::Owned(crate::terminal::escape(&super::form::clip(value, 200)).into_owned())
}
