//! `fieldnotes probe` driven by clients this project did not write (rmcp's client) and by a
//! misbehaving one; each test reads the observation the probe wrote. The official Python and
//! TypeScript SDKs drive it from `.ci/run` (tests/probe/).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `probe http ARGS` on a free port: the child and the `host:port` it printed.
pub(super) fn serve_http(out: &Path, args: &[&str]) -> (Child, String) {
    let mut all = vec!["http", "--port", "0"];
    all.extend_from_slice(args);
    let mut child = probe(out, &all);
    let mut url = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("the URL");
    let address = url
        .trim()
        .strip_prefix("http://")
        .and_then(|u| u.split_once('/').map(|(a, _)| a.to_string()))
        .expect("http://ADDRESS/PATH");
    (child, address)
}

/// The probe, started with `args`, observations into `out`.
pub(super) fn probe(out: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("probe")
        .args(args)
        .arg("--out")
        .arg(out)
        .args(["--quiet-timeout", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fieldnotes probe")
}

/// The observations in `out` (`.md` files), sorted.
pub(super) fn observations(out: &Path) -> Vec<PathBuf> {
    let mut mds: Vec<PathBuf> = std::fs::read_dir(out)
        .expect("observations written")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    mds.sort();
    mds
}

/// The one observation in `out` of a session (no-session observations of refused requests
/// beside it are left out): its front matter and transcript lines.
pub(super) fn observation(out: &Path) -> (serde_yaml::Value, Vec<serde_json::Value>) {
    let mds: Vec<PathBuf> = observations(out)
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("-no-session-"))
        .collect();
    assert_eq!(mds.len(), 1, "one observation: {mds:?}");
    read_observation(&mds[0])
}

/// One observation's front matter and transcript lines.
pub(super) fn read_observation(md: &Path) -> (serde_yaml::Value, Vec<serde_json::Value>) {
    let out = md.parent().expect("a folder");
    let text = std::fs::read_to_string(md).expect("read the observation");
    let yaml = text
        .strip_prefix("---\n")
        .and_then(|t| t.split("\n---\n").next())
        .expect("front matter");
    let front: serde_yaml::Value = serde_yaml::from_str(yaml).expect("front matter parses");
    let jsonl = out.join(front["transcript"].as_str().expect("transcript named"));
    let lines = std::fs::read_to_string(jsonl)
        .expect("read the transcript")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (front, lines)
}

/// The status of capability `id` in the observation's results.
pub(super) fn status<'a>(front: &'a serde_yaml::Value, id: &str) -> Option<&'a str> {
    front["results"].get(id)?.get("status")?.as_str()
}

/// Waits for the child to exit, at most 10 s.
pub(super) fn exits(child: &mut Child) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the probe did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn rmcp_client_over_stdio_is_recorded_with_its_results() {
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::TokioChildProcess;
    use rmcp::ServiceExt;
    let out = tempfile::tempdir().expect("temp");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
        command
            .args([
                "probe",
                "stdio",
                "--quiet-timeout",
                "1",
                "--command",
                "rmcp test",
            ])
            .arg("--out")
            .arg(out.path());
        let transport = TokioChildProcess::new(command).expect("spawn the probe");
        let client = ().serve(transport).await.expect("rmcp connects to the probe");
        // Each list in full: the probe gives two pages.
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(tools[0].name, "probe_echo");
        let mut call = CallToolRequestParams::new("probe_echo");
        call.arguments = serde_json::json!({"text": "hi"}).as_object().cloned();
        client.call_tool(call).await.expect("tools/call");
        client.list_all_resources().await.expect("resources/list");
        client.list_all_prompts().await.expect("prompts/list");
        // Time for the probe's requests to be answered, then the client goes.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        client.cancel().await.expect("the client closes");
    });
    let (front, lines) = observation(out.path());
    eprintln!("{}", serde_yaml::to_string(&front).unwrap_or_default());
    assert_eq!(front["transport"].as_str(), Some("stdio"));
    assert_eq!(front["command"].as_str(), Some("rmcp test"));
    assert_eq!(front["clientInfo"]["name"].as_str(), Some("rmcp"));
    for id in [
        "tools.list",
        "tools.call",
        "resources.list",
        "prompts.list",
        "transports.stdio",
    ] {
        assert_eq!(status(&front, id), Some("yes"), "{id}");
    }
    // Every result cites transcript lines that exist.
    let results = front["results"].as_mapping().expect("results");
    for (id, result) in results {
        for line in result["messages"].as_sequence().expect("messages") {
            let line = line.as_u64().expect("a line number") as usize;
            assert!(
                (1..=lines.len()).contains(&line),
                "{id:?} cites line {line}"
            );
        }
    }
}

#[test]
fn a_misbehaving_client_is_recorded_and_the_probe_survives() {
    let out = tempfile::tempdir().expect("temp");
    let mut child = probe(out.path(), &["stdio"]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"this is not json\n").expect("write");
    stdin
        .write_all(&vec![b'{'; 3 << 20])
        .expect("write a huge line");
    stdin
        .write_all(b"\n[1, 2]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
        .expect("write");
    let mut replies = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    replies.read_line(&mut first).expect("a reply");
    assert!(first.contains("-32700"), "a parse error first: {first}");
    drop(stdin);
    assert!(exits(&mut child).success());
    // No handshake: an observation of the attempt, claiming nothing (not even stdio).
    let mds = observations(out.path());
    assert_eq!(mds.len(), 1, "{mds:?}");
    let (front, lines) = read_observation(&mds[0]);
    assert_eq!(front["outcome"].as_str(), Some("no-session"));
    assert_eq!(status(&front, "core.initialization"), None);
    assert_eq!(status(&front, "tools.list"), None);
    assert_eq!(status(&front, "transports.stdio"), None);
    let notes: Vec<&str> = lines.iter().filter_map(|l| l["note"].as_str()).collect();
    assert!(
        notes.iter().any(|n| n.starts_with("unparseable input")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("over the")), "{notes:?}");
    assert!(notes.contains(&"client closed stdin"), "{notes:?}");
    let bytes: usize = lines.iter().map(|l| l.to_string().len()).sum();
    assert!(
        bytes < 64 << 10,
        "the huge line is not kept ({bytes} bytes)"
    );
}

#[test]
fn a_probe_killed_mid_session_still_writes_the_observation() {
    let out = tempfile::tempdir().expect("temp");
    let mut child = probe(out.path(), &["stdio"]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"killed","version":"1.0"}}}"#)
        .expect("write");
    stdin.write_all(b"\n").expect("write");
    let mut replies = BufReader::new(child.stdout.take().expect("stdout"));
    let mut reply = String::new();
    replies.read_line(&mut reply).expect("initialize answered");
    assert!(reply.contains("\"2025-06-18\""), "{reply}");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    assert!(exits(&mut child).success());
    let (front, lines) = observation(out.path());
    assert_eq!(front["client"].as_str(), Some("killed"));
    assert_eq!(front["protocolVersion"].as_str(), Some("2025-06-18"));
    assert_eq!(status(&front, "roots.list"), Some("yes"));
    assert_eq!(
        lines.last().and_then(|l| l["note"].as_str()),
        Some("probe received SIGTERM")
    );
    drop(stdin);
}

/// One HTTP/1.1 request on a fresh connection: the status and the whole response.
pub(super) fn http(
    address: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let answer = crate::mcp::request(address, method, headers, body, Duration::from_secs(10));
    (
        answer.status,
        format!("{}\r\n\r\n{}", answer.head, answer.body),
    )
}

#[test]
fn a_streamable_http_session_is_recorded_with_its_headers_and_ended_by_delete() {
    let out = tempfile::tempdir().expect("temp");
    let (mut child, address) = serve_http(out.path(), &[]);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    let (code, response) = http(&address, "POST", &[("Accept", "application/json")], init);
    assert_eq!(code, 200, "{response}");
    let session = response
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_string();
    let with = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
        ("Authorization", "Bearer secret-value"),
    ];
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(http(&address, "POST", &with, initialized).0, 202);
    let (code, _) = http(&address, "POST", &[("Mcp-Session-Id", "nope")], initialized);
    assert_eq!(code, 404);
    let (code, _) = http(
        &address,
        "POST",
        &[("Origin", "https://evil.example")],
        init,
    );
    assert_eq!(code, 403);
    assert_eq!(http(&address, "DELETE", &with, "").0, 200);
    let started = Instant::now();
    // The probe writes each file as a hidden temporary one and renames it: count the two
    // named files only (counting every entry raced with a rename under load).
    let written = |dir: &Path| {
        std::fs::read_dir(dir).map_or(0, |d| {
            d.flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .count()
        })
    };
    while written(out.path()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no observation written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (front, lines) = observation(out.path());
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    exits(&mut child);
    assert_eq!(front["transport"].as_str(), Some("streamableHttp"));
    assert_eq!(status(&front, "transports.streamableHttp"), Some("yes"));
    assert_eq!(status(&front, "transports.sessions"), Some("yes"));
    assert_eq!(
        status(&front, "transports.protocolVersionHeader"),
        Some("yes")
    );
    let text: String = lines.iter().map(|l| l.to_string()).collect();
    assert!(
        !text.contains("secret-value") && text.contains("<redacted>"),
        "{text}"
    );
    assert!(text.contains("\"DELETE\""));
}
