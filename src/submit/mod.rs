//! `fieldnotes submit`: a "Report support" issue form's body turned into the edit of one
//! support cell of a client file, validated by lint.
//!
//! The steps, each in its own module:
//!
//! 1. [`form`]: the body read into its answers (`### <label>` sections), with limits; every
//!    heading one the form asks, once.
//! 2. here: the client and capability looked up by id in the site's index (never used as a
//!    path), the status one of `yes`, `partial`, `no`, the notes, version and title one line
//!    of text each.
//! 3. [`evidence`]: the evidence URL read into a source pinned to a commit, a documentation
//!    page, or an observation; a URL at a branch is refused.
//! 4. [`cell`]: the cell's values (a report that keeps the cell's status adds its evidence
//!    to the cell's; one that changes it writes the cell anew) and their YAML, each value
//!    quoted unless YAML reads it back as that very text.
//! 5. [`edit`]: the file with the cell's lines replaced or added, every other byte kept, and
//!    parsed again to check it reads back as asked.
//! 6. [`check`]: the site linted in memory with the new file; the findings in the cell.
//!
//! The body is untrusted text (an issue anyone can open): it reaches no shell, no path and no
//! YAML but as data.

pub(crate) mod cell;
mod check;
mod edit;
mod evidence;
pub mod form;

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::index::SiteIndex;
use crate::lint::suggest::did_you_mean;
use crate::model::doc_id;
use cell::{Cell, Source};
use evidence::Evidence;
use form::{Answer, Question};
use std::path::{Path, PathBuf};

/// Something wrong with the form: the question it is about (`None`: the form as a whole), the
/// line of the body it is on, what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub(crate) question: Option<Question>,
    pub line: usize,
    pub message: String,
    pub help: String,
}

impl Problem {
    pub(crate) fn at(
        question: Option<Question>,
        line: usize,
        message: String,
        help: &str,
    ) -> Problem {
        Problem {
            question,
            line,
            message,
            help: help.to_string(),
        }
    }

    /// The label of the form field it is about, if any.
    pub fn field(&self) -> Option<&'static str> {
        self.question.map(|q| q.label)
    }
}

/// A report turned into the edit of a client file.
#[derive(Debug)]
pub struct Submission {
    /// The client file, relative to the site root (as printed, and as a path).
    pub path: String,
    pub relative: PathBuf,
    pub before: String,
    pub after: String,
    pub client: String,
    pub capability: String,
    /// The cell's status before (`None`: the client had no cell for the capability).
    pub was: Option<String>,
    pub status: String,
    /// What the cell cites from the report, in a few words.
    pub evidence: String,
    /// The report's evidence was already in the cell (nothing added but what else changed).
    pub already_cited: bool,
    /// Lint's findings in the cell as written, and the site's files to print them with.
    pub findings: Vec<Diagnostic>,
    pub files: Vec<crate::text_file::TextFile>,
    /// The lines replaced (old text) and written (new text), for the diff.
    pub replaced: std::ops::Range<usize>,
    pub written: std::ops::Range<usize>,
}

impl Submission {
    /// Whether lint found an error in the cell (then nothing may be written).
    pub fn has_errors(&self) -> bool {
        (self.findings.iter()).any(|d| d.severity == crate::diagnostic::Severity::Error)
    }

    /// The change as a diff of the client file: the cell's old lines and its new ones, the
    /// lines they share at the start and the end shown as context.
    pub fn diff(&self) -> String {
        let old: Vec<&str> = self.before[self.replaced.clone()].lines().collect();
        let new: Vec<&str> = self.after[self.written.clone()].lines().collect();
        let head = (old.iter().zip(&new)).take_while(|(a, b)| a == b).count();
        let tail = (old[head..].iter().rev().zip(new[head..].iter().rev()))
            .take_while(|(a, b)| a == b)
            .count();
        let first = self.before[..self.replaced.start].matches('\n').count() + 1;
        let (path, old_count, new_count) = (&self.path, old.len(), new.len());
        let mut out = format!(
            "--- a/{path}\n+++ b/{path}\n@@ -{first},{old_count} +{first},{new_count} @@\n"
        );
        let mut push = |mark: char, line: &str| {
            out.push(mark);
            out.push_str(line.trim_end_matches('\r'));
            out.push('\n');
        };
        old[..head].iter().for_each(|l| push(' ', l));
        old[head..old.len() - tail]
            .iter()
            .for_each(|l| push('-', l));
        new[head..new.len() - tail]
            .iter()
            .for_each(|l| push('+', l));
        old[old.len() - tail..].iter().for_each(|l| push(' ', l));
        crate::terminal::escape_source(&out).into_owned()
    }
}

/// Reads the issue form `body` and turns it into the edit of a client file of the site in
/// `root`: `Ok(Err(problems))` when the form is refused (nothing to write), `Err` when the
/// site cannot be read.
pub fn submit(
    root: &Path,
    body: &str,
    today: chrono::NaiveDate,
) -> Result<std::result::Result<Submission, Vec<Problem>>> {
    let index = crate::open(root)?;
    // Every problem at once: the form's, then those of its answers (one per question).
    let (answers, mut problems) = form::read(body, &index.config.vocabulary);
    let report = match Report::read(&index, &answers) {
        Ok(report) if problems.is_empty() => report,
        Ok(_) => return Ok(Err(problems)),
        Err(more) => {
            let asked: Vec<_> = problems.iter().filter_map(|p| p.question).collect();
            problems.extend(
                more.into_iter()
                    .filter(|p| p.question.is_none_or(|q| !asked.contains(&q))),
            );
            problems.sort_by_key(|p| p.line);
            return Ok(Err(problems));
        }
    };
    let client = &index.content.clients[report.client];
    let file = &index.files[client.doc.file];
    let existing: Vec<usize> = (client.support.iter().enumerate())
        .filter(|(_, c)| {
            index.ids.capability(&c.capability.value).map(|(i, _)| i) == Some(report.capability)
        })
        .map(|(n, _)| n)
        .collect();
    let capability = doc_id(
        &index.content.capabilities[report.capability].id,
        &index.content.capabilities[report.capability].doc,
    )
    .to_string();
    let refuse = |message: String, help: &str| Ok(Err(vec![Problem::at(None, 1, message, help)]));
    if existing.len() > 1 {
        return refuse(
            format!(
                "{} has {} cells for {capability} (FN803): which one the report is about is \
                 not clear",
                file.display_path(),
                existing.len()
            ),
            "merge them by hand first (`fieldnotes lint` shows where they are)",
        );
    }
    let old = existing.first().map(|&n| Cell::of(&client.support[n]));
    let (cell, already_cited) = report.cell(old.clone(), today);
    let edited = match edit::edit(file, client, existing.first().copied(), &capability, &cell) {
        Ok(edited) => edited,
        Err(why) => {
            return refuse(
                format!("{}: {why}", file.display_path()),
                "edit the client file by hand, or fix the file and submit again",
            )
        }
    };
    let (findings, files) = check::lint(
        root,
        &file.path,
        &edited.after,
        edited.written.clone(),
        today,
    )?;
    Ok(Ok(Submission {
        path: file.display_path(),
        relative: file.path.clone(),
        before: file.text.clone(),
        after: edited.after,
        client: doc_id(&client.id, &client.doc).to_string(),
        capability,
        was: old.map(|c| c.status),
        status: report.status.clone(),
        evidence: report.describe(),
        already_cited,
        findings,
        files,
        replaced: edited.replaced,
        written: edited.written,
    }))
}

/// The form's answers, checked against the site.
struct Report {
    /// The client's and capability's positions in the content.
    client: usize,
    capability: usize,
    status: String,
    evidence: Evidence,
    notes: Option<String>,
    version: Option<String>,
}

const CLIENT_HELP: &str = "give the id of a client of the site: the last part of its page's \
     URL (/clients/<id>), e.g. `cline`";
const CAPABILITY_HELP: &str = "give a capability's dotted id (group.name), the last part of \
     its page's URL (/capabilities/<id>), e.g. `transports.sse`";

/// The statuses a report may give (`unknown` is what a missing cell already says).
const STATUSES: [&str; 3] = ["yes", "partial", "no"];

impl Report {
    fn read(
        index: &SiteIndex,
        answers: &form::Answers,
    ) -> std::result::Result<Report, Vec<Problem>> {
        let mut problems = Vec::new();
        let clients = (index.content.clients.iter()).map(|c| doc_id(&c.id, &c.doc));
        let client = lookup(
            answers,
            form::CLIENT,
            |id| index.ids.client(id),
            clients,
            ("client", CLIENT_HELP),
            &mut problems,
        );
        let capabilities = (index.content.capabilities.iter()).map(|c| doc_id(&c.id, &c.doc));
        let capability = lookup(
            answers,
            form::CAPABILITY,
            |id| index.ids.capability(id).map(|(n, _)| n),
            capabilities,
            ("capability", CAPABILITY_HELP),
            &mut problems,
        );
        let status = answers.get(form::STATUS);
        let status_value = status.text.to_ascii_lowercase();
        if !status.text.is_empty() && !STATUSES.contains(&status_value.as_str()) {
            problems.push(Problem::at(
                Some(form::STATUS),
                status.line,
                format!("`{}` is not a status a report gives", shown(&status.text)),
                "choose yes, partial or no (a client with no cell for a capability is shown \
                 unknown already)",
            ));
        }
        let line = |q: Question, problems: &mut Vec<Problem>, paragraphs: bool| {
            one_line(&answers.get(q), q, paragraphs, problems)
        };
        let notes = line(form::NOTES, &mut problems, true);
        let version = line(form::VERSION, &mut problems, false);
        let title = line(form::SHOWS, &mut problems, false);
        let quote = line(form::QUOTE, &mut problems, false);
        let evidence = client.and_then(|c| {
            let id = doc_id(&index.content.clients[c].id, &index.content.clients[c].doc);
            evidence::read(index, id, &answers.get(form::EVIDENCE), title, quote)
                .map_err(|p| problems.push(p))
                .ok()
        });
        match (client, capability, evidence, problems.is_empty()) {
            (Some(client), Some(capability), Some(evidence), true) => Ok(Report {
                client,
                capability,
                status: status_value,
                evidence,
                notes,
                version,
            }),
            _ => {
                problems.sort_by_key(|p| p.line);
                Err(problems)
            }
        }
    }

    /// The cell the report writes over `old` (`None`: there is none), and whether its
    /// evidence was already cited there. Keeping the status adds the evidence to the cell's
    /// and replaces notes and version where the report gives them; changing it (or a new
    /// cell) writes the cell from the report alone: the old evidence was for the old status.
    fn cell(&self, old: Option<Cell>, today: chrono::NaiveDate) -> (Cell, bool) {
        let mut cell = match old {
            Some(old) if old.status == self.status => old,
            _ => Cell {
                status: self.status.clone(),
                notes: None,
                research: Vec::new(),
                sources: Vec::new(),
                last_verified: None,
                version: None,
                observations: Vec::new(),
            },
        };
        cell.notes = self.notes.clone().or(cell.notes);
        cell.version = self.version.clone().or(cell.version);
        cell.last_verified = Some(today.format("%Y-%m-%d").to_string());
        let cited = match &self.evidence {
            Evidence::Source(source) => {
                let same = |s: &Source| {
                    s.url == source.url && s.commit == source.commit && s.path == source.path
                };
                let cited = cell.sources.iter().any(same);
                if !cited {
                    let mut source = source.clone();
                    if source.quote.is_some() {
                        source.retrieved = cell.last_verified.clone();
                    }
                    cell.sources.push(source);
                }
                cited
            }
            Evidence::Observation(id) => {
                let cited = cell.observations.contains(id);
                if !cited {
                    cell.observations.push(id.clone());
                }
                cited
            }
        };
        (cell, cited)
    }

    /// The evidence, in a few words: `source https://github.com/o/r @ 3f4e5d6 a.ts:3-5`.
    fn describe(&self) -> String {
        match &self.evidence {
            Evidence::Observation(id) => format!("observation {id}"),
            Evidence::Source(s) => {
                let mut out = format!("source {}", s.url);
                if let Some(commit) = &s.commit {
                    out.push_str(&format!(" @ {}", crate::provenance::short(commit)));
                }
                if let Some(path) = &s.path {
                    out.push_str(&format!(" {path}"));
                }
                if s.pin.is_some() {
                    out.push_str(" (pin: fixed)");
                }
                crate::terminal::escape(&out).into_owned()
            }
        }
    }
}

/// The position of the thing `question`'s answer names, by `find`; an unknown id is a
/// problem with "did you mean" among `ids` (`what`: its name and the help without one).
fn lookup<'a>(
    answers: &form::Answers,
    question: Question,
    find: impl Fn(&str) -> Option<usize>,
    ids: impl Iterator<Item = &'a str>,
    (what, help): (&str, &str),
    problems: &mut Vec<Problem>,
) -> Option<usize> {
    let (id, answer) = id_answer(&answers.get(question), question, problems)?;
    if let Some(n) = find(&id) {
        return Some(n);
    }
    let help = did_you_mean(&id, ids, || help.to_string());
    let message = format!("no {what} `{}`", shown(&id));
    problems.push(Problem::at(Some(question), answer.line, message, &help));
    None
}

/// An id answer: one word of letters, digits, `.`, `-` and `_` (never a path: `/`, `\` and
/// `..` are refused), with the answer for its line.
fn id_answer(
    answer: &Answer,
    q: Question,
    problems: &mut Vec<Problem>,
) -> Option<(String, Answer)> {
    let id = answer.text.trim().trim_matches('`').to_string();
    if id.is_empty() {
        return None;
    }
    let word = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if !word || id.contains("..") || id.starts_with('.') {
        problems.push(Problem::at(
            Some(q),
            answer.line,
            format!("`{}` is not an id", shown(&id)),
            "an id is one word of letters, digits, `.`, `-` and `_`, as in the page's URL",
        ));
        return None;
    }
    Some((id, answer.clone()))
}

/// A text answer as one line: `None` when empty; line breaks (with `paragraphs`) joined into
/// spaces, else refused, as are control characters.
fn one_line(
    answer: &Answer,
    q: Question,
    paragraphs: bool,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    if answer.text.is_empty() {
        return None;
    }
    let breaks = answer.text.contains('\n');
    let control = (answer.text.chars()).any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || answer.text.contains(['\u{2028}', '\u{2029}', '\u{feff}']);
    if control || (breaks && !paragraphs) {
        problems.push(Problem::at(
            Some(q),
            answer.line,
            match control {
                true => "holds control characters".to_string(),
                false => "holds more than one line".to_string(),
            },
            "write it as one line of plain text",
        ));
        return None;
    }
    Some(answer.text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A value from the form, for a message.
fn shown(value: &str) -> String {
    crate::terminal::escape(&form::clip(value, 100)).into_owned()
}
