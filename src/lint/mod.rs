//! Lint: run every rule over the index and collect findings, with severities from the
//! rule table overridden by `site.yaml`'s `lint.rules`.
//!
//! Adding a rule: write `rules/<name>.rs` with a `META` ([`RuleMeta`]) and a `check` function,
//! add it to [`rules::ALL`], and add a fixture under `tests/fixtures/lint/<code>/`.

pub mod format;
pub mod rules;
pub mod suggest;

use crate::diagnostic::{Diagnostic, Severity};
use crate::index::SiteIndex;
use crate::source::{FileId, Span};
use chrono::NaiveDate;
use std::collections::HashMap;

/// What a rule is: its code, name, default severity and documentation.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable code, e.g. `FN101`.
    pub code: &'static str,
    /// Kebab-case name, e.g. `id-not-kebab-case`.
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what it flags.
    pub summary: &'static str,
    /// Markdown: what it flags, why it matters, an example.
    pub doc: &'static str,
}

/// A rule: its metadata and the function that checks the site.
pub struct Rule {
    pub meta: &'static RuleMeta,
    pub check: fn(&Context<'_>, &mut Sink<'_>),
}

/// What every rule can read.
pub struct Context<'a> {
    pub index: &'a SiteIndex,
    /// The day "future" and "stale" are measured from.
    pub today: NaiveDate,
}

/// Where rules report findings; applies severity overrides and drops rules turned off.
pub struct Sink<'a> {
    index: &'a SiteIndex,
    overrides: HashMap<&'static str, Option<Severity>>,
    findings: Vec<Diagnostic>,
}

impl<'a> Sink<'a> {
    fn new(index: &'a SiteIndex, overrides: HashMap<&'static str, Option<Severity>>) -> Self {
        Sink {
            index,
            overrides,
            findings: Vec::new(),
        }
    }

    /// Reports a finding of `rule` at `span`.
    pub fn report(&mut self, rule: &RuleMeta, span: Span, message: String, help: Option<String>) {
        let severity = match self.overrides.get(rule.code) {
            Some(None) => return,
            Some(Some(s)) => *s,
            None => rule.severity,
        };
        let source = &self.index.files[span.file];
        self.findings.push(Diagnostic::at(
            source, span, rule.code, rule.name, severity, message, help,
        ));
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
pub fn severity_overrides(
    rules: &std::collections::BTreeMap<String, String>,
) -> Result<HashMap<&'static str, Option<Severity>>, BadOverride> {
    let mut out = HashMap::new();
    for (key, value) in rules {
        let rule = rules::find(key).ok_or_else(|| BadOverride {
            key: key.clone(),
            value: value.clone(),
        })?;
        let severity = match value.as_str() {
            "off" => None,
            other => Some(Severity::parse(other).ok_or_else(|| BadOverride {
                key: key.clone(),
                value: value.clone(),
            })?),
        };
        out.insert(rule.meta.code, severity);
    }
    Ok(out)
}

/// Runs every rule and returns the findings sorted by file, line, column and code.
pub fn lint(index: &SiteIndex, today: NaiveDate) -> crate::error::Result<Vec<Diagnostic>> {
    let overrides = severity_overrides(&index.config.lint.rules).map_err(|bad| {
        crate::error::Error::Config {
            path: crate::config::CONFIG_FILE.into(),
            line: 1,
            column: 1,
            message: format!(
                "lint.rules: `{}: {}` names no rule or severity; use a code such as FN101 or a \
                 rule name, and one of error, warning, info, off (see `fieldnotes lint --explain`)",
                bad.key, bad.value
            ),
        }
    })?;
    let cx = Context { index, today };
    let mut sink = Sink::new(index, overrides);
    for rule in rules::ALL {
        (rule.check)(&cx, &mut sink);
    }
    let mut findings = sink.findings;
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
    Ok(findings)
}
