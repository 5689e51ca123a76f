//! The rules on real transcripts: shipped clients driven by `fieldnotes probe model` to call
//! the probe's tool (tests/fixtures/observed-calls/, as the probe wrote them, model-side
//! lines included), and recorded sessions of content/observations/ (log level, tasks).

use super::*;
use crate::probe::transcript::Transcript;

fn judged(jsonl: &str) -> BTreeMap<&'static str, Finding> {
    let seen = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    results_of(&seen, jsonl)
}

fn results_of(seen: &Seen, jsonl: &str) -> BTreeMap<&'static str, Finding> {
    results(seen, Transcript::from_jsonl(jsonl).records())
}

fn said(results: &BTreeMap<&'static str, Finding>, id: &str) -> (Status, String) {
    let found = results.get(id).unwrap_or_else(|| panic!("no {id} result"));
    (found.status, found.why.clone())
}

const CLAUDE: &str = include_str!("../../../tests/fixtures/observed-calls/claude-code.jsonl");
const CODEX: &str = include_str!("../../../tests/fixtures/observed-calls/codex.jsonl");
const OPENCODE: &str = include_str!("../../../tests/fixtures/observed-calls/opencode.jsonl");
const QWEN: &str = include_str!("../../../tests/fixtures/observed-calls/qwen-code.jsonl");
const GEMINI: &str = include_str!("../../../tests/fixtures/observed-calls/gemini-cli.jsonl");

#[test]
fn what_each_client_showed_its_model_of_a_structured_result() {
    for (client, jsonl, status, shown) in [
        (
            "claude-code",
            CLAUDE,
            Status::Yes,
            "only the structuredContent",
        ),
        ("codex", CODEX, Status::Yes, "only the structuredContent"),
        ("qwen-code", QWEN, Status::Yes, "both"),
        ("opencode", OPENCODE, Status::Partial, "only the text"),
        ("gemini-cli", GEMINI, Status::Partial, "only the text"),
    ] {
        let results = judged(jsonl);
        let (found, why) = said(&results, "tools.structuredOutput");
        assert_eq!(found, status, "{client}: {why}");
        assert!(why.contains(shown), "{client}: {why}");
        assert_eq!(said(&results, "tools.call").0, Status::Yes, "{client}");
        assert_eq!(said(&results, "core.progress").0, Status::Yes, "{client}");
    }
}

#[test]
fn an_elicitation_during_a_call_is_judged_by_its_answer_there() {
    let (status, why) = said(&judged(CLAUDE), "elicitation.form");
    assert_eq!(status, Status::Yes);
    assert!(why.ends_with("during a tool call: action cancel"), "{why}");
    let (_, why) = said(&judged(CODEX), "elicitation.url");
    assert!(why.ends_with("during a tool call: action decline"), "{why}");
    // Gemini CLI declares no elicitation: no question during the call, the handshake's
    // refusal speaks.
    let (status, why) = said(&judged(GEMINI), "elicitation.form");
    assert_eq!(status, Status::No);
    assert!(!why.contains("during a tool call"), "{why}");
}

#[test]
fn a_cancellation_says_its_reason_and_whether_the_result_was_already_in() {
    let claude = include_str!("../../../tests/fixtures/observed-calls/claude-code-cancel.jsonl");
    let (status, why) = said(&judged(claude), "core.cancellation");
    assert_eq!(status, Status::Yes);
    assert!(
        why.contains("tools/call while it was in flight, reason \"SdkError: Request timed out\""),
        "{why}"
    );
    let (_, why) = said(&judged(OPENCODE), "core.cancellation");
    assert!(why.contains("tools/call after it had the result"), "{why}");
    // Gemini CLI cancels a tools/list first; the cancelled tool call is the one reported.
    let gemini = include_str!("../../../tests/fixtures/observed-calls/gemini-cli-cancel.jsonl");
    let (_, why) = said(&judged(gemini), "core.cancellation");
    assert!(why.contains("tools/call while it was in flight"), "{why}");
    assert!(!judged(CLAUDE).contains_key("core.cancellation"));
}

const VSCODE: &str =
    include_str!("../../../content/observations/vscode-4-139-1-stdio-20261206-224101.jsonl");

/// VS Code (code-server 4.139.1) sets the log level right after `initialize` (lines 3-4) and
/// declares every 2025-11-25 task capability in it (line 1).
#[test]
fn vscode_sets_the_log_level_and_declares_tasks() {
    let results = judged(VSCODE);
    let found = &results["logging.setLevel"];
    assert_eq!(
        (found.status, found.basis, found.why.as_str()),
        (Status::Yes, Basis::Did, "sent logging/setLevel")
    );
    assert_eq!(found.messages, vec![3, 4]);
    for (id, declared) in [
        ("tasks.list", "tasks.list"),
        ("tasks.cancel", "tasks.cancel"),
        ("tasks.sampling", "tasks.requests.sampling.createMessage"),
        ("tasks.elicitation", "tasks.requests.elicitation.create"),
    ] {
        let found = &results[id];
        assert_eq!(
            (found.status, found.basis, found.messages.as_slice()),
            (Status::Yes, Basis::Declared, [1].as_slice()),
            "{id}"
        );
        assert_eq!(found.why, format!("declared the {declared} capability"));
    }
}

/// Codex declares no tasks at `initialize`: each task capability is no, from the
/// declaration; it never sets a log level, which leaves that out.
#[test]
fn a_client_declaring_no_tasks_at_initialize_is_no_for_each() {
    let results = judged(CODEX);
    for id in [
        "tasks.list",
        "tasks.cancel",
        "tasks.sampling",
        "tasks.elicitation",
    ] {
        let found = &results[id];
        assert_eq!(
            (found.status, found.basis),
            (Status::No, Basis::Declared),
            "{id}"
        );
        assert!(
            found.why.starts_with("did not declare the tasks."),
            "{}",
            found.why
        );
    }
    assert!(!results.contains_key("logging.setLevel"));
}

/// 2026-07-28 has no core tasks: Goose's stateless session (no `initialize`), and Copilot
/// CLI's `initialize` the probe answered at 2026-07-28, get no core task result; the same
/// Copilot CLI answered at 2025-11-25 does. The tasks extension of 2026-07-28 is judged in
/// every session whose capabilities are known.
#[test]
fn a_2026_07_28_session_gets_no_task_result() {
    let tasks = |results: &BTreeMap<&str, Finding>| {
        let core = |id: &&&str| id.starts_with("tasks.") && **id != "tasks.extension";
        assert_eq!(results["tasks.extension"].status, Status::No);
        results.keys().filter(core).count()
    };
    let goose = include_str!(
        "../../../content/observations/goose-1-52-0-stdio-2026-07-28-20261207-011412.jsonl"
    );
    let results = judged(goose);
    assert_eq!(results["core.stateless"].status, Status::Yes);
    assert_eq!(tasks(&results), 0);
    let sse = Seen {
        transport: Transport::Sse,
        mode: "sse",
        handshake: true,
    };
    let copilot = |jsonl: &str| results_of(&sse, jsonl);
    let next = copilot(include_str!(
        "../../../content/observations/copilot-cli-1-0-102-sse-2026-07-28-20261206-092149.jsonl"
    ));
    assert_eq!(next["core.initialization"].status, Status::Yes);
    assert_eq!(tasks(&next), 0);
    let current = copilot(include_str!(
        "../../../content/observations/copilot-cli-1-0-102-sse-20261206-091654.jsonl"
    ));
    assert_eq!(tasks(&current), 4);
    assert_eq!(current["tasks.list"].status, Status::No);
}
