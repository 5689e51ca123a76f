//! The manual's editor and agent snippets, run: every fenced block of the Editors and Agents
//! guides that starts fieldnotes gives its command line (read as the editor or agent reads
//! its config: Lua's `cmd`, TOML's `command` and `args`, JSON's `command` and `args`, a shell
//! line), and each is run as the example drift workflow's commands are
//! (`provenance/ci.rs`): a language server must answer `initialize`, a stdio MCP server its
//! `initialize`, a lint run must start; an HTTP address must be the one `mcp --http` serves.

use super::guide;
use crate::support::TestSite;
use clap::Parser;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Where `fieldnotes mcp --http` listens unless told otherwise.
const MCP_URL: &str = "http://127.0.0.1:8765/mcp";

/// A fenced code block, with the heading it is under.
struct Block {
    heading: String,
    lang: String,
    text: String,
}

fn blocks(page: &str) -> Vec<Block> {
    let (mut out, mut heading, mut open): (Vec<Block>, String, Option<Block>) =
        (Vec::new(), String::new(), None);
    for line in page.lines() {
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => {
                    open = Some(Block {
                        heading: heading.clone(),
                        lang: fence.trim().to_string(),
                        text: String::new(),
                    })
                }
            }
            continue;
        }
        match &mut open {
            Some(block) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            None if line.starts_with("## ") || line.starts_with("### ") => {
                heading = line.trim_start_matches('#').trim().to_string();
            }
            None => {}
        }
    }
    out
}

/// The `"…"` strings of `text`, in order.
fn quoted(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// `fieldnotes lint --format concise` as a command line.
fn words(command: &str) -> Vec<String> {
    command.split_whitespace().map(String::from).collect()
}

/// The fieldnotes command lines a block runs.
fn command_lines(block: &Block) -> Vec<Vec<String>> {
    let text = &block.text;
    let mut found = Vec::new();
    match block.lang.as_str() {
        "lua" => {
            for cmd in text.split("cmd = {").skip(1) {
                found.push(quoted(cmd.split('}').next().unwrap_or("")));
            }
            (quoted(text).into_iter())
                .filter(|s| s.starts_with("fieldnotes "))
                .for_each(|s| found.push(words(&s)));
        }
        "toml" | "kak" => {
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for (i, line) in lines.iter().enumerate() {
                let Some(command) = line.strip_prefix("command = ") else {
                    continue;
                };
                let args = lines[i..].iter().find_map(|l| l.strip_prefix("args = "));
                let mut argv = quoted(command);
                argv.extend(args.map(quoted).unwrap_or_default());
                found.push(argv);
            }
        }
        "json" => {
            let value: Value = serde_json::from_str(text).unwrap_or_else(|e| {
                panic!("{}: a JSON block that is not JSON: {e}", block.heading)
            });
            json_commands(&value, &mut found);
        }
        "sh" => {
            // A command starts a line, or follows `--` (`claude mcp add … -- fieldnotes mcp`).
            for line in text.lines() {
                let starts = (line.match_indices("fieldnotes ").map(|(at, _)| at))
                    .filter(|&at| at == 0 || line[..at].ends_with("-- "));
                for at in starts {
                    let command = line[at..].split(['|', '>', '&']).next().unwrap_or("");
                    found.push(words(command));
                }
            }
        }
        _ => {}
    }
    found
}

fn json_commands(value: &Value, found: &mut Vec<Vec<String>>) {
    let strings = |v: Option<&Value>| -> Vec<String> {
        (v.and_then(Value::as_array).into_iter().flatten())
            .filter_map(|s| s.as_str().map(String::from))
            .collect()
    };
    match value {
        Value::Object(object) => {
            for (command, args) in [
                ("command", "args"),
                ("glspc.server.command", "glspc.server.commandArguments"),
            ] {
                if let Some(program) = object.get(command).and_then(Value::as_str) {
                    let mut argv = words(program);
                    argv.extend(strings(object.get(args)));
                    found.push(argv);
                }
            }
            object.values().for_each(|v| json_commands(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| json_commands(v, found)),
        _ => {}
    }
}

/// The loopback addresses a block names.
fn urls(block: &Block) -> Vec<String> {
    (block.text.split("http://").skip(1))
        .map(|rest| {
            let end = rest.find(['"', ' ', '\n', '}']).unwrap_or(rest.len());
            format!("http://{}", &rest[..end])
        })
        .collect()
}

/// Runs `argv` on `site` as the snippet's editor or agent would, and says what failed.
fn check(argv: &[String], site: &TestSite) -> Result<(), String> {
    let root = site.root().to_str().expect("utf-8 path");
    let argv: Vec<String> = (argv.iter())
        .map(|a| {
            a.replace("/path/to/site", root)
                .replace("${workspaceFolder}", root)
        })
        .collect();
    if argv.first().map(String::as_str) != Some("fieldnotes") {
        return Err("does not run fieldnotes".to_string());
    }
    fieldnotes::cli::Cli::try_parse_from(&argv).map_err(|e| e.to_string())?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_fieldnotes"));
    command.args(&argv[1..]).current_dir(site.root());
    match argv[1].as_str() {
        "lint" => {
            let out = command
                .arg("--today")
                .arg("2026-11-30")
                .output()
                .expect("runs");
            let code = out.status.code().unwrap_or(2);
            (code < 2)
                .then_some(())
                .ok_or(format!("exit status {code}"))
        }
        "lsp" => {
            let uri = format!("file://{root}");
            let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": null, "rootUri": uri, "capabilities": {}}})
            .to_string();
            let framed = format!("Content-Length: {}\r\n\r\n{initialize}", initialize.len());
            let answer = talk(command, &framed, |out| crate::lsp::read_message(out))?;
            answer["result"]["capabilities"]["renameProvider"]
                .is_object()
                .then_some(())
                .ok_or(format!("initialize: {answer}"))
        }
        "mcp" if argv.iter().any(|a| a == "--http") => Ok(()),
        "mcp" => {
            let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "the manual's snippet", "version": "1"}}});
            let line = format!("{initialize}\n");
            let answer = talk(command, &line, |out| {
                let mut line = String::new();
                out.read_line(&mut line).ok()?;
                serde_json::from_str(&line).ok()
            })?;
            (answer["result"]["serverInfo"]["name"].is_string())
                .then_some(())
                .ok_or(format!("initialize: {answer}"))
        }
        other => Err(format!("no check for `fieldnotes {other}`")),
    }
}

/// Starts `command`, writes `input`, and reads one answer with `read` (at most 30 s).
fn talk(
    mut command: Command,
    input: &str,
    read: fn(&mut BufReader<std::process::ChildStdout>) -> Option<Value>,
) -> Result<Value, String> {
    let mut child = (command.stdin(Stdio::piped()).stdout(Stdio::piped()))
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin
        .write_all(input.as_bytes())
        .map_err(|e| e.to_string())?;
    stdin.flush().map_err(|e| e.to_string())?;
    let (sender, answers) = channel();
    std::thread::spawn(move || drop(sender.send(read(&mut stdout))));
    let answer = answers.recv_timeout(Duration::from_secs(30));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    answer
        .map_err(|_| "no answer in 30 s".to_string())?
        .ok_or("an answer that is not JSON-RPC".to_string())
}

/// Checks every snippet of guide `slug`; the headings whose snippets started a `program`
/// (`lsp`, `mcp`) and the HTTP addresses named, per heading.
fn check_guide(slug: &str, program: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let site = TestSite::fixture("lint/_base");
    let (mut started, mut over_http, mut failures) = (BTreeSet::new(), BTreeSet::new(), vec![]);
    for block in blocks(&guide(slug)) {
        let lines = command_lines(&block);
        let addresses = urls(&block);
        let runs_fieldnotes = block.text.contains("\"fieldnotes")
            || block.text.contains("fieldnotes ")
            || block.text.contains("fieldnotes\"");
        if runs_fieldnotes && lines.is_empty() && addresses.is_empty() {
            failures.push(format!("{slug} / {}: no command line read", block.heading));
        }
        for argv in lines {
            match check(&argv, &site) {
                Ok(()) if argv.get(1).map(String::as_str) == Some(program) => {
                    started.insert(block.heading.clone());
                }
                Ok(()) => {}
                Err(why) => failures.push(format!("{slug} / {}: {argv:?}: {why}", block.heading)),
            }
        }
        for url in addresses {
            if url == MCP_URL {
                over_http.insert(block.heading.clone());
            } else {
                failures.push(format!(
                    "{slug} / {}: {url} is not {MCP_URL}",
                    block.heading
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (started, over_http)
}

#[test]
fn every_editor_snippet_starts_the_language_server() {
    let (started, _) = check_guide("editors", "lsp");
    for editor in [
        "VS Code",
        "Neovim 0.11 and later",
        "Neovim 0.8 to 0.10",
        "Neovim 0.7 (Debian 12)",
        "Helix",
        "Kakoune",
    ] {
        assert!(started.contains(editor), "{editor}: {started:?}");
    }
}

#[test]
fn every_agent_snippet_starts_the_mcp_server() {
    let (started, over_http) = check_guide("agents", "mcp");
    for agent in ["Claude Code", "Cline", "Codex", "Gemini CLI", "VS Code"] {
        assert!(started.contains(agent), "{agent} over stdio: {started:?}");
    }
    for agent in ["Claude Code", "Gemini CLI"] {
        assert!(
            over_http.contains(agent),
            "{agent} over HTTP: {over_http:?}"
        );
    }
}
