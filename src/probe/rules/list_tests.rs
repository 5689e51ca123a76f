//! The list-changed rules (`tools.listChanged`, `resources.listChanged`,
//! `prompts.listChanged`) on hand-made transcripts.

use super::tests::{init, reply, request, result, status, timeout, transcript};
use super::*;
use serde_json::json;

#[test]
fn tools_list_changed_is_yes_on_a_new_list_and_unknown_without_one() {
    let notified = ("out", scenarios::list_changed(None));
    let before = [
        init(json!({})),
        request(1, "tools/list"),
        reply(json!(1)),
        notified.clone(),
    ];
    let mut again = before.to_vec();
    again.push(request(2, "tools/list"));
    let found = result(&again, "tools.listChanged").expect("judged");
    assert_eq!((found.status, found.messages), (Status::Yes, vec![4, 5]));
    let mut late = before.to_vec();
    late.push(timeout(scenarios::LIST_CHANGED));
    // Quiet after the notification is no proof: it may list again when it next needs tools.
    assert_eq!(status(&late, "tools.listChanged"), Some(Status::Unknown));
    // Nor is a tool called after it: the model may have chosen the call before it arrived.
    late.push(request(2, "tools/call"));
    let found = result(&late, "tools.listChanged").expect("judged");
    assert_eq!(
        (found.status, found.messages),
        (Status::Unknown, vec![4, 6])
    );
    assert!(found.why.contains("called a tool after"), "{}", found.why);
    assert_eq!(status(&before, "tools.listChanged"), Some(Status::Unknown));
    assert_eq!(status(&before[..3], "tools.listChanged"), None);
}

#[test]
fn resource_and_prompt_list_changes_are_yes_on_a_new_list_and_unknown_without_one() {
    let [resources, prompts] = scenarios::other_lists_changed();
    for (id, notification, list) in [
        ("resources.listChanged", resources, "resources/list"),
        ("prompts.listChanged", prompts, "prompts/list"),
    ] {
        let before = [init(json!({})), request(1, list), reply(json!(1))];
        assert_eq!(status(&before, id), None, "{id}: not said to change");
        let mut notified = before.to_vec();
        notified.push(("out", notification));
        let found = result(&notified, id).expect(id);
        assert_eq!((found.status, found.messages), (Status::Unknown, vec![4]));
        // Listing the other list again is not this one, nor is a later page of the old one.
        notified.push(request(2, "tools/list"));
        notified.push((
            "in",
            json!({"jsonrpc":"2.0","id":4,"method":list,"params":{"cursor":"p2"}}),
        ));
        assert_eq!(status(&notified, id), Some(Status::Unknown), "{id}");
        notified.push(request(3, list));
        let found = result(&notified, id).expect(id);
        assert_eq!(
            (found.status, found.messages),
            (Status::Yes, vec![4, 7]),
            "{id}"
        );
    }
}

#[test]
fn a_first_list_after_the_notification_is_no_list_again() {
    let [resources, _] = scenarios::other_lists_changed();
    for (id, notification, list) in [
        (
            "tools.listChanged",
            scenarios::list_changed(None),
            "tools/list",
        ),
        ("resources.listChanged", resources, "resources/list"),
    ] {
        let first = [
            init(json!({})),
            ("out", notification),
            request(1, list),
            reply(json!(1)),
        ];
        let found = result(&first, id).expect(id);
        assert_eq!(
            (found.status, found.basis, found.messages),
            (Status::Unknown, Basis::Absent, vec![2, 3]),
            "{id}"
        );
        assert!(
            found.why.contains("for the first time"),
            "{id}: {}",
            found.why
        );
        // With a list of its own before the notification, the same request is a list again.
        let again = [
            init(json!({})),
            request(0, list),
            reply(json!(0)),
            first[1].clone(),
            request(1, list),
        ];
        assert_eq!(status(&again, id), Some(Status::Yes), "{id}");
    }
}

#[test]
fn a_list_fetched_lazily_is_judged_by_the_notice_that_came_after_it() {
    let seen = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    let changed = (
        "out",
        json!({"jsonrpc":"2.0","method":"notifications/resources/list_changed"}),
    );
    let list = |id: u64| {
        (
            "in",
            json!({"jsonrpc":"2.0","id":id,"method":"resources/list"}),
        )
    };
    // Told with the tools before any list; listed when a picker opened; told again.
    let told_twice = vec![
        init(json!({})),
        reply(json!(0)),
        changed.clone(),
        list(5),
        reply(json!(5)),
        changed,
    ];
    // Listed again after the second notice.
    let lazy = transcript(&[told_twice.clone(), vec![list(6)]].concat());
    let found = &results(&seen, &lazy)["resources.listChanged"];
    assert_eq!(found.status, Status::Yes, "{}", found.why);
    assert_eq!(found.messages, vec![6, 7]);
    // No list followed: the second notice speaks, not the first.
    let quiet = transcript(&told_twice);
    let found = &results(&seen, &quiet)["resources.listChanged"];
    assert_eq!(found.status, Status::Unknown);
    assert!(
        found.why.starts_with("did not send resources/list again"),
        "{}",
        found.why
    );
}
