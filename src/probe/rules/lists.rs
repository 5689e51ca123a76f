//! The list rules: whether the client read a whole list (`nextCursor` followed), and whether
//! it listed again after the probe said a list changed (`tools`, `resources`, `prompts`).

use super::facts::{Facts, Message};
use super::{finding, Basis, Finding, Status};
use crate::probe::scenarios;
use serde_json::Value;

/// A list the probe says changed: its notification, and the request that lists it again.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ListChange {
    notification: &'static str,
    list: &'static str,
}

pub(super) const TOOLS_CHANGED: ListChange = ListChange {
    notification: scenarios::LIST_CHANGED,
    list: "tools/list",
};
pub(super) const RESOURCES_CHANGED: ListChange = ListChange {
    notification: scenarios::RESOURCES_LIST_CHANGED,
    list: "resources/list",
};
pub(super) const PROMPTS_CHANGED: ListChange = ListChange {
    notification: scenarios::PROMPTS_LIST_CHANGED,
    list: "prompts/list",
};

/// Whether the client listed again after a notification that came when it had the list. The
/// probe may say a list changed more than once (again once a client that lists lazily has
/// it): a notice that came after a list and was followed by one decides, else the first
/// notice after a list, else the first notice.
pub(super) fn lists_again(facts: &Facts, change: ListChange) -> Option<Finding> {
    let ListChange { notification, list } = change;
    // A later page of the list it had is no new list, and a first list is no list again.
    let first_pages =
        || (facts.sent_by_client(list)).filter(|m| m.is_request() && cursor(m).is_none());
    let notices =
        || (facts.messages.iter()).filter(|m| !m.incoming && m.method() == Some(notification));
    let after_a_list = |n: &&Message| first_pages().any(|m| m.line < n.line);
    let listed_after = |n: &&Message| first_pages().any(|m| m.line > n.line);
    let notified = (notices().filter(after_a_list).find(listed_after))
        .or_else(|| notices().find(after_a_list))
        .or_else(|| notices().next())?;
    let had = first_pages().find(|m| m.line < notified.line);
    let again = first_pages().find(|m| m.line > notified.line);
    if let (None, Some(first)) = (had, again) {
        return finding(
            Status::Unknown,
            Basis::Absent,
            format!(
                "sent {list} for the first time after {notification}: it had no list to \
                 refresh"
            ),
            vec![notified.line, first.line],
        );
    }
    if let Some(again) = again {
        return finding(
            Status::Yes,
            Basis::Did,
            format!("sent {list} again after {notification}"),
            vec![notified.line, again.line],
        );
    }
    if list != TOOLS_CHANGED.list {
        return finding(
            Status::Unknown,
            Basis::Absent,
            format!(
                "did not send {list} again after {notification} (a client that lists again \
                 only when it next needs the list looks the same)"
            ),
            vec![notified.line],
        );
    }
    // A client may refresh only when it next needs its tools, and a call its model chose before
    // the notification arrived may still go out after it: no quiet, and no later call, shows
    // that it never lists again.
    let later_call = facts
        .sent_by_client("tools/call")
        .find(|m| m.line > notified.line && m.is_request());
    match (later_call, facts.timed_out(scenarios::LIST_CHANGED)) {
        (Some(call), _) => finding(
            Status::Unknown,
            Basis::Absent,
            "called a tool after notifications/tools/list_changed without listing tools again \
             (its model may have chosen the call before the notification arrived)",
            vec![notified.line, call.line],
        ),
        (None, Some(line)) => finding(
            Status::Unknown,
            Basis::Absent,
            "did not list tools again within the timeout, nor call a tool later (a client that \
             lists again when it next needs its tools looks the same)",
            vec![notified.line, line],
        ),
        (None, None) => finding(
            Status::Unknown,
            Basis::Absent,
            "left before listing tools again or the timeout",
            vec![notified.line],
        ),
    }
}

/// The cursor a list request asked with.
fn cursor<'m>(request: &'m Message) -> Option<&'m str> {
    crate::probe::protocol::cursor(request.msg.get("params")).and_then(Value::as_str)
}

pub(super) fn lists(facts: &Facts, method: &str) -> Option<Finding> {
    let first = facts
        .sent_by_client(method)
        .find(|m| m.is_request() && cursor(m).is_none())?;
    let answer = facts.reply_to(first);
    let mut lines = vec![first.line];
    lines.extend(answer.map(|r| r.line));
    let next = answer.and_then(|r| r.msg.pointer("/result/nextCursor")?.as_str());
    let Some(next) = next else {
        return finding(Status::Yes, Basis::Did, format!("sent {method}"), lines);
    };
    match facts
        .sent_by_client(method)
        .find(|m| m.is_request() && cursor(m) == Some(next))
    {
        Some(second) => {
            lines.push(second.line);
            finding(
                Status::Yes,
                Basis::Did,
                format!("sent {method} and asked for the page its nextCursor named"),
                lines,
            )
        }
        None => finding(
            Status::Partial,
            Basis::Absent,
            format!(
                "sent {method} but never asked for the page its nextCursor named: the first \
                 page alone"
            ),
            lines,
        ),
    }
}
