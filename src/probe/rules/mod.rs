//! The rules that turn a transcript into an observation's `results`: one table, [`RULES`],
//! each entry a site capability id and the [`Rule`] that judges it. A capability the session
//! could not show is left out (or `unknown`), never guessed; each result says what it rests
//! on ([`Basis`]). A session without a handshake claims nothing but the fallback it did not
//! make ([`no_session`]).

pub(crate) mod auth;
#[cfg(test)]
mod auth_tests;
mod calls;
mod declared;
#[cfg(test)]
mod expire_tests;
mod facts;
#[cfg(test)]
mod list_tests;
mod lists;
#[cfg(test)]
mod mark_tests;
mod no_session;
#[cfg(test)]
mod observed_tests;
#[cfg(test)]
mod task_tests;
#[cfg(test)]
mod tests;
mod transport;

use crate::probe::scenarios::{self, Scenario, ELICIT_FORM, ELICIT_URL, ROOTS, SAMPLING};
use crate::probe::session::Transport;
use crate::probe::transcript::Record;
pub(crate) use declared::Declares;
use facts::Facts;
use lists::{lists, lists_again, ListChange, PROMPTS_CHANGED, RESOURCES_CHANGED, TOOLS_CHANGED};
use no_session::no_session;
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

/// What a result rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Basis {
    /// The client's declared capabilities alone: no behaviour was seen.
    Declared,
    /// What the client did: a request, an answer, a header, a transport.
    Did,
    /// The client answered the probe's request with an error.
    Refused,
    /// The client did not do it: no answer in time, no request, no fallback.
    Absent,
}

/// One capability's result: its status, what it rests on, one line of why, and the
/// transcript lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    pub status: Status,
    pub basis: Basis,
    pub why: String,
    pub messages: Vec<usize>,
}

/// What the rules need to know of the session besides its transcript.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seen {
    pub transport: Transport,
    /// The probe's mode (`stdio`, `streamable`, `sse`, `legacy-only-404`, `legacy-only-405`,
    /// `expire-session`).
    pub mode: &'static str,
    /// Whether a handshake completed (else the session is `no-session`).
    pub handshake: bool,
}

/// How a capability is judged from a transcript.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rule {
    /// Yes when the client sent this method (a request or notification); left out otherwise.
    Sent(&'static str),
    /// A list the probe gives in two pages: yes when the client asked for the page the first
    /// one's `nextCursor` names (or none was named), partial when it took the first alone.
    Lists(&'static str),
    /// Yes when the client sent a `progressToken` or a progress notification.
    Progress,
    /// From the declared capability: yes when `path` is declared, no when not.
    Declared(Declares),
    /// As `Declared`, only for a session begun with `initialize` below 2026-07-28: a core
    /// capability of 2025-11-25 that 2026-07-28 removed (tasks) ([`declared`]).
    DeclaredAtInitialize(Declares),
    /// The probe asked (`scenario`): the answer, else the declaration, else the timeout.
    Asked(Scenario, Declares),
    /// Yes when the list came again after the probe said it changed; else unknown (a client
    /// may list again only when it next needs the list).
    ListsAgain(ListChange),
    /// Yes when the session used this transport.
    Transport(Transport),
    /// HTTP: whether the client's requests after `initialize` carry header `name`; with
    /// `stateful`, only judged when there was an `initialize` (a session to echo); with
    /// `posted_requests`, only the POSTs that carried a request or notification count (not
    /// its answers, nor GET streams).
    Header {
        name: &'static str,
        stateful: bool,
        posted_requests: bool,
    },
    /// 2026-07-28 `_meta` on requests, and no `initialize`.
    Stateless,
    /// `Mcp-Session-Id` kept, and a new session begun when the probe ended one
    /// ([`transport::sessions`]).
    Sessions,
    /// The client's call of the probe's tool ([`calls`]).
    ToolCall,
    /// What the client's model was shown of the tool result ([`calls`]).
    StructuredOutput,
    /// The client's call of the probe's tool as a 2025-11-25 task ([`calls`]).
    TaskCall,
    /// The client's `notifications/cancelled`, its reason and timing ([`calls`]).
    Cancellation,
    /// Whether the server's instructions reached the client's model ([`calls`]).
    Instructions,
}

/// Every rule, by capability id (the ids of `content/capabilities/`).
pub(crate) const RULES: &[(&str, Rule)] = &[
    ("core.initialization", Rule::Sent("initialize")),
    ("core.instructions", Rule::Instructions),
    ("core.discover", Rule::Sent("server/discover")),
    ("core.stateless", Rule::Stateless),
    ("core.subscriptions", Rule::Sent("subscriptions/listen")),
    ("core.cancellation", Rule::Cancellation),
    ("core.progress", Rule::Progress),
    ("tools.list", Rule::Lists("tools/list")),
    ("tools.call", Rule::ToolCall),
    ("tools.structuredOutput", Rule::StructuredOutput),
    ("tools.listChanged", Rule::ListsAgain(TOOLS_CHANGED)),
    ("resources.list", Rule::Lists("resources/list")),
    ("resources.read", Rule::Sent("resources/read")),
    (
        "resources.templates",
        Rule::Lists("resources/templates/list"),
    ),
    ("resources.subscribe", Rule::Sent("resources/subscribe")),
    ("resources.listChanged", Rule::ListsAgain(RESOURCES_CHANGED)),
    ("prompts.list", Rule::Lists("prompts/list")),
    ("prompts.get", Rule::Sent("prompts/get")),
    ("prompts.listChanged", Rule::ListsAgain(PROMPTS_CHANGED)),
    ("completions.complete", Rule::Sent("completion/complete")),
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
    (
        "extensions.apps",
        Rule::Declared(Declares::Path(&[
            "extensions",
            "io.modelcontextprotocol/ui",
        ])),
    ),
    ("tasks.toolCalls", Rule::TaskCall),
    (
        "tasks.extension",
        Rule::Declared(Declares::Path(&[
            "extensions",
            "io.modelcontextprotocol/tasks",
        ])),
    ),
    ("logging.setLevel", Rule::Sent("logging/setLevel")),
    (
        "tasks.list",
        Rule::DeclaredAtInitialize(Declares::Path(&["tasks", "list"])),
    ),
    (
        "tasks.cancel",
        Rule::DeclaredAtInitialize(Declares::Path(&["tasks", "cancel"])),
    ),
    (
        "tasks.sampling",
        Rule::DeclaredAtInitialize(Declares::Path(&[
            "tasks",
            "requests",
            "sampling",
            "createMessage",
        ])),
    ),
    (
        "tasks.elicitation",
        Rule::DeclaredAtInitialize(Declares::Path(&[
            "tasks",
            "requests",
            "elicitation",
            "create",
        ])),
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
            posted_requests: false,
        },
    ),
    ("transports.sessions", Rule::Sessions),
    (
        "transports.standardHeaders",
        Rule::Header {
            name: "mcp-method",
            stateful: false,
            posted_requests: true,
        },
    ),
];

/// The results of a session: every rule that could judge it; of a session without a
/// handshake, only what its refused requests show.
pub(crate) fn results(seen: &Seen, records: &[Record]) -> BTreeMap<&'static str, Finding> {
    let facts = Facts::new(seen.transport, records);
    let mut out = if seen.handshake {
        RULES
            .iter()
            .filter_map(|(id, rule)| {
                let mut finding = judge(*rule, &facts)?;
                finding.messages.sort_unstable();
                finding.messages.dedup();
                Some((*id, finding))
            })
            .collect()
    } else {
        no_session(seen, &facts)
    };
    // An OAuth flow (`probe http --auth oauth`) is judged with or without a session after it.
    out.extend(auth::results(&facts));
    out
}

fn finding(
    status: Status,
    basis: Basis,
    why: impl Into<String>,
    messages: Vec<usize>,
) -> Option<Finding> {
    Some(Finding {
        status,
        basis,
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
            finding(Status::Yes, Basis::Did, format!("sent {method}"), lines)
        }
        Rule::Lists(method) => lists(facts, method),
        Rule::Progress => progress(facts),
        Rule::ToolCall => calls::tool_call(facts),
        Rule::StructuredOutput => calls::structured_output(facts),
        Rule::TaskCall => calls::task_call(facts),
        Rule::Cancellation => calls::cancellation(facts),
        Rule::Instructions => calls::instructions(facts),
        Rule::Declared(declares) => declared::declared(facts, declares),
        Rule::DeclaredAtInitialize(declares) => declared::declared_at_initialize(facts, declares),
        Rule::Asked(scenario, declares) => asked(facts, scenario, declares),
        Rule::ListsAgain(change) => lists_again(facts, change),
        Rule::Transport(transport) => transport::used_transport(facts, transport),
        Rule::Sessions => transport::sessions(facts),
        Rule::Header {
            name,
            stateful,
            posted_requests,
        } => transport::header(facts, name, stateful, posted_requests),
        Rule::Stateless => {
            if facts.initialize().is_some() {
                return None;
            }
            let first = facts.stateless_requests().next()?;
            finding(
                Status::Yes,
                Basis::Did,
                "sent requests carrying 2026-07-28 _meta, without initialize",
                vec![first.line],
            )
        }
    }
}

/// A request the probe sent: judged by the client's answer; without one, by the declaration
/// (said to be only that), or by the timeout. A request the probe never sent (2026-07-28
/// without a request in flight) leaves the declaration alone to speak.
fn asked(facts: &Facts, scenario: Scenario, declares: Declares) -> Option<Finding> {
    let declared = facts
        .capabilities()
        .map(|(line, caps)| (line, declares.holds(caps)));
    let name = declares.name();
    // A question asked during a tool call speaks for the capability before one asked after
    // the handshake.
    let during = scenarios::in_call(scenario)
        .filter(|s| facts.sent_by_probe(s.method, Some(s.id)).is_some());
    let scenario = during.unwrap_or(scenario);
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
                Basis::Did,
                format!("did not declare {name}, and answered {method} with no roots"),
                lines,
            ),
            (None, Some((_, false))) => finding(
                Status::Partial,
                Basis::Did,
                format!("answered {method} with a result, without declaring {name}"),
                lines,
            ),
            (None, _) => finding(
                Status::Yes,
                Basis::Did,
                match (
                    during,
                    answer.msg.pointer("/result/action").and_then(Value::as_str),
                ) {
                    (Some(_), Some(action)) => {
                        format!("answered {method} during a tool call: action {action}")
                    }
                    (Some(_), None) => format!("answered {method} during a tool call"),
                    (None, _) => format!("answered {method} with a result"),
                },
                lines,
            ),
            (Some(e), Some((_, true))) => finding(
                Status::Partial,
                Basis::Refused,
                format!(
                    "declared {name} but answered {method}{} with error {}",
                    if during.is_some() {
                        " during a tool call"
                    } else {
                        ""
                    },
                    code(e)
                ),
                lines,
            ),
            (Some(e), _) => finding(
                Status::No,
                Basis::Refused,
                format!("answered {method} with error {}", code(e)),
                lines,
            ),
        };
    }
    let timeout = sent.and_then(|_| facts.timed_out(scenario.id));
    lines.extend(timeout);
    match (declared, timeout) {
        (Some((_, true)), None) => finding(
            Status::Yes,
            Basis::Declared,
            if sent.is_some() {
                format!("declared {name}; left before answering {method}")
            } else {
                format!("declared {name} (the probe did not ask)")
            },
            lines,
        ),
        (Some((_, true)), Some(_)) => finding(
            Status::Partial,
            Basis::Absent,
            format!("declared {name} but did not answer {method} in time"),
            lines,
        ),
        (Some((_, false)), Some(_)) => finding(
            Status::No,
            Basis::Absent,
            format!("did not declare {name}, nor answer {method} in time"),
            lines,
        ),
        (Some((_, false)), None) => finding(
            Status::No,
            Basis::Declared,
            format!("did not declare {name}"),
            lines,
        ),
        (None, Some(_)) => finding(
            Status::No,
            Basis::Absent,
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

fn progress(facts: &Facts) -> Option<Finding> {
    let token = facts.messages.iter().find(|m| {
        m.incoming && m.is_request() && m.msg.pointer("/params/_meta/progressToken").is_some()
    });
    if let Some(m) = token {
        return finding(
            Status::Yes,
            Basis::Did,
            "sent a progressToken",
            vec![m.line],
        );
    }
    let notified = facts.sent_by_client("notifications/progress").next()?;
    finding(
        Status::Yes,
        Basis::Did,
        "sent notifications/progress",
        vec![notified.line],
    )
}
