//! Excerpts: the pinned lines of each source, read from the cache at the pinned commit, so
//! that a note page can show the evidence under the source link (`build --excerpts`).
//!
//! [`excerpts`] is pure data for render: [`Excerpts::get`] gives a source's [`Excerpt`]: one
//! block of numbered lines per pinned range, and the token a highlighter takes the language
//! from.
//! Sources pinned to a whole file or folder get none; sources that cannot be read are listed
//! in [`Excerpts::missing`] with the reason.

use super::cache::Cache;
use super::pinned;
use super::status::{Status, Statuses};
use super::verify::{out_of_range, resolve};
use crate::index::SiteIndex;
use crate::model::SourceRef;
use crate::text_file::Span;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The most lines an excerpt shows; past that it is cut (`truncated`).
pub const MAX_LINES: usize = 400;

/// One line of an excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcerptLine {
    /// The 1-based line number in the file at the pinned commit.
    pub number: usize,
    /// Shared by every source that cites the line: thirty citations of one 15 MiB line hold
    /// it once.
    #[serde(serialize_with = "shared_str")]
    pub text: Arc<str>,
}

fn shared_str<S: serde::Serializer>(text: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(text)
}

/// The lines of one pinned range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcerptBlock {
    /// The first line's number (for a line-number gutter or a CSS counter).
    pub start: usize,
    pub lines: Vec<ExcerptLine>,
}

/// The pinned lines of one source: one block per line range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// The commit's full hash.
    pub commit: String,
    /// The file, relative to the repository root.
    pub file: String,
    /// The file's extension (`py`, `rs`, `ts`), or its name when it has none (`Makefile`):
    /// the token highlighters (syntect, highlight.js) look a language up by.
    pub language: String,
    pub blocks: Vec<ExcerptBlock>,
    /// Lines past [`MAX_LINES`] were left out.
    pub truncated: bool,
}

/// A source that has line ranges but no excerpt, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Missed {
    /// The site file and line of the source.
    pub file: String,
    pub line: usize,
    pub path: String,
    pub reason: String,
}

/// What a build read about a site's sources from their repositories, for pages: the
/// excerpts, keyed by the source they belong to, and each pinned source's status
/// ([`super::status`], when the build was given a report or ran verification).
#[derive(Debug, Default)]
pub struct Excerpts {
    by_source: HashMap<Span, Excerpt>,
    pub missing: Vec<Missed>,
    pub statuses: Option<Statuses>,
}

impl Excerpts {
    /// The status of `source`, when the build knows it.
    pub fn status(&self, source: &SourceRef) -> Option<&Status> {
        self.statuses.as_ref()?.get(source.span)
    }

    /// The excerpt of `source` (a note's or a support cell's), if it has one.
    pub fn get(&self, source: &SourceRef) -> Option<&Excerpt> {
        self.by_source.get(&source.span)
    }

    /// How many sources have an excerpt.
    pub fn len(&self) -> usize {
        self.by_source.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_source.is_empty()
    }
}

/// Reads the pinned lines of every source with line ranges, from the cache (cloning or
/// fetching as [`Cache`] does when a repository or commit is not there yet).
pub fn excerpts(index: &SiteIndex, cache: &mut Cache) -> Excerpts {
    let mut out = Excerpts::default();
    // Each line read once, by commit, file and number, however many sources cite it.
    let mut lines: HashMap<(String, String, usize), Arc<str>> = HashMap::new();
    let with_lines = |p: &super::Pinned<'_>| !p.ranges.is_empty() || p.path_error.is_some();
    let pins: Vec<_> = pinned(index).into_iter().filter(with_lines).collect();
    let mut missing = Vec::new();
    for (i, pinned) in super::by_file(&pins).into_iter().map(|i| (i, &pins[i])) {
        let read = resolve(pinned, cache).and_then(|resolved| {
            match out_of_range(pinned, &resolved).into_iter().next() {
                Some(problem) => Err(problem),
                None => Ok(resolved),
            }
        });
        let resolved = match read {
            Ok(resolved) => resolved,
            Err(problem) => {
                let (file, line) = pinned.place(index);
                let path = pinned.pinned_path();
                let reason = problem.reason();
                missing.push((
                    i,
                    Missed {
                        file,
                        line,
                        path,
                        reason,
                    },
                ));
                continue;
            }
        };
        let Some(text) = resolved.lines else {
            continue;
        };
        let mut budget = MAX_LINES;
        let file = pinned.file.trim_start_matches('/');
        let blocks = pinned
            .ranges
            .iter()
            .map(|range| {
                let numbers = range.start()..=range.end();
                let lines: Vec<ExcerptLine> = numbers
                    .take(budget)
                    .map(|number| ExcerptLine {
                        number,
                        text: (lines.entry((resolved.commit.clone(), file.to_string(), number)))
                            .or_insert_with(|| text.line(number - 1).into())
                            .clone(),
                    })
                    .collect();
                budget -= lines.len();
                ExcerptBlock {
                    start: range.start(),
                    lines,
                }
            })
            .filter(|block| !block.lines.is_empty())
            .collect();
        let excerpt = Excerpt {
            commit: resolved.commit,
            file: file.to_string(),
            language: language(file).to_string(),
            blocks,
            truncated: pinned.ranges.iter().map(|r| r.count()).sum::<usize>() > MAX_LINES,
        };
        out.by_source.insert(pinned.source.span, excerpt);
    }
    missing.sort_by_key(|(i, _)| *i);
    out.missing = missing.into_iter().map(|(_, missed)| missed).collect();
    out
}

/// The token a highlighter finds a file's language by: its extension, lower-cased, or the
/// file name when it has none.
pub fn language(file: &str) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => extension.to_ascii_lowercase(),
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::language;

    #[test]
    fn languages_come_from_extensions() {
        assert_eq!(language("tools/mcp_tool.py"), "py");
        assert_eq!(language("src/A.TSX"), "tsx");
        assert_eq!(language("build/Makefile"), "Makefile");
        assert_eq!(language(".bashrc"), ".bashrc");
    }
}
