//! The connection itself: messages an editor should not send do not end the server, and the
//! editor is asked to watch the site's files when it can.

use super::{
    base, codes, note_text, position_after, read_message, Editor, NOTE, OTHER, OTHER_TEXT,
};
use crate::support::{copy_dir, fixtures, TestSite};
use serde_json::{json, Value};
use std::io::{BufReader, Write};
use std::process::{Command, Stdio};

/// A message whose JSON holds `\ud800`, a lone surrogate escape, where `SURROGATE` is in
/// `message` (serde_json cannot write one from a Rust string).
fn with_lone_surrogate(message: &Value) -> String {
    message.to_string().replace("SURROGATE", "\\ud800")
}

/// The next message that answers a request (not one the server sends of its own).
fn answer(editor: &mut Editor) -> Value {
    loop {
        let message = editor.next_message();
        if message.get("method").is_none() {
            return message;
        }
    }
}

#[test]
fn a_lone_surrogate_or_a_message_that_is_not_json_does_not_end_the_server() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    editor.open(NOTE, &text);
    let uri = editor.uri(NOTE);
    let edited = text.replace("see [Cline]", "see SURROGATE [Cline]");
    let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]}});
    editor.send_raw(&with_lone_surrogate(&change));
    let hover = editor.at("textDocument/hover", NOTE, &text, "  - cli", json!({}));
    assert!(hover["contents"]["value"].is_string(), "{hover}");

    editor.send_raw("{not json");
    let reply = answer(&mut editor);
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], Value::Null);

    let rename = json!({"jsonrpc": "2.0", "id": 41, "method": "textDocument/rename", "params": {
        "textDocument": {"uri": uri}, "position": position_after(&text, "id: cline"),
        "newName": "aSURROGATE"}});
    editor.send_raw(&with_lone_surrogate(&rename));
    let reply = answer(&mut editor);
    assert_eq!(reply["id"], 41, "{reply}");
    let why = reply["error"]["message"].as_str().unwrap_or("");
    assert!(why.contains("not kebab-case"), "{reply}");
    editor.stop();
}

/// Neovim starts the server in its own current folder, not the workspace folder's.
#[test]
fn the_site_is_found_from_the_workspace_folder_whatever_the_current_folder() {
    let elsewhere = TestSite::empty();
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start_in(site, json!({}), elsewhere.root());
    editor.open(
        NOTE,
        &text.replace("clients:\n  - cline", "clients:\n  - clinee"),
    );
    let found = editor.diagnostics_until(NOTE, |l| !l.is_empty());
    assert_eq!(codes(&found), ["FN203"], "{found:?}");
    editor.stop();
}

/// VS Code opened on a repository whose site is a folder of it (`site/`): no `site.yaml` in
/// or above the workspace folder, so the site is the one around the first file opened.
#[test]
fn a_site_below_the_workspace_folder_is_found_from_the_first_file_opened() {
    let workspace = TestSite::empty();
    copy_dir(
        &fixtures().join("lint/_base"),
        &workspace.root().join("site"),
    );
    let note = format!("site/{NOTE}");
    let text = std::fs::read_to_string(workspace.root().join(&note)).expect("note");
    let mut editor = Editor::start(workspace);
    let typo = text.replace("clients:\n  - cline", "clients:\n  - clinee");
    editor.open(&note, &typo);
    let found = editor.diagnostics_until(&note, |l| !l.is_empty());
    assert_eq!(codes(&found), ["FN203"], "{found:?}");
    editor.stop();
}

#[test]
fn files_changed_on_disk_load_the_site_again() {
    let site = base();
    let text = note_text(&site);
    let mut editor = Editor::start(site);
    editor.open(NOTE, &text);
    // A note written outside the editor that lists a note that does not exist.
    let other = OTHER_TEXT.replace("  - cline-reads-the-type-key", "  - no-such-note");
    editor.site.write(OTHER, &other);
    let changes = json!({"changes": [{"uri": editor.uri(OTHER), "type": 1}]});
    editor.notify("workspace/didChangeWatchedFiles", changes);
    let found = editor.diagnostics_until(OTHER, |l| !l.is_empty());
    assert!(codes(&found).contains(&"FN501"), "{found:?}");
    editor.stop();
}

#[test]
fn editors_that_can_are_asked_to_watch_the_sites_files() {
    let site = base();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["lsp", "--today", "2026-11-30"])
        .current_dir(site.root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn fieldnotes lsp");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": capabilities}});
    for message in [
        initialize,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ] {
        let body = message.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
    }
    stdin.flush().expect("flush");
    let registration = loop {
        let message = read_message(&mut stdout).expect("a message");
        if message["method"] == "client/registerCapability" {
            break message;
        }
    };
    let registered = &registration["params"]["registrations"][0];
    assert_eq!(registered["method"], "workspace/didChangeWatchedFiles");
    drop(stdin);
    child.wait().expect("the server ends when the editor goes");
}
