//! The rules that turn a transcript into an observation's `results`: one table, [`RULES`],
//! each entry a site capability id and the [`Rule`] that judges it. A capability the session
//! could not show is left out (or `unknown`), never guessed.

mod facts;
#[cfg(test)]
mod tests;

use crate::probe::scenarios::{self, Scenario, ELICIT_FORM, ELICIT_URL, ROOTS, SAMPLING};
use crate::probe::session::Transport;
use crate::probe::transcript::Record;
use facts::{Facts, Message};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A result's status, as support cells spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Status {
    Yes,
    Partial,
    No,
    Unknown,
}

/// One capability's result: its status, one line of why, and the transcript lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    pub status: Status,
    pub why: String,
    pub messages: Vec<usize>,
}

/// Which declared client capability a rule reads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Declares {
    /// A path into the capabilities object: present means declared.
    Path(&'static [&'static str]),
    /// `elicitation.form`, or `elicitation: {}` (which means form alone).
    ElicitationForm,
}

/// How a capability is judged from a transcript.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rule {
    /// Yes when the client sent this method (a request or notification); left out otherwise.
    Sent(&'static str),
    /// Yes when the client sent this request; `unknown` otherwise (it might, given reason).
    SentOrUnknown(&'static str),
    /// Yes when the client sent a `progressToken` or a progress notification.
    Progress,
    /// From the declared capability: yes when `path` is declared, no when not.
    Declared(Declares),
    /// The probe asked (`scenario`): the answer, else the declaration, else the timeout.
    Asked(Scenario, Declares),
    /// Yes when `tools/list` came again after `notifications/tools/list_changed`; no when it
    /// did not in time; unknown when the client left first.
    ListsAgain,
    /// Yes when the session used this transport.
    Transport(Transport),
    /// HTTP: whether the client's requests after `initialize` carry header `name`; with
    /// `stateful`, only judged when there was an `initialize` (a session to echo).
    Header { name: &'static str, stateful: bool },
    /// 2026-07-28 `_meta` on requests, and no `initialize`.
    Stateless,
}

/// Every rule, by capability id (the ids of `content/capabilities/`).
pub(crate) const RULES: &[(&str, Rule)] = &[
    ("core.initialization", Rule::Sent("initialize")),
    ("core.discover", Rule::Sent("server/discover")),
    ("core.stateless", Rule::Stateless),
    ("core.subscriptions", Rule::Sent("subscriptions/listen")),
    ("core.cancellation", Rule::Sent("notifications/cancelled")),
    ("core.progress", Rule::Progress),
    ("tools.list", Rule::Sent("tools/list")),
    ("tools.call", Rule::SentOrUnknown("tools/call")),
    ("tools.listChanged", Rule::ListsAgain),
    ("resources.list", Rule::Sent("resources/list")),
    ("resources.read", Rule::Sent("resources/read")),
    (
        "resources.templates",
        Rule::Sent("resources/templates/list"),
    ),
    ("prompts.list", Rule::Sent("prompts/list")),
    ("prompts.get", Rule::Sent("prompts/get")),
    ("roots.list", Rule::Asked(ROOTS, Declares::Path(&["roots"]))),
    (
        "roots.listChanged",
        Rule::Declared(Declares::Path(&["roots", "listChanged"])),
    ),
    (
        "sampling.createMessage",
        Rule::Asked(SAMPLING, Declares::Path(&["sampling"])),
    ),
    (
        "sampling.tools",
        Rule::Declared(Declares::Path(&["sampling", "tools"])),
    ),
    (
        "elicitation.form",
        Rule::Asked(ELICIT_FORM, Declares::ElicitationForm),
    ),
    (
        "elicitation.url",
        Rule::Asked(ELICIT_URL, Declares::Path(&["elicitation", "url"])),
    ),
    ("transports.stdio", Rule::Transport(Transport::Stdio)),
    (
        "transports.streamableHttp",
        Rule::Transport(Transport::StreamableHttp),
    ),
    ("transports.sse", Rule::Transport(Transport::Sse)),
    (
        "transports.protocolVersionHeader",
        Rule::Header {
            name: "mcp-protocol-version",
            stateful: false,
        },
    ),
    (
        "transports.sessions",
        Rule::Header {
            name: "mcp-session-id",
            stateful: true,
        },
    ),
    (
        "transports.standardHeaders",
        Rule::Header {
            name: "mcp-method",
            stateful: false,
        },
    ),
];

/// The results of a session: every rule that could judge it.
pub(crate) fn results(transport: Transport, records: &[Record]) -> BTreeMap<&'static str, Finding> {
    let facts = Facts::new(transport, records);
    RULES
        .iter()
        .filter_map(|(id, rule)| {
            let mut finding = judge(*rule, &facts)?;
            finding.messages.sort_unstable();
            finding.messages.dedup();
            Some((*id, finding))
        })
        .collect()
}

fn finding(status: Status, why: impl Into<String>, messages: Vec<usize>) -> Option<Finding> {
    Some(Finding {
        status,
        why: why.into(),
        messages,
    })
}

fn judge(rule: Rule, facts: &Facts) -> Option<Finding> {
    match rule {
        Rule::Sent(method) => {
            let sent = facts.sent_by_client(method).next()?;
            let mut lines = vec![sent.line];
            lines.extend(facts.reply_to(sent).map(|r| r.line));
            finding(Status::Yes, format!("sent {method}"), lines)
        }
        Rule::SentOrUnknown(method) => judge(Rule::Sent(method), facts).or_else(|| {
            finding(
                Status::Unknown,
                format!("did not send {method} in this session"),
                vec![],
            )
        }),
        Rule::Progress => progress(facts),
        Rule::Declared(declares) => {
            let (line, caps) = facts.capabilities()?;
            let name = declares.name();
            if declares.holds(caps) {
                finding(
                    Status::Yes,
                    format!("declared the {name} capability"),
                    vec![line],
                )
            } else {
                finding(
                    Status::No,
                    format!("did not declare the {name} capability"),
                    vec![line],
                )
            }
        }
        Rule::Asked(scenario, declares) => asked(facts, scenario, declares),
        Rule::ListsAgain => lists_again(facts),
        Rule::Transport(transport) => used_transport(facts, transport),
        Rule::Header { name, stateful } => header(facts, name, stateful),
        Rule::Stateless => {
            if facts.initialize().is_some() {
                return None;
            }
            let first = facts.stateless_requests().next()?;
            finding(
                Status::Yes,
                "sent requests carrying 2026-07-28 _meta, without initialize",
                vec![first.line],
            )
        }
    }
}

impl Declares {
    fn name(self) -> String {
        match self {
            Declares::Path(path) => path.join("."),
            Declares::ElicitationForm => "elicitation (form)".to_string(),
        }
    }

    fn holds(self, caps: &Value) -> bool {
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

/// A request the probe sent: judged by the client's answer, else what it declared.
fn asked(facts: &Facts, scenario: Scenario, declares: Declares) -> Option<Finding> {
    let declared = facts
        .capabilities()
        .map(|(line, caps)| (line, declares.holds(caps)));
    let name = declares.name();
    let method = scenario.method;
    let sent = facts
        .sent_by_probe(method, Some(scenario.id))
        .map(|m| m.line);
    let mut lines: Vec<usize> = sent.into_iter().collect();
    lines.extend(declared.map(|(line, _)| line));
    if let Some(answer) = facts.answer(scenario.id) {
        lines.push(answer.line);
        let error = answer.msg.get("error");
        let no_roots = answer
            .msg
            .pointer("/result/roots")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty);
        return match (error, declared) {
            (None, Some((_, false))) if no_roots => finding(
                Status::No,
                format!("did not declare {name}, and answered {method} with no roots"),
                lines,
            ),
            (None, Some((_, false))) => finding(
                Status::Partial,
                format!("answered {method} with a result, without declaring {name}"),
                lines,
            ),
            (None, _) => finding(
                Status::Yes,
                format!("answered {method} with a result"),
                lines,
            ),
            (Some(e), Some((_, true))) => finding(
                Status::Partial,
                format!(
                    "declared {name} but answered {method} with error {}",
                    code(e)
                ),
                lines,
            ),
            (Some(e), _) => finding(
                Status::No,
                format!("answered {method} with error {}", code(e)),
                lines,
            ),
        };
    }
    // Without `initialize` (2026-07-28) a server asks through results that need input, not
    // with requests of its own: a request the client left unanswered says nothing.
    let stateless = facts.initialize().is_none();
    let timeout = sent
        .filter(|_| !stateless)
        .and_then(|_| facts.timed_out(scenario.id));
    lines.extend(timeout);
    match (declared, timeout) {
        (Some((_, true)), None) => finding(Status::Yes, format!("declared {name}"), lines),
        (Some((_, true)), Some(_)) => finding(
            Status::Partial,
            format!("declared {name} but did not answer {method} in time"),
            lines,
        ),
        (Some((_, false)), _) => finding(
            Status::No,
            format!("did not declare {name}, nor answer {method}"),
            lines,
        ),
        (None, Some(_)) => finding(
            Status::No,
            format!("did not answer {method} in time"),
            lines,
        ),
        (None, None) => None,
    }
}

fn code(error: &Value) -> String {
    error
        .get("code")
        .map_or_else(|| "(no code)".to_string(), Value::to_string)
}

fn lists_again(facts: &Facts) -> Option<Finding> {
    let notified = facts.sent_by_probe(scenarios::LIST_CHANGED, None)?;
    let again = facts
        .sent_by_client("tools/list")
        .find(|m| m.line > notified.line && m.is_request());
    if let Some(again) = again {
        return finding(
            Status::Yes,
            "sent tools/list again after notifications/tools/list_changed",
            vec![notified.line, again.line],
        );
    }
    // Without `initialize` (2026-07-28) list changes reach a client only on the stream it
    // opened with `subscriptions/listen`: silence after a notification says nothing.
    let timed_out = facts
        .timed_out(scenarios::LIST_CHANGED)
        .filter(|_| facts.initialize().is_some());
    match timed_out {
        Some(line) => finding(
            Status::No,
            "did not send tools/list again after notifications/tools/list_changed",
            vec![notified.line, line],
        ),
        None => finding(
            Status::Unknown,
            "left before listing tools again or the timeout",
            vec![notified.line],
        ),
    }
}

fn progress(facts: &Facts) -> Option<Finding> {
    let token = facts.messages.iter().find(|m| {
        m.incoming && m.is_request() && m.msg.pointer("/params/_meta/progressToken").is_some()
    });
    if let Some(m) = token {
        return finding(Status::Yes, "sent a progressToken", vec![m.line]);
    }
    let notified = facts.sent_by_client("notifications/progress").next()?;
    finding(
        Status::Yes,
        "sent notifications/progress",
        vec![notified.line],
    )
}

fn used_transport(facts: &Facts, transport: Transport) -> Option<Finding> {
    let first = facts.messages.iter().find(|m| m.incoming);
    if facts.transport == transport {
        let first = first?;
        return finding(
            Status::Yes,
            format!("connected over {}", transport.id()),
            vec![first.line],
        );
    }
    if (facts.transport, transport) == (Transport::Sse, Transport::StreamableHttp) {
        let (line, refused) = facts
            .http
            .iter()
            .find(|(_, h)| h.method == "POST" && matches!(h.status, 404 | 405))?;
        return finding(
            Status::Yes,
            format!(
                "tried Streamable HTTP first (POST {} answered {}), then fell back to SSE",
                refused.path, refused.status
            ),
            vec![*line],
        );
    }
    None
}

/// Whether the client's HTTP requests after `initialize` carry `name`: yes on all, partial
/// on some, no on none. Streamable HTTP only (legacy SSE has no such headers).
fn header(facts: &Facts, name: &str, stateful: bool) -> Option<Finding> {
    if facts.transport != Transport::StreamableHttp || (stateful && facts.initialize().is_none()) {
        return None;
    }
    let after = facts.initialize().map_or(0, |m: &Message| m.line);
    let requests: Vec<(usize, bool)> = facts
        .http
        .iter()
        .filter(|(line, h)| *line > after && matches!(h.method.as_str(), "POST" | "GET" | "DELETE"))
        .map(|(line, h)| (*line, h.headers.contains_key(name)))
        .collect();
    if requests.is_empty() {
        return None;
    }
    let with: Vec<usize> = requests
        .iter()
        .filter(|(_, has)| *has)
        .map(|(l, _)| *l)
        .collect();
    let without: Vec<usize> = requests
        .iter()
        .filter(|(_, has)| !*has)
        .map(|(l, _)| *l)
        .collect();
    let scope = if after > 0 { "after initialize" } else { "" };
    match (with.is_empty(), without.is_empty()) {
        (false, true) => finding(
            Status::Yes,
            format!("sent {name} on every request {scope}")
                .trim_end()
                .to_string(),
            with,
        ),
        (true, false) => finding(
            Status::No,
            format!("sent no {name} on its requests {scope}")
                .trim_end()
                .to_string(),
            without,
        ),
        _ => finding(
            Status::Partial,
            format!(
                "sent {name} on {} of {} requests {scope}",
                with.len(),
                requests.len()
            )
            .trim_end()
            .to_string(),
            without,
        ),
    }
}
