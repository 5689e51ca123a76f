//! The rules that read the client's declared capabilities alone: [`Declares`] names one,
//! [`declared`] judges it, and [`declared_at_initialize`] judges the 2025-11-25 core
//! capabilities (tasks) only of a session that began with `initialize` below 2026-07-28.

use super::facts::{Facts, Message};
use super::{finding, Basis, Finding, Status};
use crate::probe::protocol::STATELESS;
use serde_json::Value;

/// Which declared client capability a rule reads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Declares {
    /// A path into the capabilities object: present means declared.
    Path(&'static [&'static str]),
    /// `elicitation.form`, or `elicitation: {}` (which means form alone).
    ElicitationForm,
}

impl Declares {
    /// The capability as its why names it: `roots.listChanged`, `elicitation (form)`.
    pub(super) fn name(self) -> String {
        match self {
            Declares::Path(path) => path.join("."),
            Declares::ElicitationForm => "elicitation (form)".to_string(),
        }
    }

    /// Whether `caps` (a capabilities object) declares it.
    pub(super) fn holds(self, caps: &Value) -> bool {
        match self {
            Declares::Path(path) => {
                let mut at = caps;
                for key in path {
                    match at.get(key) {
                        Some(next) => at = next,
                        None => return false,
                    }
                }
                !matches!(at, Value::Null | Value::Bool(false))
            }
            Declares::ElicitationForm => caps.get("elicitation").is_some_and(|e| {
                e.get("form").is_some() || (e.get("url").is_none() && !e.is_null())
            }),
        }
    }
}

/// Yes when the client declared the capability, no when it did not; left out when it
/// declared no capabilities at all.
pub(super) fn declared(facts: &Facts, declares: Declares) -> Option<Finding> {
    let (line, caps) = facts.capabilities()?;
    let name = declares.name();
    if declares.holds(caps) {
        finding(
            Status::Yes,
            Basis::Declared,
            format!("declared the {name} capability"),
            vec![line],
        )
    } else {
        finding(
            Status::No,
            Basis::Declared,
            format!("did not declare the {name} capability"),
            vec![line],
        )
    }
}

/// As [`declared`], for a capability of the core protocol of 2025-11-25 that 2026-07-28
/// removed (tasks): judged only when the session began with `initialize` and was not
/// agreed at 2026-07-28 or later. A 2026-07-28 client has no such capability to declare,
/// so its silence says nothing.
pub(super) fn declared_at_initialize(facts: &Facts, declares: Declares) -> Option<Finding> {
    let init = facts.initialize()?;
    if agreed_version(facts, init).is_some_and(|v| v >= STATELESS) {
        return None;
    }
    declared(facts, declares)
}

/// The revision a session begun with `initialize` speaks: the probe's answer's, else what
/// the client asked for.
fn agreed_version<'a>(facts: &Facts<'a>, init: &Message<'a>) -> Option<&'a str> {
    let answered = facts
        .reply_to(init)
        .and_then(|r| r.msg.pointer("/result/protocolVersion"));
    answered
        .or_else(|| init.msg.pointer("/params/protocolVersion"))
        .and_then(Value::as_str)
}
