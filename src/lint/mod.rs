//! Lint: run every rule over the index and collect findings, with severities from the
//! rule table overridden by `site.yaml`'s `lint.rules`.
//!
//! Adding a rule: write `rules/<name>.rs` with a `META` ([`RuleMeta`]: every fact about the
//! rule, its doc in the shape "What it flags / Why / Example", its [`Scope`] and what it
//! [`Reads`]) and a `check` function, add it to [`rules::ALL`] in code order, add a fixture
//! under `tests/fixtures/lint/<code>/` (copied over `_base/`), accept its snapshot, and
//! regenerate README.md's rule table (`UPDATE_README=1 cargo test --test integration
//! readme_rule_table`; the test fails while it is stale). Rules that report what `fieldnotes
//! sources verify` found in the sources' repositories (FN95x) are [`Check::Sources`] rules:
//! plain lint skips them, and their tests build git repositories
//! (`tests/integration/provenance.rs`). Rules that check a
//! value against a list of known ids use [`vocab::check`]; walks that several rules make (every
//! source, every date, every link) live in `walk`; whether a URL is an http(s) one, in
//! `web_url`.
//!
//! Rules run in parallel, each with its own [`Sink`]; the findings are sorted at the end, so
//! the output does not depend on the order they ran in. [`focus`] narrows what is reported in a
//! pull request, never what is checked; [`mod@format`] prints findings.

pub(crate) mod focus;
pub mod format;
pub(crate) mod incremental;
pub(crate) mod inline;
pub mod rules;
pub(crate) mod suggest;
pub(crate) mod vocab;
pub(crate) mod walk;
pub(crate) mod web_url;

use crate::diagnostic::{Diagnostic, Severity};
use crate::index::SiteIndex;
use crate::provenance::verify::{Problem, Verification};
use crate::provenance::Pinned;
use crate::text_file::{FileId, Span};
use chrono::NaiveDate;
pub use incremental::{lint_note_bodies, lint_notes, Scope};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What a rule is: its code, name, default severity and documentation.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable code, e.g. `FN101`.
    pub code: &'static str,
    /// Kebab-case name, e.g. `id-not-kebab-case`.
    pub name: &'static str,
    pub severity: Severity,
    /// Whether its findings on a note depend on that note alone ([`lint_notes`] reads it).
    pub scope: Scope,
    /// Whether it reads bodies or only front matter ([`lint_bodies`] reads it).
    pub reads: Reads,
    /// One line: what it flags.
    pub summary: &'static str,
    /// Markdown: what it flags, why it matters, an example.
    pub doc: &'static str,
}

/// What part of the content files a rule reads, which decides whether an edit to bodies alone
/// runs it again ([`lint_bodies`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// Front matter, file names, what the load found and `site.yaml`: an edit below the front
    /// matter cannot change its findings.
    FrontMatter,
    /// Bodies too (links, headings, raw HTML) or a file's whole text. When unsure, a rule reads
    /// bodies: that costs time, never a missed finding.
    Body,
}

/// A rule: its metadata and the function that checks the site.
pub struct Rule {
    pub meta: &'static RuleMeta,
    pub check: Check,
}

/// What a rule checks, and so which run it belongs to.
#[derive(Clone, Copy)]
pub enum Check {
    /// The site as the index holds it: run by [`lint`] (and so by `lint` and `build`).
    Site(fn(&Context<'_>, &mut Sink<'_>)),
    /// What verification found in the sources' repositories: run by [`lint_sources`]
    /// (`fieldnotes sources verify`) only, as plain lint has no repositories to read.
    Sources(fn(&SourcesContext<'_>, &mut Sink<'_>)),
    /// What `lint --config-from REV` found holding `site.yaml` to the base revision's
    /// (`config::trust`): made there, from two configurations, not by a pass over the index.
    Settings,
}

impl Rule {
    /// Whether plain `lint` runs the rule over the index (a [`Check::Site`] rule).
    pub fn in_lint(&self) -> bool {
        matches!(self.check, Check::Site(_))
    }
}

/// What every rule can read.
pub struct Context<'a> {
    pub index: &'a SiteIndex,
    /// The day "future" and "stale" are measured from.
    pub today: NaiveDate,
}

/// What source verification rules read: the index and what verification found, and what
/// drift found (`fieldnotes sources drift` only).
pub struct SourcesContext<'a> {
    pub index: &'a SiteIndex,
    pub verification: &'a Verification<'a>,
    pub drift: Option<&'a crate::provenance::verdict::DriftReport<'a>>,
}

/// Severity overrides from `site.yaml`: rule code to a severity, or `None` for off.
type Overrides = HashMap<&'static str, Option<Severity>>;

/// How many findings of one rule get a "did you mean" searched among every id; past that,
/// help is the generic advice (each search reads every id: 10k on a large site).
const MAX_SUGGESTIONS: usize = 100;

/// Where rules report findings; applies severity overrides and drops rules turned off.
pub struct Sink<'a> {
    index: &'a SiteIndex,
    overrides: &'a Overrides,
    findings: Vec<Diagnostic>,
    suggestions: usize,
}

impl<'a> Sink<'a> {
    fn new(index: &'a SiteIndex, overrides: &'a Overrides) -> Self {
        Sink {
            index,
            overrides,
            findings: Vec::new(),
            suggestions: 0,
        }
    }

    /// Whether the rule may still search for a "did you mean" (see `MAX_SUGGESTIONS`). Ask
    /// once per finding, just before reporting it: [`lint_notes`] counts on a rule asking no
    /// more often than it reports.
    pub fn may_suggest(&mut self) -> bool {
        self.suggestions += 1;
        self.suggestions <= MAX_SUGGESTIONS
    }

    /// Reports a finding of `rule` at `span`.
    pub fn report(&mut self, rule: &RuleMeta, span: Span, message: String, help: Option<String>) {
        let Some(severity) = self.severity(rule) else {
            return;
        };
        let source = &self.index.files[span.file];
        self.findings.push(Diagnostic::at(
            source, span, rule.code, rule.name, severity, message, help,
        ));
    }

    /// Reports a finding of `rule` about a file or folder that is not one of the site's text
    /// files (a template, a static file, an input folder), by its path relative to the site
    /// root: at its first line, without a code frame.
    pub fn report_path(
        &mut self,
        rule: &RuleMeta,
        path: &str,
        message: String,
        help: Option<String>,
    ) {
        let Some(severity) = self.severity(rule) else {
            return;
        };
        self.findings.push(Diagnostic::on_path(
            path, rule.code, rule.name, severity, message, help,
        ));
    }

    /// The severity `rule` reports at, `None` when `site.yaml` turns it off.
    fn severity(&self, rule: &RuleMeta) -> Option<Severity> {
        match self.overrides.get(rule.code) {
            Some(None) => None,
            Some(Some(s)) => Some(*s),
            None => Some(rule.severity),
        }
    }

    /// Reports a finding about a whole file, at its first line.
    pub fn report_file(
        &mut self,
        rule: &RuleMeta,
        file: FileId,
        message: String,
        help: Option<String>,
    ) {
        self.report(rule, Span::file_start(file), message, help);
    }
}

/// A `lint.rules` entry of `site.yaml` that names no rule or no severity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOverride {
    pub key: String,
    pub value: String,
}

/// Resolves `lint.rules` (code or name → severity or `off`) against the rule table.
pub fn severity_overrides(rules: &BTreeMap<String, String>) -> Result<Overrides, BadOverride> {
    let mut out = HashMap::new();
    for (key, value) in rules {
        let bad = || BadOverride {
            key: key.clone(),
            value: value.clone(),
        };
        let rule = rules::find(key).ok_or_else(bad)?;
        let severity = match value.as_str() {
            "off" => None,
            other => Some(Severity::parse(other).ok_or_else(bad)?),
        };
        out.insert(rule.meta.code, severity);
    }
    Ok(out)
}

/// Runs every [`Check::Site`] rule (in parallel; each is one pass over the index) and returns
/// the findings sorted by file, line, column and code.
pub fn lint(index: &SiteIndex, today: NaiveDate) -> crate::error::Result<Vec<Diagnostic>> {
    lint_rules(index, today, |_| true)
}

/// Lints the site and hands it on to render without what only lint reads (every key read,
/// type errors, unknown fields: about 3 KB a note), so a build's render runs beside a smaller
/// model. `build` runs this; the index render gets is lint's output.
pub fn lint_and_release(
    mut index: SiteIndex,
    today: NaiveDate,
) -> crate::error::Result<(SiteIndex, Vec<Diagnostic>)> {
    let findings = lint(&index, today)?;
    index.content.drop_lint_only();
    Ok((index, findings))
}

/// Lints after an edit that changed only bodies (`fieldnotes serve`): the rules that read
/// bodies ([`Reads::Body`]) run again, the other rules' findings are taken from `previous` (the
/// last full lint of the same front matter and settings). Equal to [`lint`] of the site as it
/// now is.
pub fn lint_bodies(
    index: &SiteIndex,
    today: NaiveDate,
    previous: &[Diagnostic],
) -> crate::error::Result<Vec<Diagnostic>> {
    let body_rules: HashSet<&str> = (rules::ALL.iter())
        .filter(|r| r.meta.reads == Reads::Body)
        .map(|r| r.meta.code)
        .collect();
    let mut findings = lint_rules(index, today, |meta| body_rules.contains(meta.code))?;
    findings.extend(
        (previous.iter())
            .filter(|d| !body_rules.contains(d.code))
            .cloned(),
    );
    Ok(in_order(findings))
}

/// Runs the [`Check::Site`] rules `keep` selects.
fn lint_rules(
    index: &SiteIndex,
    today: NaiveDate,
    keep: impl Fn(&RuleMeta) -> bool + Sync,
) -> crate::error::Result<Vec<Diagnostic>> {
    let cx = Context { index, today };
    run(index, keep, |check, sink| {
        if let Check::Site(check) = check {
            check(&cx, sink);
        }
    })
}

/// Runs every [`Check::Sources`] rule over what verification found, findings sorted as
/// [`lint`] sorts them.
pub fn lint_sources(
    index: &SiteIndex,
    verification: &Verification<'_>,
) -> crate::error::Result<Vec<Diagnostic>> {
    let cx = SourcesContext {
        index,
        verification,
        drift: None,
    };
    run_sources(&cx)
}

/// Runs every [`Check::Sources`] rule over what drift found: its broken and unchecked
/// sources as verification reports them (FN951–FN955), its moved, changed and gone ones
/// (FN956–FN958).
pub fn lint_drift(
    index: &SiteIndex,
    drift: &crate::provenance::verdict::DriftReport<'_>,
) -> crate::error::Result<Vec<Diagnostic>> {
    // What verification would have found, read off drift: each broken or unchecked source's
    // problem.
    let sources = (drift.sources.iter())
        .map(|d| crate::provenance::verify::Checked {
            pinned: d.pinned.clone(),
            problems: d.problem.iter().cloned().collect(),
            commit: d.commit.clone(),
        })
        .collect();
    let verification = Verification { sources };
    let cx = SourcesContext {
        index,
        verification: &verification,
        drift: Some(drift),
    };
    run_sources(&cx)
}

fn run_sources(cx: &SourcesContext<'_>) -> crate::error::Result<Vec<Diagnostic>> {
    run(
        cx.index,
        |_| true,
        |check, sink| {
            if let Check::Sources(check) = check {
                check(cx, sink);
            }
        },
    )
}

/// Reports each source drift found in `state` as a finding of `rule` (where its lines are
/// now, and `help`); nothing outside `fieldnotes sources drift`.
pub(crate) fn report_drift(
    cx: &SourcesContext<'_>,
    sink: &mut Sink<'_>,
    rule: &RuleMeta,
    state: crate::provenance::verdict::State,
    help: impl Fn() -> String,
) {
    let Some(report) = cx.drift else {
        return;
    };
    // A `pin: fixed` source's drift asks nothing of anyone: the table shows it, no finding.
    for drift in (report.sources.iter()).filter(|d| d.state == state && !d.fixed_drift()) {
        let (span, message) = crate::provenance::report::drift_finding(drift);
        sink.report(rule, span, message, Some(help()));
    }
}

/// Reports each problem of `verification` that `finding` turns into a finding of `rule` (at a
/// span, with a message and help); `finding` returns `None` for the problems of other rules.
pub(crate) fn report_problems<'a>(
    verification: &Verification<'a>,
    sink: &mut Sink<'_>,
    rule: &RuleMeta,
    finding: impl Fn(&Pinned<'a>, &Problem) -> Option<(Span, String, String)>,
) {
    for (pinned, problem) in verification.problems() {
        if let Some((span, message, help)) = finding(pinned, problem) {
            sink.report(rule, span, message, Some(help));
        }
    }
}

/// Runs `each` for every rule `keep` selects and `site.yaml` does not turn off, with
/// severities overridden from `site.yaml`.
fn run(
    index: &SiteIndex,
    keep: impl Fn(&RuleMeta) -> bool + Sync,
    each: impl Fn(Check, &mut Sink<'_>) + Sync,
) -> crate::error::Result<Vec<Diagnostic>> {
    let overrides = severity_overrides(&index.config.lint.rules)
        .map_err(|bad| bad_override_error(index, &bad))?;
    let findings: Vec<Diagnostic> = rules::ALL
        .par_iter()
        .filter(|rule| keep(rule.meta) && overrides.get(rule.meta.code) != Some(&None))
        .flat_map_iter(|rule| {
            let mut sink = Sink::new(index, &overrides);
            each(rule.check, &mut sink);
            sink.findings
        })
        .collect();
    Ok(in_order(findings))
}

/// Findings sorted by file, line, column and code, each once.
fn in_order(mut findings: Vec<Diagnostic>) -> Vec<Diagnostic> {
    findings.par_sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
    findings
}

/// The error for a `lint.rules` entry that names no rule or severity, at its line of
/// `site.yaml` when the file can be read again.
fn bad_override_error(index: &SiteIndex, bad: &BadOverride) -> crate::error::Error {
    let path = index.root.join(crate::config::CONFIG_FILE);
    let line = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| {
            text.lines().position(|l| {
                let l = l.trim_start().trim_start_matches(['"', '\'']);
                l.starts_with(bad.key.as_str())
                    && l[bad.key.len()..]
                        .trim_start_matches(['"', '\''])
                        .starts_with(':')
            })
        })
        .map_or(1, |i| i + 1);
    crate::error::Error::Config {
        path: crate::config::CONFIG_FILE.into(),
        line,
        column: 1,
        message: format!(
            "lint.rules: `{}: {}` names no rule or severity; use a code such as FN101 or a \
             rule name, and one of error, warning, info, off (`fieldnotes lint --explain list` \
             lists the rules)",
            bad.key, bad.value
        ),
    }
}
