//! `fieldnotes probe --protocol` and its timing, driven by a real dual-era client (rmcp's,
//! in its `Auto` lifecycle: `server/discover` first, `initialize` when refused): a current
//! probe refuses discover so the `initialize` path shows; a 2026-07-28 probe answers it and
//! asks its questions only while the client's `tools/call` is in flight. Questions and
//! `tools/list_changed` go out a settle time after what they follow.

use super::probe::{observation, status};
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Runs rmcp's `Auto` client against `fieldnotes probe stdio ARGS`: lists tools, calls the
/// tool, waits, goes.
fn run_auto_client(out: &Path, args: &[&str]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        command
            .args(["probe", "stdio", "--quiet-timeout", "1"])
            .args(args)
            .arg("--out")
            .arg(out);
        let transport = TokioChildProcess::new(command).expect("spawn the probe");
        let lifecycle = ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: None,
        };
        let client =
            ().serve_with_lifecycle(transport, lifecycle)
                .await
                .expect("rmcp connects to the probe");
        client.list_tools(None).await.expect("tools/list");
        tokio::time::sleep(Duration::from_millis(700)).await;
        let mut call = CallToolRequestParams::new("probe_echo");
        call.arguments = serde_json::json!({"text": "hi"}).as_object().cloned();
        client.call_tool(call).await.expect("tools/call");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        client.cancel().await.expect("the client closes");
    });
}

/// The 1-based line of the first transcript line matching `test`.
fn line_of(lines: &[Value], test: impl Fn(&Value) -> bool) -> Option<usize> {
    lines.iter().position(test).map(|i| i + 1)
}

fn millis(line: &Value) -> i64 {
    let t = line["t"].as_str().expect("a time");
    chrono::DateTime::parse_from_rfc3339(t)
        .expect("RFC 3339")
        .timestamp_millis()
}

fn method(line: &Value) -> Option<&str> {
    line["msg"]["method"].as_str()
}

#[test]
fn a_current_probe_refuses_discover_and_the_client_takes_its_initialize_path() {
    let out = tempfile::tempdir().expect("temp");
    run_auto_client(out.path(), &["--settle-ms", "300"]);
    let (front, lines) = observation(out.path());
    assert_eq!(front["probe"]["protocol"].as_str(), Some("current"));
    assert_eq!(front["probe"]["settleMs"].as_u64(), Some(300));
    assert_eq!(front["outcome"].as_str(), Some("session"));
    let discover = line_of(&lines, |l| {
        l["dir"] == "in" && method(l) == Some("server/discover")
    })
    .expect("the client tried server/discover first");
    let refused = &lines[discover];
    assert_eq!(refused["msg"]["error"]["code"], -32601, "{refused}");
    let initialize = line_of(&lines, |l| {
        l["dir"] == "in" && method(l) == Some("initialize")
    })
    .expect("then initialize");
    assert!(initialize > discover);
    assert_eq!(status(&front, "core.initialization"), Some("yes"));
    assert_eq!(status(&front, "core.stateless"), None);
    // The questions went out a settle time after notifications/initialized, not with it.
    let initialized = line_of(&lines, |l| method(l) == Some("notifications/initialized"))
        .expect("notifications/initialized");
    let ping = line_of(&lines, |l| l["dir"] == "out" && method(l) == Some("ping")).expect("ping");
    let waited = millis(&lines[ping - 1]) - millis(&lines[initialized - 1]);
    assert!(waited >= 300, "asked {waited} ms after initialized");
    // And list_changed a settle time after the tools/list answer.
    let listed = line_of(&lines, |l| {
        l["dir"] == "out" && l["msg"]["result"]["tools"].is_array()
    })
    .expect("the tools/list answer");
    let changed = line_of(&lines, |l| {
        method(l) == Some("notifications/tools/list_changed")
    })
    .expect("list_changed sent");
    let waited = millis(&lines[changed - 1]) - millis(&lines[listed - 1]);
    assert!(waited >= 300, "list_changed {waited} ms after the answer");
}

#[test]
fn a_2026_probe_asks_only_while_the_clients_tool_call_is_in_flight() {
    let out = tempfile::tempdir().expect("temp");
    run_auto_client(out.path(), &["--protocol", "2026-07-28"]);
    let (front, lines) = observation(out.path());
    assert_eq!(front["probe"]["protocol"].as_str(), Some("2026-07-28"));
    assert_eq!(status(&front, "core.discover"), Some("yes"));
    assert_eq!(status(&front, "core.initialization"), None);
    let call = line_of(&lines, |l| {
        l["dir"] == "in" && method(l) == Some("tools/call")
    })
    .expect("tools/call");
    let call_id = lines[call - 1]["msg"]["id"].clone();
    let answer = line_of(&lines, |l| {
        l["dir"] == "out" && l["msg"]["id"] == call_id && l["msg"].get("result").is_some()
    })
    .expect("the tools/call answer");
    // Every question of the probe's went out between the call and its answer.
    let asked: Vec<usize> = (1..=lines.len())
        .filter(|&n| {
            let l = &lines[n - 1];
            l["dir"] == "out"
                && l["msg"]["id"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("fieldnotes-probe/"))
        })
        .collect();
    assert_eq!(asked.len(), 5, "{asked:?}");
    assert!(
        asked.iter().all(|&n| call < n && n < answer),
        "asked at {asked:?}, call {call}, answer {answer}"
    );
    // No result rests on a refusal of something the probe may not send: each cites lines.
    let results = front["results"].as_mapping().expect("results");
    for (id, result) in results {
        assert!(
            result.get("basis").is_some(),
            "{id:?} says what it rests on"
        );
    }
}
