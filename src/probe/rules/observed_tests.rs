//! The tool-call rules on real transcripts: shipped clients driven by `fieldnotes probe
//! model` to call the probe's tool (tests/fixtures/observed-calls/, as the probe wrote them,
//! model-side lines included).

use super::*;
use crate::probe::transcript::Transcript;

fn judged(jsonl: &str) -> BTreeMap<&'static str, Finding> {
    let transcript = Transcript::from_jsonl(jsonl);
    let seen = Seen {
        transport: Transport::Stdio,
        mode: "stdio",
        handshake: true,
    };
    results(&seen, transcript.records())
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
