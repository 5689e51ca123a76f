//! Measures a keystroke's diagnostics through `fieldnotes lsp`: the server runs in this
//! process on an in-memory connection (the same loop as over stdio, without the pipe), on a
//! site (e.g. a 10,000-note corpus from `gen_corpus`); one note is opened and edited a
//! character at a time, each edit making or mending a finding (`kind: idiosyncrasy` ⇄
//! `kind: idiosyncrasyx`), and each is timed from the `didChange` sent to the
//! `publishDiagnostics` for the note received. A full lint of the same site is timed after,
//! for scale on a machine that is not idle.
//!
//! ```sh
//! cargo run --release --example gen_corpus -- --notes 10000 /tmp/fn-10k
//! cargo run --release --example lsp_latency -- /tmp/fn-10k [KEYSTROKES]
//! ```

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(
        args.next()
            .expect("usage: lsp_latency SITE_DIR [KEYSTROKES]"),
    );
    let keystrokes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(40);
    let root = std::fs::canonicalize(&root).expect("the site folder");
    let (server, client) = Connection::memory();
    let today = chrono::NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
    let served = {
        let root = root.clone();
        std::thread::spawn(move || {
            let locate = |_: Option<&std::path::Path>| Some(root.clone());
            fieldnotes::lsp::serve(&server, &locate, today)
        })
    };
    let started = Instant::now();
    let mut editor = Editor { client, next: 0 };
    editor.request("initialize", json!({"capabilities": {}}));
    editor.notify("initialized", json!({}));
    let note = first_note(&root);
    let uri = fieldnotes::lsp::text::uri_of(&note);
    let uri = uri.as_str().to_string();
    let original = std::fs::read_to_string(&note).expect("the note");
    // A request answered after everything before it: the load and its diagnostics.
    editor.sync(&uri);
    println!("loaded and linted in {:.0?}", started.elapsed());
    editor.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": original}}),
    );
    editor.sync(&uri);

    let kind_line = original.find("\nkind: ").expect("a kind line") + 1;
    let line = original[..kind_line].matches('\n').count();
    let end = original[kind_line..].find('\n').expect("the line ends");
    let mut times = Vec::new();
    for n in 0..keystrokes {
        let (range, text) = match n % 2 {
            0 => ((end, end), "x"),
            _ => ((end, end + 1), ""),
        };
        let change = json!({
            "range": {"start": {"line": line, "character": range.0},
                      "end": {"line": line, "character": range.1}},
            "text": text,
        });
        let sent = Instant::now();
        editor.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [change]}),
        );
        editor.wait_diagnostics(&uri);
        times.push(sent.elapsed());
    }
    editor.request("shutdown", Value::Null);
    editor.notify("exit", Value::Null);
    served
        .join()
        .expect("the server thread")
        .expect("the server");
    times.sort();
    let median = times[times.len() / 2];
    let slowest = times[times.len() - 1];
    println!(
        "{keystrokes} keystrokes: median {median:.1?}, slowest {slowest:.1?} (didChange → publishDiagnostics)"
    );
    let index = fieldnotes::open(&root).expect("the site");
    let started = Instant::now();
    fieldnotes::lint::lint(&index, today).expect("lint");
    println!(
        "for scale, a full lint of the site: {:.1?}",
        started.elapsed()
    );
}

struct Editor {
    client: Connection,
    next: i32,
}

impl Editor {
    fn notify(&self, method: &str, params: Value) {
        let message = Notification::new(method.to_string(), params);
        self.client
            .sender
            .send(message.into())
            .expect("the server listens");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.client
            .sender
            .send(request.into())
            .expect("the server listens");
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => {
                    return response.response_result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    /// Waits until the server has handled everything sent so far.
    fn sync(&mut self, uri: &str) {
        let position =
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}});
        self.request("textDocument/hover", position);
    }

    fn wait_diagnostics(&self, uri: &str) {
        loop {
            if let Message::Notification(n) = self.receive() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return;
                }
            }
        }
    }

    fn receive(&self) -> Message {
        let timeout = Duration::from_secs(60);
        self.client
            .receiver
            .recv_timeout(timeout)
            .expect("the server answers")
    }
}

/// The first research note of the site, by file name.
fn first_note(root: &Path) -> PathBuf {
    let mut notes: Vec<PathBuf> = std::fs::read_dir(root.join("content/research"))
        .expect("content/research")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    notes.sort();
    notes.into_iter().next().expect("a note")
}
