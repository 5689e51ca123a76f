//! What the probe answers: `server/discover`, `initialize` for every revision, one tool, one
//! resource, one resource template (whose variable it completes) and one prompt, each list in
//! two pages (the second empty), the tool as a task at 2025-11-25 ([`tasks`]), and JSON-RPC
//! errors for the rest. Pure functions of a request.

use super::settings::Protocol;
use super::tasks::{self, TASKS_REVISION};
use serde_json::{json, Value};

/// The revisions the probe speaks, oldest first.
pub(crate) const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The newest revision with an `initialize` handshake: answered to an `initialize` offering a
/// revision the probe does not know.
pub(crate) const LATEST_LEGACY: &str = "2025-11-25";

/// The first revision without `initialize`: per-request `_meta` instead.
pub(crate) const STATELESS: &str = "2026-07-28";

/// The `_meta` keys a 2026-07-28 request carries.
pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

pub(crate) const TOOL: &str = "probe_echo";
/// The marks of the tool result's two parts, so a model-side transcript shows which part a
/// client passed its model: the text content, and `structuredContent`.
pub(crate) const TEXT_MARK: &str = "fieldnotes-text-content";
/// The mark in the probe's `instructions`: a model request that holds it shows the client
/// passed the server's instructions to its model.
pub(crate) const INSTRUCTIONS_MARK: &str = "fieldnotes-instructions";
/// The probe's `instructions`, marked.
const INSTRUCTIONS: &str =
    "fieldnotes probe: records what this client sends and answers. (fieldnotes-instructions)";
pub(crate) const STRUCTURED_MARK: &str = "fieldnotes-structured-content";
pub(crate) const RESOURCE: &str = "probe://fieldnotes/about";
/// The probe's resource template: a client that offers its variable to the user may ask the
/// probe to complete it (`completion/complete`), and reads what it expands to.
pub(crate) const TEMPLATE: &str = "probe://fieldnotes/topic/{topic}";
const TEMPLATE_PREFIX: &str = "probe://fieldnotes/topic/";
/// What the probe offers to complete a template variable or a prompt argument with.
const COMPLETION: &str = "fieldnotes";
/// The cursor of every list's second page, which the first page names as its `nextCursor`:
/// a client that reads the whole list asks for it.
pub(crate) const NEXT_PAGE: &str = "fieldnotes-page-2";
pub(crate) const PROMPT: &str = "probe_prompt";

/// JSON-RPC error codes the probe answers with.
pub(crate) const PARSE_ERROR: i64 = -32700;
pub(crate) const INVALID_REQUEST: i64 = -32600;
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
pub(crate) const INVALID_PARAMS: i64 = -32602;
const UNSUPPORTED_VERSION: i64 = -32022;

/// A JSON-RPC error: code, message and optional data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// The revision a request speaks under 2026-07-28 rules (`_meta` protocolVersion), if any.
pub(crate) fn meta_version(params: Option<&Value>) -> Option<&str> {
    params?.get("_meta")?.get(META_VERSION)?.as_str()
}

/// The revision the probe answers `initialize` with: the client's when known.
pub(crate) fn negotiate(offered: Option<&str>) -> &str {
    offered
        .and_then(|o| REVISIONS.iter().find(|r| **r == o))
        .copied()
        .unwrap_or(LATEST_LEGACY)
}

/// What the probe offers: tools (which change), resources, prompts, completions.
pub(crate) fn server_capabilities() -> Value {
    json!({
        "tools": {"listChanged": true},
        "resources": {},
        "prompts": {},
        "logging": {},
        "completions": {},
    })
}

/// What the probe offers in an `initialize` handshake of `revision`: below 2026-07-28 its
/// resources can also be subscribed to (`resources/subscribe`, gone from 2026-07-28), and its
/// resource and prompt lists change (a `current` session says so with the tools'); at
/// 2025-11-25 its tool can be called as a task.
fn initialize_capabilities(revision: &str) -> Value {
    let mut capabilities = server_capabilities();
    if revision != STATELESS {
        capabilities["resources"] = json!({"subscribe": true, "listChanged": true});
        capabilities["prompts"] = json!({"listChanged": true});
    }
    if revision == TASKS_REVISION {
        capabilities["tasks"] = tasks::capability();
    }
    capabilities
}

pub(crate) fn server_info() -> Value {
    json!({"name": "fieldnotes-probe", "version": env!("CARGO_PKG_VERSION")})
}

/// The result of `method` with `params`, or the error the probe answers. `version` is the
/// session's revision (from `initialize` or the request's `_meta`). Under
/// [`Protocol::Current`] the probe is a 2025-11-25 server: `server/discover` is a method it
/// does not know, `_meta` revisions are not read, and `initialize` never agrees to 2026-07-28.
pub(crate) fn answer(
    method: &str,
    params: Option<&Value>,
    version: &str,
    protocol: Protocol,
) -> Result<Value, RpcError> {
    let current = protocol == Protocol::Current;
    if current && method == "server/discover" {
        return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found"));
    }
    if let Some(requested) = meta_version(params).filter(|_| !current) {
        if !REVISIONS.contains(&requested) {
            return Err(RpcError {
                code: UNSUPPORTED_VERSION,
                message: "Unsupported protocol version".into(),
                data: Some(json!({"supported": supported(), "requested": requested})),
            });
        }
    }
    let stateless = version == STATELESS;
    let mut result = match method {
        "initialize" => {
            let offered = params
                .and_then(|p| p.get("protocolVersion"))
                .and_then(Value::as_str);
            let agreed = match negotiate(offered) {
                STATELESS if current => LATEST_LEGACY,
                agreed => agreed,
            };
            json!({
                "protocolVersion": agreed,
                "capabilities": initialize_capabilities(agreed),
                "serverInfo": server_info(),
                "instructions": INSTRUCTIONS,
            })
        }
        "server/discover" => json!({
            "supportedVersions": supported(),
            "capabilities": server_capabilities(),
            "instructions": INSTRUCTIONS,
        }),
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => json!({}),
        "tools/list" => {
            let mut tool = json!({
                "name": TOOL,
                "title": "Echo",
                "description": "Returns the text it is given (fieldnotes probe).",
                "inputSchema": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}},
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {"echo": {"type": "string"}, "part": {"type": "string"}},
                    "required": ["echo", "part"],
                },
                "annotations": {"readOnlyHint": true},
            });
            if version == TASKS_REVISION {
                tool["execution"] = tasks::tool_execution();
            }
            page(params, "tools", json!([tool]))?
        }
        "tools/call" => {
            let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
            if name != Some(TOOL) {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    format!("unknown tool; the probe has one: {TOOL}"),
                ));
            }
            let text = params
                .and_then(|p| p.pointer("/arguments/text"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if version == TASKS_REVISION && tasks::asked(params) {
                tasks::created(text)
            } else {
                echo(text)
            }
        }
        "resources/list" => page(
            params,
            "resources",
            json!([{
                "uri": RESOURCE,
                "name": "about",
                "title": "About the probe",
                "mimeType": "text/plain",
            }]),
        )?,
        "resources/templates/list" => page(
            params,
            "resourceTemplates",
            json!([{
                "uriTemplate": TEMPLATE,
                "name": "topic",
                "title": "A topic",
                "description": "Any topic, completed from the probe (fieldnotes probe).",
                "mimeType": "text/plain",
            }]),
        )?,
        "resources/read" => {
            let uri = params.and_then(|p| p.get("uri")).and_then(Value::as_str);
            let text = match uri {
                Some(RESOURCE) => {
                    "fieldnotes probe: an MCP server that records its clients.".into()
                }
                Some(uri) if uri.starts_with(TEMPLATE_PREFIX) => {
                    format!("fieldnotes probe: topic {}", &uri[TEMPLATE_PREFIX.len()..])
                }
                _ => {
                    let code = if stateless { INVALID_PARAMS } else { -32002 };
                    return Err(RpcError::new(
                        code,
                        format!("unknown resource; the probe has {RESOURCE} and {TEMPLATE}"),
                    ));
                }
            };
            json!({"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]})
        }
        "prompts/list" => page(
            params,
            "prompts",
            json!([{
                "name": PROMPT,
                "title": "Probe prompt",
                "description": "A prompt with one argument (fieldnotes probe).",
                "arguments": [{"name": "topic", "required": false}],
            }]),
        )?,
        "prompts/get" => {
            let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
            if name != Some(PROMPT) {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    format!("unknown prompt; the probe has one: {PROMPT}"),
                ));
            }
            json!({"messages": [{
                "role": "user",
                "content": {"type": "text", "text": "Say hello to the fieldnotes probe."},
            }]})
        }
        method if tasks::is_task_request(method) => {
            tasks::answer(method, params, echo).map_err(|e| RpcError::new(INVALID_PARAMS, e))?
        }
        "completion/complete" => json!({"completion": {
            "values": [COMPLETION],
            "total": 1,
            "hasMore": false,
        }}),
        _ => {
            return Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("the probe does not answer {method}"),
            ))
        }
    };
    if stateless || method == "server/discover" {
        stamp_stateless(method, &mut result);
    }
    Ok(result)
}

/// The probe's tool's result for `text`: the text content and `structuredContent`, each
/// marked.
fn echo(text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": format!("{TEXT_MARK}: {text}")}],
        "structuredContent": {"echo": text, "part": STRUCTURED_MARK},
        "isError": false,
    })
}

/// The cursor a list request asks with, if any (a `null` one is none): without one it asks
/// for the first page.
pub(crate) fn cursor(params: Option<&Value>) -> Option<&Value> {
    params?.get("cursor").filter(|c| !c.is_null())
}

/// One page of a list under `key`: without a cursor the first, its `items` and [`NEXT_PAGE`]
/// as `nextCursor`; asked with [`NEXT_PAGE`], the second, empty and last.
fn page(params: Option<&Value>, key: &str, items: Value) -> Result<Value, RpcError> {
    let items = match cursor(params) {
        None => items,
        Some(cursor) if cursor == NEXT_PAGE => json!([]),
        Some(_) => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("unknown cursor; the probe's lists have two pages, the second {NEXT_PAGE}"),
            ))
        }
    };
    let mut result = serde_json::Map::new();
    let first = items.as_array().is_some_and(|i| !i.is_empty());
    result.insert(key.into(), items);
    if first {
        result.insert("nextCursor".into(), json!(NEXT_PAGE));
    }
    Ok(Value::Object(result))
}

/// The 2026-07-28 fields every result carries, and the cache hints of list and read results.
fn stamp_stateless(method: &str, result: &mut Value) {
    let Some(object) = result.as_object_mut() else {
        return;
    };
    object.insert("resultType".into(), json!("complete"));
    object.insert("_meta".into(), json!({META_SERVER_INFO: server_info()}));
    if method.ends_with("/list") || method == "resources/read" || method == "server/discover" {
        object.insert("ttlMs".into(), json!(0));
        object.insert("cacheScope".into(), json!("private"));
    }
}

/// The revisions `server/discover` lists, newest first.
fn supported() -> Vec<&'static str> {
    REVISIONS.iter().rev().copied().collect()
}

/// A JSON-RPC response to request `id`.
pub(crate) fn response(id: &Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => {
            let mut body = json!({"code": error.code, "message": error.message});
            if let Some(data) = error.data {
                body["data"] = data;
            }
            json!({"jsonrpc": "2.0", "id": id, "error": body})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_echoes_every_known_revision_and_answers_the_latest_otherwise() {
        for revision in REVISIONS {
            let params = json!({"protocolVersion": revision, "capabilities": {}});
            let result =
                answer("initialize", Some(&params), revision, Protocol::Next).expect("answered");
            assert_eq!(result["protocolVersion"], revision);
        }
        let params = json!({"protocolVersion": "1999-01-01"});
        let result =
            answer("initialize", Some(&params), LATEST_LEGACY, Protocol::Next).expect("answered");
        assert_eq!(result["protocolVersion"], LATEST_LEGACY);
    }

    #[test]
    fn only_a_2025_11_25_session_may_call_the_tool_as_a_task() {
        let call = json!({"name": TOOL, "arguments": {"text": "t"}, "task": {"ttl": 1000}});
        for revision in REVISIONS {
            let init = json!({"protocolVersion": revision, "capabilities": {}});
            let agreed = answer("initialize", Some(&init), revision, Protocol::Next).unwrap();
            let offered = revision == TASKS_REVISION;
            let tasks = agreed.pointer("/capabilities/tasks/requests/tools/call");
            assert_eq!(tasks.is_some(), offered, "{revision}");
            let listed = answer("tools/list", None, revision, Protocol::Next).unwrap();
            let execution = listed.pointer("/tools/0/execution/taskSupport");
            assert_eq!(execution.is_some(), offered, "{revision}");
            let called = answer("tools/call", Some(&call), revision, Protocol::Next).unwrap();
            // Below or past 2025-11-25 `task` is an unknown field: the result comes at once.
            let handle = called.pointer("/task/taskId").and_then(Value::as_str);
            assert_eq!(handle.is_some(), offered, "{revision}");
            assert_eq!(
                called.get("structuredContent").is_none(),
                offered,
                "{revision}"
            );
            if let Some(id) = handle {
                let params = json!({"taskId": id});
                let result =
                    answer("tasks/result", Some(&params), revision, Protocol::Next).unwrap();
                assert_eq!(result["structuredContent"]["echo"], "t");
            }
        }
    }

    #[test]
    fn a_stateless_request_gets_result_type_and_an_unknown_revision_is_refused() {
        let params = json!({"_meta": {META_VERSION: STATELESS}});
        let result =
            answer("tools/list", Some(&params), STATELESS, Protocol::Next).expect("answered");
        assert_eq!(result["resultType"], "complete");
        assert_eq!(result["tools"][0]["name"], TOOL);
        let params = json!({"_meta": {META_VERSION: "2099-01-01"}});
        let error =
            answer("tools/list", Some(&params), STATELESS, Protocol::Next).expect_err("refused");
        assert_eq!(error.code, UNSUPPORTED_VERSION);
        let discover =
            answer("server/discover", None, LATEST_LEGACY, Protocol::Next).expect("answered");
        assert_eq!(discover["supportedVersions"][0], STATELESS);
    }

    #[test]
    fn a_current_server_refuses_discover_and_never_agrees_to_2026_07_28() {
        let error =
            answer("server/discover", None, LATEST_LEGACY, Protocol::Current).expect_err("refused");
        assert_eq!(
            (error.code, error.message.as_str()),
            (METHOD_NOT_FOUND, "Method not found")
        );
        let params = json!({"protocolVersion": STATELESS});
        let result = answer(
            "initialize",
            Some(&params),
            LATEST_LEGACY,
            Protocol::Current,
        )
        .expect("answered");
        assert_eq!(result["protocolVersion"], LATEST_LEGACY);
        // `_meta` is not read: an unknown revision there is no error, and no 2026 fields come.
        let params = json!({"_meta": {META_VERSION: "2099-01-01"}});
        let result = answer(
            "tools/list",
            Some(&params),
            LATEST_LEGACY,
            Protocol::Current,
        )
        .expect("answered");
        assert!(result.get("resultType").is_none());
    }

    #[test]
    fn every_list_has_a_second_page_named_by_the_first() {
        for (method, key) in [
            ("tools/list", "tools"),
            ("resources/list", "resources"),
            ("resources/templates/list", "resourceTemplates"),
            ("prompts/list", "prompts"),
        ] {
            let first = answer(method, None, LATEST_LEGACY, Protocol::Next).expect(method);
            assert_eq!(first[key].as_array().map(Vec::len), Some(1), "{method}");
            assert_eq!(first["nextCursor"], NEXT_PAGE, "{method}");
            let params = json!({"cursor": NEXT_PAGE});
            let second =
                answer(method, Some(&params), LATEST_LEGACY, Protocol::Next).expect(method);
            assert_eq!(second, json!({key: []}), "{method}: empty and last");
            let params = json!({"cursor": "elsewhere"});
            let error =
                answer(method, Some(&params), LATEST_LEGACY, Protocol::Next).expect_err(method);
            assert_eq!(error.code, INVALID_PARAMS);
        }
    }

    #[test]
    fn the_template_expands_completes_and_is_subscribable_only_below_2026_07_28() {
        let templates = answer(
            "resources/templates/list",
            None,
            LATEST_LEGACY,
            Protocol::Next,
        )
        .expect("answered");
        assert_eq!(templates["resourceTemplates"][0]["uriTemplate"], TEMPLATE);
        let params = json!({"uri": "probe://fieldnotes/topic/mcp"});
        let read = answer(
            "resources/read",
            Some(&params),
            LATEST_LEGACY,
            Protocol::Next,
        )
        .expect("answered");
        assert_eq!(read["contents"][0]["uri"], "probe://fieldnotes/topic/mcp");
        assert_eq!(read["contents"][0]["text"], "fieldnotes probe: topic mcp");
        let params = json!({"uri": "probe://elsewhere"});
        let error = answer(
            "resources/read",
            Some(&params),
            LATEST_LEGACY,
            Protocol::Next,
        )
        .expect_err("refused");
        assert_eq!(error.code, -32002);
        let params = json!({"ref": {"type": "ref/resource", "uri": TEMPLATE},
            "argument": {"name": "topic", "value": "f"}});
        let completed = answer(
            "completion/complete",
            Some(&params),
            LATEST_LEGACY,
            Protocol::Next,
        )
        .expect("answered");
        assert_eq!(completed["completion"]["values"][0], COMPLETION);
        let subscribable = |revision: &str| {
            let params = json!({"protocolVersion": revision});
            let result =
                answer("initialize", Some(&params), revision, Protocol::Next).expect("answered");
            assert_eq!(result["capabilities"]["completions"], json!({}));
            result["capabilities"]["resources"]["subscribe"] == json!(true)
        };
        assert!(subscribable(LATEST_LEGACY));
        assert!(!subscribable(STATELESS));
        let discover =
            answer("server/discover", None, STATELESS, Protocol::Next).expect("answered");
        assert!(discover["capabilities"]["resources"]
            .get("subscribe")
            .is_none());
    }
}
