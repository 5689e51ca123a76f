//! `fieldnotes lsp` driven as an editor drives it: the binary spawned, Content-Length framed
//! JSON-RPC written to its standard input and read from its standard output.

mod rename;
mod wire;

use crate::support::TestSite;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const NOTE: &str = "content/research/cline-reads-the-type-key.md";

/// How long a test waits for the server before failing.
const PATIENCE: Duration = Duration::from_secs(30);

/// An editor talking to one `fieldnotes lsp` process.
struct Editor {
    site: TestSite,
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// The last diagnostics published for each URI.
    diagnostics: HashMap<String, Vec<Value>>,
    /// What the server offered in its answer to `initialize`.
    capabilities: Value,
    /// The messages shown (`window/showMessage`), in order.
    shown: Vec<String>,
}

impl Editor {
    /// Starts the server on `site` and initializes it, as an editor that declares no
    /// capabilities.
    fn start(site: TestSite) -> Editor {
        Editor::start_with(site, json!({}))
    }

    /// Starts the server on `site` and initializes it, declaring `capabilities`.
    fn start_with(site: TestSite, capabilities: Value) -> Editor {
        let folder = site.root().to_path_buf();
        Editor::start_in(site, capabilities, &folder)
    }

    /// Starts the server in folder `cwd` (an editor's own current folder) on the workspace
    /// folder `site`, and initializes it declaring `capabilities`.
    fn start_in(site: TestSite, capabilities: Value, cwd: &std::path::Path) -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
            .args(["lsp", "--today", "2026-11-30"])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn fieldnotes lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut editor = Editor {
            site,
            child,
            stdin,
            incoming,
            next_id: 0,
            diagnostics: HashMap::new(),
            capabilities: Value::Null,
            shown: Vec::new(),
        };
        let root = editor.uri("");
        let result = editor.request(
            "initialize",
            json!({"processId": null, "rootUri": root, "capabilities": capabilities}),
        );
        assert!(result["capabilities"]["hoverProvider"]
            .as_bool()
            .unwrap_or(false));
        editor.capabilities = result["capabilities"].clone();
        editor.notify("initialized", json!({}));
        editor
    }

    /// The URI of a path of the site.
    fn uri(&self, path: &str) -> String {
        let root = std::fs::canonicalize(self.site.root()).expect("canonical root");
        let full = root.join(path);
        format!("file://{}", full.display())
            .trim_end_matches('/')
            .to_string()
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    /// Sends `body` as one message, as it is.
    fn send_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (result or error).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next_message();
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Sends a request and returns its result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    fn next_message(&mut self) -> Value {
        let message = self
            .incoming
            .recv_timeout(PATIENCE)
            .expect("the server answers in time");
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            let uri = params["uri"].as_str().expect("uri").to_string();
            let list = params["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            self.diagnostics.insert(uri, list);
        }
        if message["method"] == "window/showMessage" {
            let shown = message["params"]["message"].as_str().unwrap_or("");
            self.shown.push(shown.to_string());
        }
        message
    }

    /// Waits until the diagnostics published for `path` satisfy `done`, and returns them.
    fn diagnostics_until(&mut self, path: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = self.uri(path);
        let started = Instant::now();
        loop {
            if let Some(list) = self.diagnostics.get(&uri) {
                if done(list) {
                    return list.clone();
                }
            }
            assert!(
                started.elapsed() < PATIENCE,
                "diagnostics for {path}: {:?}",
                self.diagnostics.get(&uri)
            );
            self.next_message();
        }
    }

    fn open(&mut self, path: &str, text: &str) {
        let uri = self.uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
        );
    }

    /// Replaces the whole text of an open document.
    fn change(&mut self, path: &str, text: &str) {
        let uri = self.uri(path);
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}),
        );
    }

    /// Request `method` at the position where `marker` ends in `text` (the text of `path`).
    fn at(&mut self, method: &str, path: &str, text: &str, marker: &str, extra: Value) -> Value {
        let mut params = json!({
            "textDocument": {"uri": self.uri(path)},
            "position": position_after(text, marker),
        });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.request(method, params)
    }

    /// Says `shutdown` and `exit`, and waits for the process to end.
    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "fieldnotes lsp exited with {status}");
    }
}

/// Reads one Content-Length framed message.
pub(crate) fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The LSP position (line, UTF-16 column) just after the first `marker` in `text`.
fn position_after(text: &str, marker: &str) -> Value {
    let end = text.find(marker).expect("marker in text") + marker.len();
    let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..end].matches('\n').count();
    let character = text[line_start..end].encode_utf16().count();
    json!({"line": line, "character": character})
}

fn base() -> TestSite {
    TestSite::fixture("lint/_base")
}

fn note_text(site: &TestSite) -> String {
    std::fs::read_to_string(site.root().join(NOTE)).expect("read note")
}

fn codes(list: &[Value]) -> Vec<&str> {
    list.iter().filter_map(|d| d["code"].as_str()).collect()
}

#[test]
fn diagnostics_follow_the_editors_text_not_the_disk() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    let typo = text.replace("clients:\n  - cline", "clients:\n  - clinee");
    editor.open(NOTE, &typo);
    let found = editor.diagnostics_until(NOTE, |l| !l.is_empty());
    assert_eq!(codes(&found), ["FN203"], "{found:?}");
    let finding = &found[0];
    let message = finding["message"].as_str().unwrap_or("");
    assert!(message.contains("did you mean `cline`?"), "{message}");
    assert_eq!(
        finding["range"]["start"],
        position_after(&typo, "clients:\n  - ")
    );
    assert_eq!(finding["range"]["end"], position_after(&typo, "  - clinee"));
    editor.change(NOTE, &text);
    editor.diagnostics_until(NOTE, <[Value]>::is_empty);
    editor.stop();
}

#[test]
fn ranges_are_utf16_columns_after_non_ascii_text() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    // "é" is one UTF-16 unit in two bytes, "😀" two units in four.
    let typo = text.replace(
        "specVersions:\n  - 2025-03-26",
        "specVersions: [\"é😀\", 2025-03-62]",
    );
    editor.open(NOTE, &typo);
    let found = editor.diagnostics_until(NOTE, |l| l.len() >= 2);
    let bad = found
        .iter()
        .find(|d| d["message"].as_str().unwrap_or("").contains("2025-03-62"))
        .expect("the misspelt revision is reported");
    assert_eq!(bad["range"]["start"], position_after(&typo, "\"é😀\", "));
    assert_eq!(bad["range"]["end"], position_after(&typo, "2025-03-62"));
    editor.stop();
}

/// A second note that lists the first as related and links to it.
const OTHER: &str = "content/research/cline-falls-back-to-sse.md";
const OTHER_TEXT: &str = "---
id: cline-falls-back-to-sse
title: Cline falls back to SSE without a type key
kind: default-behaviour
summary: Without a `type` key, Cline connects over SSE.
capabilities:
  - transports.sse
clients:
  - cline
specVersions:
  - 2025-03-26
sources:
  - url: https://github.com/cline/cline
    title: src/services/mcp/schemas.ts, the server config union
    commit: 1a196376d185f7d204aa985c7ee494b70cfdbf44
    path: src/services/mcp/schemas.ts:14-88
    date: 2026-11-20
status: current
lastVerified: 2026-11-30
related:
  - cline-reads-the-type-key
canonical: https://canimcp.io/research/cline-falls-back-to-sse
last-updated: 2026-11-30
---

See [how it reads the key](/research/cline-reads-the-type-key.md#sources) and
[sessions](/capabilities/transports.streamableHttp.md#sessions).
";

fn two_notes() -> TestSite {
    let site = base();
    site.write(OTHER, OTHER_TEXT);
    let note = note_text(&site).replace(
        "canonical:",
        "related:\n  - cline-falls-back-to-sse\ncanonical:",
    );
    site.write(NOTE, &note);
    site
}

#[test]
fn an_edit_reports_and_clears_findings_in_other_files() {
    let site = two_notes();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    editor.open(NOTE, &text);
    let renamed = text.replace(
        "id: cline-reads-the-type-key",
        "id: cline-reads-the-kind-key",
    );
    editor.change(NOTE, &renamed);
    let found = editor.diagnostics_until(OTHER, |l| !l.is_empty());
    assert_eq!(
        codes(&found),
        ["FN501", "FN601"],
        "related entry and link: {found:?}"
    );
    editor.change(NOTE, &text);
    editor.diagnostics_until(OTHER, <[Value]>::is_empty);
    editor.stop();
}

#[test]
fn completes_vocabularies_routes_anchors_and_fields() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    let edited = text
        .replace("clients:\n  - cline", "clients:\n  - cl")
        .replace("  - transports.sse", "  - transport")
        .replace("status: current", "status: cur\nsupersed")
        .replace(
            "see [Cline](/clients/cline.md)",
            "see [Cline](/clients/c) and [s](/capabilities/transports.streamableHttp.md#se)",
        );
    editor.open(NOTE, &edited);
    let labels = |result: &Value| -> Vec<String> {
        let items = result["items"].as_array().cloned().unwrap_or_default();
        items
            .iter()
            .filter_map(|i| i["label"].as_str().map(String::from))
            .collect()
    };
    let mut complete = |marker: &str| {
        let result = editor.at("textDocument/completion", NOTE, &edited, marker, json!({}));
        labels(&result)
    };
    assert!(complete("  - cl").contains(&"cline".to_string()));
    let capabilities = complete("  - transport");
    assert!(
        capabilities.contains(&"transports.sse".to_string()),
        "{capabilities:?}"
    );
    assert!(
        capabilities.contains(&"transport.sse".to_string()),
        "aliases: {capabilities:?}"
    );
    assert_eq!(complete("status: cur"), ["current"]);
    assert_eq!(complete("supersed"), ["supersededBy"]);
    assert!(complete("kind: default").contains(&"default-behaviour".to_string()));
    assert!(complete("  - 2025-03").contains(&"2025-03-26".to_string()));
    assert_eq!(complete("(/clients/c"), ["/clients/cline.md"]);
    let anchors = complete("streamableHttp.md#se");
    assert_eq!(
        anchors,
        ["/capabilities/transports.streamableHttp.md#sessions"]
    );
    editor.stop();
}

#[test]
fn hovers_name_clients_capabilities_notes_and_revisions() {
    let site = two_notes();
    let text = OTHER_TEXT;
    let mut editor = Editor::start(site);
    editor.open(OTHER, text);
    let mut hover = |marker: &str| {
        let result = editor.at("textDocument/hover", OTHER, text, marker, json!({}));
        result["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let client = hover("  - cli");
    assert!(
        client.contains("**Cline**") && client.contains("coding agent"),
        "{client}"
    );
    let capability = hover("  - transports.s");
    assert!(capability.contains("HTTP with SSE"), "{capability}");
    let note = hover("  - cline-reads");
    assert!(note.contains("Cline picks the transport") && note.contains("falls back to SSE"));
    assert!(hover("  - 2025-03").contains("Released 2025-03-26"));
    let link = hover("(/research/cline-re");
    assert!(link.contains("Cline picks the transport"), "{link}");
    editor.stop();
}

#[test]
fn a_note_without_a_title_is_hovered_by_its_id() {
    let site = two_notes();
    let untitled = note_text(&site).replace(
        "title: Cline picks the transport by the entry's type key\n",
        "",
    );
    site.write(NOTE, &untitled);
    let text = OTHER_TEXT;
    let mut editor = Editor::start(site);
    editor.open(OTHER, text);
    let result = editor.at(
        "textDocument/hover",
        OTHER,
        text,
        "  - cline-reads",
        json!({}),
    );
    let note = result["contents"]["value"].as_str().unwrap_or("");
    assert!(
        note.starts_with("**cline-reads-the-type-key** (research note"),
        "{note}"
    );
    editor.stop();
}

#[test]
fn definitions_and_references_of_a_note() {
    let site = two_notes();
    let mut editor = Editor::start(site);
    editor.open(OTHER, OTHER_TEXT);
    let definition = editor.at(
        "textDocument/definition",
        OTHER,
        OTHER_TEXT,
        "  - cli",
        json!({}),
    );
    assert_eq!(definition["uri"], editor.uri("content/clients/cline.md"));
    let link = editor.at(
        "textDocument/definition",
        OTHER,
        OTHER_TEXT,
        "(/research/cl",
        json!({}),
    );
    assert_eq!(link["uri"], editor.uri(NOTE));
    assert_eq!(
        link["range"]["start"]["line"], 0,
        "a template's anchor: {link}"
    );
    let heading = "(/capabilities/transports.streamableHttp.md#se";
    let heading = editor.at(
        "textDocument/definition",
        OTHER,
        OTHER_TEXT,
        heading,
        json!({}),
    );
    assert_eq!(
        heading["uri"],
        editor.uri("content/capabilities/transports.streamableHttp.md")
    );
    assert_eq!(
        heading["range"]["start"]["line"], 12,
        "the `## Sessions` heading: {heading}"
    );

    let context = json!({"context": {"includeDeclaration": false}});
    let references = editor.at(
        "textDocument/references",
        OTHER,
        OTHER_TEXT,
        "  - cline-re",
        context,
    );
    let references = references.as_array().cloned().unwrap_or_default();
    let in_file = |path: &str| {
        references
            .iter()
            .filter(|r| r["uri"] == editor.uri(path))
            .count()
    };
    assert_eq!(in_file(OTHER), 2, "related entry and link: {references:?}");
    let client = "content/clients/hermes-agent.md";
    assert_eq!(
        in_file(client),
        1,
        "a support cell's research: {references:?}"
    );
    assert_eq!(references.len(), 3, "{references:?}");

    editor.stop();
}

#[test]
fn quick_fixes_take_the_suggestion_and_clear_placeholders() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    let edited = text
        .replace("clients:\n  - cline", "clients:\n  - clinee")
        .replace(
            "title: Cline picks",
            "title: \"TODO: the claim\"\nx: Cline picks",
        );
    let edited = edited.replace("x: Cline picks the transport by the entry's type key\n", "");
    editor.open(NOTE, &edited);
    editor.diagnostics_until(NOTE, |l| {
        codes(l).contains(&"FN705") && codes(l).contains(&"FN203")
    });
    let everything = json!({
        "textDocument": {"uri": editor.uri(NOTE)},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}},
        "context": {"diagnostics": []},
    });
    let actions = editor.request("textDocument/codeAction", everything);
    let actions = actions.as_array().cloned().unwrap_or_default();
    let titled = |title: &str| {
        (actions.iter())
            .find(|a| a["title"] == title)
            .unwrap_or_else(|| panic!("no action {title}: {actions:?}"))
            .clone()
    };
    let typo = titled("Replace `clinee` with `cline`");
    let uri = editor.uri(NOTE);
    let edit = &typo["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "cline");
    assert_eq!(
        edit["range"]["start"],
        position_after(&edited, "clients:\n  - ")
    );
    let placeholder = titled("Clear the `TODO` placeholder");
    let edit = &placeholder["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "");
    assert_eq!(edit["range"]["start"], position_after(&edited, "title: \""));
    assert_eq!(
        edit["range"]["end"],
        position_after(&edited, "TODO: the claim")
    );
    editor.stop();
}

#[test]
fn a_new_note_is_linted_once_it_is_on_disk() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    let unsaved = "content/research/not-saved-yet.md";
    editor.open(unsaved, &text.replace("  - cline\n", "  - clinee\n"));
    let hover = editor.at("textDocument/hover", unsaved, &text, "  - cli", json!({}));
    assert_eq!(hover, Value::Null, "a file the site does not hold yet");

    let new = "content/research/cline-reads-the-type-key-again.md";
    let new_text = text
        .replace(
            "id: cline-reads-the-type-key",
            "id: cline-reads-the-type-key-again",
        )
        .replace("clients:\n  - cline", "clients:\n  - clinee");
    editor.site.write(new, &new_text);
    editor.open(new, &new_text);
    let found = editor.diagnostics_until(new, |l| codes(l).contains(&"FN203"));
    assert!(codes(&found).contains(&"FN203"), "{found:?}");
    editor.stop();
}
