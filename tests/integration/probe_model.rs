//! `fieldnotes probe model` driven by a client this project did not write: rmcp's client
//! connects to `probe stdio`, and a minimal agent loop asks the scripted model (OpenAI Chat
//! Completions, over HTTP) what to do, calls the tool it names, and passes the model the
//! result's text alone. The observation joins the model-side lines: the call shows, and what
//! the model was shown of the result.

use super::probe::{observations, read_observation, status};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts `probe model --port 0 --out OUT`: the child and the `host:port` it printed.
fn scripted_model(out: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["probe", "model", "--port", "0", "--out"])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fieldnotes probe model");
    let mut url = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("the URL");
    let address = url.trim().trim_start_matches("http://").to_string();
    (child, address)
}

/// POSTs `body` as JSON to `path` on `address` (HTTP/1.1, one request a connection): the
/// response body as JSON.
fn post(address: &str, path: &str, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = TcpStream::connect(address).expect("connect to the scripted model");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    serde_json::from_str(body).expect("a JSON body")
}

#[test]
fn an_rmcp_agent_loop_calls_the_tool_the_scripted_model_asks_for() {
    let out = tempfile::tempdir().expect("temp dir");
    let (mut model, address) = scripted_model(out.path());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let probe = || {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        command
            .args(["probe", "stdio", "--quiet-timeout", "1", "--out"])
            .arg(out.path());
        TokioChildProcess::new(command).expect("spawn the probe")
    };
    let (first, last) = runtime.block_on(async {
        // A bystander: a second probe session, open the whole time, that never calls the
        // tool. The model's lines fall in its time too; the one that carries the result
        // is the other session's, and must not be judged here.
        let bystander = ().serve(probe()).await.expect("rmcp connects to a second probe");
        bystander.list_tools(None).await.expect("tools/list");
        let client = ().serve(probe()).await.expect("rmcp connects to the probe");
        let tools: Vec<Value> = (client.list_tools(None).await.expect("tools/list").tools)
            .into_iter()
            .map(|t| {
                json!({"type": "function", "function": {"name": t.name,
                    "parameters": Value::Object((*t.input_schema).clone())}})
            })
            .collect();
        let mut messages = vec![json!({"role": "user", "content": "Call the probe's tool."})];
        let request = |messages: &Vec<Value>| {
            json!({"model": "any-name", "messages": messages, "tools": tools})
        };
        let first = post(&address, "/v1/chat/completions", &request(&messages));
        let call = &first["choices"][0]["message"]["tool_calls"][0];
        let name = call["function"]["name"].as_str().expect("a tool name");
        let arguments: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().expect("arguments"))
                .expect("JSON arguments");
        let mut params = CallToolRequestParams::new(name.to_string());
        params.arguments = arguments.as_object().cloned();
        let result = client.call_tool(params).await.expect("tools/call");
        let result = serde_json::to_value(&result).expect("a result");
        // This agent shows its model the text alone.
        messages.push(first["choices"][0]["message"].clone());
        messages.push(json!({"role": "tool", "tool_call_id": call["id"],
            "content": result["content"][0]["text"]}));
        let last = post(&address, "/v1/chat/completions", &request(&messages));
        client.cancel().await.expect("the client closes");
        bystander.cancel().await.expect("the bystander closes");
        (first, last)
    });
    assert_eq!(first["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(last["choices"][0]["finish_reason"], "stop");
    let _ = model.kill();
    let _ = model.wait();
    let sessions: Vec<_> = observations(out.path())
        .iter()
        .map(|md| read_observation(md))
        .collect();
    assert_eq!(sessions.len(), 2, "two sessions observed");
    let called =
        |(front, _): &&(serde_yaml::Value, Vec<Value>)| status(front, "tools.call") == Some("yes");
    let (front, lines) = sessions
        .iter()
        .find(called)
        .expect("the session that called");
    let (other, other_lines) = sessions.iter().find(|s| !called(s)).expect("the bystander");
    assert_eq!(status(other, "tools.structuredOutput"), None);
    let results_seen = |lines: &[Value]| {
        (lines.iter())
            .filter(|l| l["dir"] == "model" && l["model"]["toolResults"].is_array())
            .count()
    };
    assert_eq!(
        results_seen(other_lines),
        0,
        "the result line stays with its session"
    );
    assert!(
        (other_lines.iter()).any(|l| l["note"].as_str().is_some_and(
            |n| n.starts_with("model-side lines of another probe session left out: 1")
        )),
        "the bystander's transcript says a line was left out"
    );
    assert_eq!(status(front, "tools.call"), Some("yes"));
    assert_eq!(status(front, "tools.structuredOutput"), Some("partial"));
    let why = front["results"]["tools.structuredOutput"]["why"]
        .as_str()
        .expect("why");
    assert!(why.contains("only the text"), "{why}");
    // The model-side lines sit in the transcript, in time order with the MCP lines.
    let model_lines: Vec<&Value> = lines.iter().filter(|l| l["dir"] == "model").collect();
    assert_eq!(model_lines.len(), 2, "{model_lines:?}");
    assert_eq!(model_lines[0]["model"]["step"], "call");
    assert_eq!(model_lines[1]["model"]["toolResults"][0]["shown"], "text");
    let call_line = lines
        .iter()
        .position(|l| l["msg"]["method"] == "tools/call")
        .expect("the call");
    let first_model = lines
        .iter()
        .position(|l| l["dir"] == "model")
        .expect("a model line");
    // Time order: the probe and the model are two processes; both stamp to the microsecond,
    // so the model's answer sorts before the call it caused.
    let stamp = |i: usize| lines[i]["t"].as_str().unwrap_or_default().to_string();
    assert_eq!(stamp(call_line).len(), "2026-12-06T00:00:00.000000Z".len());
    assert!(
        first_model < call_line && stamp(first_model) < stamp(call_line),
        "the model asked before the client called"
    );
}
