//! `fieldnotes probe model`: a scripted model on loopback that makes a shipped client call
//! the probe's tool with no real model and no login. It speaks the Anthropic Messages API
//! ([`anthropic`]), OpenAI Chat Completions ([`chat`]) and Responses ([`responses`], with
//! Codex's `namespace` tools) and Gemini `generateContent` / `streamGenerateContent`
//! ([`gemini`]), each whole or streamed; any model name is accepted. What it answers is the
//! [`script`]'s: the probe's tool (by way of the client's tool search when the client
//! defers it), then a closing text; side requests get plain text.
//!
//! Each request becomes one model-side line appended to `OUT/.fieldnotes-model.log`: the API,
//! the tools offered, the step taken and, once the tool ran, what the client passed the
//! model of its result (`shown`: `text`, `structuredContent`, `both`). A probe writing its
//! observations into the same folder joins the lines of its session's time into the
//! transcript (`dir: "model"`), beside the MCP lines. The connection policy is
//! `crate::net::MODEL`: loopback only, bounded bodies and connections.

mod anthropic;
mod chat;
mod gemini;
mod responses;
pub(crate) mod script;

use crate::error::{Error, Result};
use crate::net::{http1, MODEL};
use crate::probe::session_mark;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use script::{decide, shown, Step, Target, Turn};
use serde_json::{json, Value};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The model-side log's name in the observations folder.
pub(crate) const LOG: &str = ".fieldnotes-model.log";

/// The most a tool result is quoted in a model-side line, in bytes of JSON.
const QUOTED_RESULT_BYTES: usize = 4096;

/// What `fieldnotes probe model` is asked to do.
#[derive(Debug, Clone)]
pub struct ModelOptions {
    /// The folder the model-side log goes to (the probe's `--out`).
    pub out: PathBuf,
    pub port: u16,
    /// Keep each request body whole in the log (large: for finding out what a client sends).
    pub bodies: bool,
    /// The tool the model calls, by the name its server lists it under: the probe's
    /// `probe_echo` unless told.
    pub tool: Option<String>,
    /// What the model passes that tool: `{"text": "fieldnotes"}` for the probe's, `{}` for
    /// another unless told.
    pub arguments: Option<Value>,
}

impl ModelOptions {
    fn target(&self) -> Target {
        match &self.tool {
            None => Target {
                arguments: self
                    .arguments
                    .clone()
                    .unwrap_or(Target::default().arguments),
                ..Target::default()
            },
            Some(tool) => Target {
                tool: tool.clone(),
                arguments: self.arguments.clone().unwrap_or_else(|| json!({})),
            },
        }
    }
}

/// One HTTP answer.
pub(crate) struct Reply {
    status: StatusCode,
    content_type: &'static str,
    body: String,
}

impl Reply {
    pub(crate) fn json(value: Value) -> Reply {
        Reply {
            status: StatusCode::OK,
            content_type: "application/json",
            body: value.to_string(),
        }
    }

    pub(crate) fn events(body: String) -> Reply {
        Reply {
            status: StatusCode::OK,
            content_type: "text/event-stream",
            body,
        }
    }

    fn error(status: StatusCode, message: impl Into<String>) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: json!({"error": {"type": "invalid_request_error", "message": message.into()}})
                .to_string(),
        }
    }
}

/// Server-sent events, each `event:` (when named) and one `data:` line.
pub(crate) fn sse<'a>(events: impl IntoIterator<Item = (Option<&'a str>, &'a Value)>) -> String {
    let mut out = String::new();
    for (name, data) in events {
        if let Some(name) = name {
            out.push_str(&format!("event: {name}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
    }
    out
}

/// The model's state: where its lines go.
pub(crate) struct Model {
    log: PathBuf,
    bodies: bool,
    target: Target,
    lock: Mutex<()>,
}

/// Serves until the process is stopped; prints the base URL first.
pub fn serve(options: &ModelOptions) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("tokio runtime", "start the scripted model", e))?;
    runtime.block_on(run(options))
}

async fn run(options: &ModelOptions) -> Result<()> {
    std::fs::create_dir_all(&options.out)
        .map_err(|e| Error::io(&options.out, "create the observations folder", e))?;
    let bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let address = SocketAddr::from((bind, options.port));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| Error::Usage {
            message: format!("could not listen on {address}: {e}; choose another --port"),
        })?;
    let address = listener.local_addr().unwrap_or(address);
    println!("http://{address}");
    let model = Arc::new(Model {
        log: options.out.join(LOG),
        bodies: options.bodies,
        target: options.target(),
        lock: Mutex::new(()),
    });
    eprintln!(
        "fieldnotes probe model listening; model-side lines go to {} (Ctrl-C stops)",
        model.log.display()
    );
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let gate = crate::net::gate::Gate::new(MODEL);
    http1::serve(listener, gate, stop, move |request| {
        let model = model.clone();
        async move { model.answer(request, bind).await }
    })
    .await;
    Ok(())
}

impl Model {
    /// For tests: a model whose lines go to `log`.
    #[cfg(test)]
    pub(crate) fn new(log: PathBuf) -> Model {
        Model {
            log,
            bodies: false,
            target: Target::default(),
            lock: Mutex::new(()),
        }
    }

    async fn answer(&self, request: Request<Incoming>, bind: IpAddr) -> Response<Full<Bytes>> {
        let reply = match http1::check(&request, bind) {
            Err(why) => Reply::error(StatusCode::FORBIDDEN, format!("forbidden: {why}")),
            Ok(()) => {
                let method = request.method().as_str().to_string();
                let path = request.uri().path().to_string();
                let query = request.uri().query().unwrap_or("").to_string();
                let agent = crate::probe::http::user_agent(&request);
                let limited = http_body_util::Limited::new(request.into_body(), MODEL.body_bytes);
                match limited.collect().await {
                    Ok(body) => {
                        self.reply(&method, &path, &query, agent.as_deref(), &body.to_bytes())
                    }
                    Err(e) => Reply::error(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!(
                            "body not read ({e}; the limit is {} bytes)",
                            MODEL.body_bytes
                        ),
                    ),
                }
            }
        };
        let mut response = Response::new(Full::new(Bytes::from(reply.body)));
        *response.status_mut() = reply.status;
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
        response
    }

    /// The answer to one request, its model-side line written.
    pub(crate) fn reply(
        &self,
        method: &str,
        path: &str,
        query: &str,
        agent: Option<&str>,
        body: &[u8],
    ) -> Reply {
        let mut line = json!({"method": method, "path": crate::probe::scrub::query(path)});
        if let Some(agent) = agent {
            line["userAgent"] = json!(agent);
        }
        let reply = self.route(method, path, query, body, &mut line);
        line["status"] = json!(reply.status.as_u16());
        self.log(line);
        reply
    }

    fn route(&self, method: &str, path: &str, query: &str, body: &[u8], line: &mut Value) -> Reply {
        if method == "GET" && path.ends_with("/models") {
            return chat::models();
        }
        if method != "POST" {
            return Reply::error(StatusCode::NOT_FOUND, format!("no {method} {path} here"));
        }
        let parsed: Value = match serde_json::from_slice(body) {
            Ok(parsed) => parsed,
            Err(e) => return Reply::error(StatusCode::BAD_REQUEST, format!("not JSON: {e}")),
        };
        if self.bodies {
            line["body"] = parsed.clone();
        }
        let gemini = path
            .rsplit('/')
            .next()
            .and_then(|last| last.split_once(':'))
            .filter(|_| path.contains("/models/"));
        let (api, mut turn) = match gemini {
            Some((_, "countTokens")) => return gemini::count_tokens(),
            Some((model, call)) => {
                let stream = call == "streamGenerateContent";
                ("gemini", gemini::read(&parsed, model, stream))
            }
            None if path.ends_with("/messages/count_tokens") => return anthropic::count_tokens(),
            None if path.ends_with("/messages") => ("anthropic-messages", anthropic::read(&parsed)),
            None if path.ends_with("/chat/completions") => ("openai-chat", chat::read(&parsed)),
            None if path.ends_with("/responses") => ("openai-responses", responses::read(&parsed)),
            None => return Reply::error(StatusCode::NOT_FOUND, format!("no POST {path} here")),
        };
        strings(&parsed, &mut turn.text);
        let (mut step, kind) = decide(&turn, &self.target);
        if let ("gemini", "side", Some(text)) = (api, kind, gemini::side_json(&parsed)) {
            step = Step::Say(text);
        }
        describe(line, api, &turn, &step, kind, &self.target);
        match api {
            "gemini" => gemini::respond(&turn, &step, query.split('&').any(|p| p == "alt=sse")),
            "anthropic-messages" => anthropic::respond(&turn, &step),
            "openai-chat" => chat::respond(&turn, &step),
            _ => responses::respond(&turn, &step),
        }
    }

    /// Appends one model-side line, stamped now. A log that cannot be written is said on
    /// standard error: the model still answers.
    fn log(&self, model: Value) {
        let record = json!({"t": crate::probe::transcript::now(), "dir": "model", "model": model});
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .and_then(|mut file| writeln!(file, "{record}"));
        if let Err(e) = written {
            eprintln!("warning: could not append to {}: {e}", self.log.display());
        }
    }
}

/// Every string in `value`, one a line: where a deferred tool's name is looked for (not the
/// JSON text, whose escapes run into words).
fn strings(value: &Value, into: &mut String) {
    match value {
        Value::String(s) => {
            into.push_str(s);
            into.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, into)),
        Value::Object(fields) => fields.values().for_each(|v| strings(v, into)),
        _ => {}
    }
}

/// The line's account of a request: the API, the model name, the tools offered, the step,
/// and what the client passed back of each result of the target tool.
fn describe(line: &mut Value, api: &str, turn: &Turn, step: &Step, kind: &str, target: &Target) {
    line["api"] = json!(api);
    line["modelName"] = json!(turn.model);
    line["stream"] = json!(turn.stream);
    line["toolsOffered"] = json!(turn.tools.len());
    let probe: Vec<&str> = (turn.tools.iter())
        .filter(|t| {
            target.is(&t.name)
                || matches!(t.name.as_str(), "ToolSearch" | "tool_search" | "tool_call")
        })
        .map(|t| t.name.as_str())
        .collect();
    line["offered"] = json!(probe);
    line["step"] = json!(kind);
    if !turn.tools.is_empty() {
        // Whether the server's instructions reached the model (the probe's carry a mark).
        let instructions = turn
            .text
            .contains(crate::probe::protocol::INSTRUCTIONS_MARK);
        line["instructions"] = json!(instructions);
        // Whose: the sessions whose marked instructions the request held.
        let sessions = session_mark::instructed(&turn.text);
        if !sessions.is_empty() {
            line["instructionsFor"] = json!(sessions);
        }
    }
    if let Step::Call {
        name, namespace, ..
    } = step
    {
        line["called"] = json!(name);
        if let Some(namespace) = namespace {
            line["namespace"] = json!(namespace);
        }
    }
    let results: Vec<Value> = (turn.results.iter())
        .filter(|r| target.is(&r.name) || r.name == "tool_call" || shown(&r.output) != "neither")
        .map(|r| {
            let mut output = r.output.to_string();
            if output.len() > QUOTED_RESULT_BYTES {
                let mut end = QUOTED_RESULT_BYTES;
                while !output.is_char_boundary(end) {
                    end -= 1;
                }
                output.truncate(end);
                output.push('…');
            }
            let mut result = json!({"tool": r.name, "shown": shown(&r.output), "output": output});
            // The session whose tool answered: the mark its result carries, which the probe
            // writes after the echoed text (so a mark the client put in that text is not it).
            if let Some(mark) = session_mark::found(&r.output.to_string()).pop() {
                result["session"] = json!(mark);
            }
            result
        })
        .collect();
    if !results.is_empty() {
        line["toolResults"] = json!(results);
    }
}

/// The model-side lines of `folder`'s log stamped within `[from, to]` (transcript times).
pub(crate) fn lines_between(
    folder: &Path,
    from: &str,
    to: &str,
) -> Vec<crate::probe::transcript::Record> {
    let Ok(text) = std::fs::read_to_string(folder.join(LOG)) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<crate::probe::transcript::Record>(l).ok())
        .filter(|r| r.t.as_str() >= from && r.t.as_str() <= to)
        .collect()
}

#[cfg(test)]
mod tests;
