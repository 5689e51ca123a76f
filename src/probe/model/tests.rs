//! The scripted model in each API, answered without a network: a tool offered is called, a
//! result ends the turn, and the model-side line says what the client passed back.

use super::Model;
use serde_json::{json, Value};

fn model() -> (Model, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    (Model::new(dir.path().join(super::LOG)), dir)
}

fn lines(dir: &tempfile::TempDir) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.path().join(super::LOG)).expect("log");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect()
}

fn post(model: &Model, path: &str, query: &str, body: Value) -> (String, &'static str) {
    let reply = model.reply("POST", path, query, None, body.to_string().as_bytes());
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    (reply.body, reply.content_type)
}

#[test]
fn anthropic_streams_a_tool_use_and_logs_what_the_result_showed() {
    let (model, dir) = model();
    let tools = json!([{"name": "mcp__probe__probe_echo", "input_schema": {}}]);
    let (body, kind) = post(
        &model,
        "/v1/messages",
        "",
        json!({"model": "claude-x", "stream": true, "tools": tools, "messages": []}),
    );
    assert_eq!(kind, "text/event-stream");
    assert!(body.contains("event: content_block_start") && body.contains("\"tool_use\""));
    assert!(body.contains("mcp__probe__probe_echo"));
    let messages = json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1",
            "name": "mcp__probe__probe_echo", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
            "content": "{\"echo\":\"x\",\"part\":\"fieldnotes-structured-content\"}"}]}]);
    let (body, _) = post(
        &model,
        "/v1/messages",
        "",
        json!({"model": "claude-x", "tools": tools, "messages": messages}),
    );
    let whole: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(whole["stop_reason"], "end_turn");
    let logged = lines(&dir);
    assert_eq!(logged[0]["model"]["step"], "call");
    assert_eq!(logged[1]["model"]["step"], "final");
    assert_eq!(
        logged[1]["model"]["toolResults"][0]["shown"],
        "structuredContent"
    );
}

#[test]
fn responses_calls_a_namespace_tool_with_its_namespace() {
    let (model, _dir) = model();
    let tools = json!([{"type": "namespace", "name": "mcp__probe__",
        "tools": [{"type": "function", "name": "probe_echo", "parameters": {}}]}]);
    let (body, _) = post(
        &model,
        "/v1/responses",
        "",
        json!({"model": "gpt-x", "stream": true, "tools": tools, "input": []}),
    );
    assert!(body.contains("event: response.output_item.done"));
    assert!(body.contains("\"namespace\":\"mcp__probe__\""));
    assert!(body.contains("event: response.completed"));
}

#[test]
fn chat_and_gemini_answer_side_requests_with_text_and_calls_with_tools() {
    let (model, dir) = model();
    let (body, _) = post(
        &model,
        "/v1/chat/completions",
        "",
        json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "title?"}]}),
    );
    assert!(
        body.contains("\"content\":\"fieldnotes probe model\"") && body.ends_with("[DONE]\n\n")
    );
    let gemini = json!({"contents": [], "tools": [{"functionDeclarations": [
        {"name": "mcp_probe_probe_echo", "parametersJsonSchema": {}}]}]});
    let (body, kind) = post(
        &model,
        "/v1beta/models/gemini-x:streamGenerateContent",
        "alt=sse",
        gemini,
    );
    assert_eq!(kind, "text/event-stream");
    assert!(body.starts_with("data: ") && body.contains("\"functionCall\""));
    let logged = lines(&dir);
    assert_eq!(logged[0]["model"]["step"], "side");
    assert_eq!(logged[1]["model"]["api"], "gemini");
    assert_eq!(logged[1]["model"]["called"], "mcp_probe_probe_echo");
}

#[test]
fn unknown_paths_and_bodies_that_are_not_json_are_refused_and_logged() {
    let (model, dir) = model();
    let reply = model.reply("POST", "/v1/other", "", None, b"{}");
    assert_eq!(reply.status.as_u16(), 404);
    let reply = model.reply("POST", "/v1/messages", "", None, b"nope");
    assert_eq!(reply.status.as_u16(), 400);
    assert_eq!(lines(&dir).len(), 2);
}

#[test]
fn a_gemini_routing_request_gets_json_its_schema_allows() {
    let (model, _dir) = model();
    let routing = json!({"contents": [], "generationConfig": {
        "responseMimeType": "application/json",
        "responseJsonSchema": {"type": "object", "properties": {
            "reasoning": {"type": "string"},
            "model_choice": {"type": "string", "enum": ["flash", "pro"]}}}}});
    let (body, _) = post(&model, "/v1beta/models/m:generateContent", "", routing);
    let answer: Value = serde_json::from_str(&body).expect("json");
    let text = answer["candidates"][0]["content"]["parts"][0]["text"]
        .as_str()
        .expect("text");
    let routed: Value = serde_json::from_str(text).expect("the text is JSON");
    assert_eq!(routed["model_choice"], "flash");
}

#[test]
fn a_line_names_the_sessions_whose_instructions_and_result_the_model_was_shown() {
    let (model, dir) = model();
    let tools = json!([{"name": "mcp__probe__probe_echo", "input_schema": {}}]);
    let system = "fieldnotes probe (fieldnotes-instructions fieldnotes-session-3-4)";
    // The client's own text echoed back names another mark; the probe's comes last.
    let result = "fieldnotes-text-content: see fieldnotes-session-9-9 (fieldnotes-session-3-4)";
    let messages = json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1",
            "name": "mcp__probe__probe_echo", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
            "content": result}]}]);
    let request =
        json!({"model": "claude-x", "system": system, "tools": tools, "messages": messages});
    post(&model, "/v1/messages", "", request);
    let logged = lines(&dir);
    let line = &logged[0]["model"];
    assert_eq!(line["instructionsFor"], json!(["fieldnotes-session-3-4"]));
    assert_eq!(line["toolResults"][0]["session"], "fieldnotes-session-3-4");
    assert_eq!(line["toolResults"][0]["shown"], "text");
}
