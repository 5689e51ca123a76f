//! What the scripted model answers, whatever API it is spoken to in: always the [`Target`]
//! tool — the probe's `probe_echo`, or another server's tool named with `--tool` — by way of a
//! client's tool search and `tool_call` bridge when the client defers its MCP tools; then,
//! once the tool's result is back, a closing text. A request offering no tools (a title, a
//! routing question) gets plain text. Each API module turns a request into a [`Turn`] and a
//! [`Step`] into its own response shape.

use crate::probe::protocol::{STRUCTURED_MARK, TEXT_MARK, TOOL};
use serde_json::{json, Value};

/// A tool the client offered the model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Offered {
    pub name: String,
    /// Codex: the Responses `namespace` the tool sits in.
    pub namespace: Option<String>,
    /// Its input schema, as the API carries it.
    pub schema: Value,
    /// Offered only to be found by a tool search (Anthropic `defer_loading`).
    pub deferred: bool,
}

/// A tool call in the conversation and the result the client passed back for it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ran {
    pub name: String,
    pub output: Value,
}

/// One request, read.
#[derive(Debug, Default)]
pub(crate) struct Turn {
    pub model: String,
    pub stream: bool,
    pub tools: Vec<Offered>,
    pub results: Vec<Ran>,
    /// How many tool calls the conversation holds (answered or not).
    pub calls: usize,
    /// The request body as text, where a deferred tool's name is looked for.
    pub text: String,
}

impl Turn {
    /// A turn of a request body that names its `model` and whether to `stream` (Anthropic,
    /// Chat Completions, Responses; Gemini puts both in the URL); `text` is filled in later.
    pub(super) fn of_body(
        body: &Value,
        tools: Vec<Offered>,
        results: Vec<Ran>,
        calls: usize,
    ) -> Turn {
        Turn {
            model: body
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            stream: body.get("stream") == Some(&Value::Bool(true)),
            tools,
            results,
            calls,
            text: String::new(),
        }
    }
}

/// What the model does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    Call {
        name: String,
        namespace: Option<String>,
        arguments: Value,
    },
    Say(String),
}

/// Why the model took its step: `side` (no tools offered), `search` (the client's tool
/// search), `bridge` (Qwen's `tool_call`), `call` (the probe's tool), `final` (the result is
/// back, or the tool could not be reached).
pub(crate) type Kind = &'static str;

/// The argument the model passes the probe's tool.
pub(crate) const ARGUMENT: &str = "fieldnotes";

/// The tool the model calls, and with what.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    /// The tool's name as its server lists it; a client may prefix it (`mcp__server__NAME`,
    /// `server_NAME`).
    pub tool: String,
    pub arguments: Value,
}

impl Default for Target {
    /// The probe's own tool, whose result carries marks that tell what a client showed.
    fn default() -> Target {
        Target {
            tool: TOOL.to_string(),
            arguments: json!({"text": ARGUMENT}),
        }
    }
}

impl Target {
    /// Whether a tool name is this tool as a client names it (`mcp__probe__probe_echo`,
    /// `probe_probe_echo`, `probe_echo`).
    pub(crate) fn is(&self, name: &str) -> bool {
        name == self.tool || name.ends_with(&format!("_{}", self.tool))
    }

    /// Whether a result in the conversation is this tool's answer: for the probe's tool, one
    /// that carries a mark (a denial or an error does not); for any other tool, any result of
    /// it or of the client's `tool_call` bridge.
    fn answered(&self, ran: &Ran) -> bool {
        if self.tool == TOOL {
            return shown(&ran.output) != "neither";
        }
        self.is(&ran.name) || ran.name == "tool_call"
    }
}

/// How many tool results a conversation may hold before the model gives up.
const MAX_RESULTS: usize = 4;

/// The step for `turn`, calling `target`.
pub(crate) fn decide(turn: &Turn, target: &Target) -> (Step, Kind) {
    let say = |text: &str| Step::Say(text.to_string());
    if turn.results.iter().any(|r| target.answered(r)) {
        return (say(&format!("The tool {} answered.", target.tool)), "final");
    }
    if turn.results.len().max(turn.calls) >= MAX_RESULTS {
        return (
            say(&format!("The tool {} did not answer.", target.tool)),
            "final",
        );
    }
    if turn.tools.is_empty() {
        return (say("fieldnotes probe model"), "side");
    }
    let arguments = target.arguments.clone();
    let searched = turn.results.iter().any(|r| is_search(&r.name));
    let probe = turn.tools.iter().find(|t| target.is(&t.name));
    if let Some(tool) = probe.filter(|t| !t.deferred || searched) {
        let step = Step::Call {
            name: tool.name.clone(),
            namespace: tool.namespace.clone(),
            arguments,
        };
        return (step, "call");
    }
    let wanted = probe
        .map(|t| t.name.clone())
        .or_else(|| deferred_name(&turn.text, &target.tool));
    if let (Some(bridge), Some(wanted), true) = (find(turn, "tool_call"), &wanted, searched) {
        let step = Step::Call {
            name: bridge.name.clone(),
            namespace: bridge.namespace.clone(),
            arguments: json!({"name": wanted, "arguments": arguments}),
        };
        return (step, "bridge");
    }
    let search = turn.tools.iter().find(|t| is_search(&t.name));
    if let (Some(search), Some(wanted), false) = (search, &wanted, searched) {
        let field = query_field(&search.schema);
        let step = Step::Call {
            name: search.name.clone(),
            namespace: search.namespace.clone(),
            arguments: json!({ field: format!("select:{wanted}") }),
        };
        return (step, "search");
    }
    (
        say(&format!("The tool {} was not offered.", target.tool)),
        "final",
    )
}

fn find<'a>(turn: &'a Turn, name: &str) -> Option<&'a Offered> {
    turn.tools.iter().find(|t| t.name == name)
}

fn is_search(name: &str) -> bool {
    matches!(name, "ToolSearch" | "tool_search")
}

/// The property of a search tool's input schema that takes the query: `query` when it has
/// one, else its first required property.
fn query_field(schema: &Value) -> String {
    let properties = schema.get("properties").and_then(Value::as_object);
    if properties.is_some_and(|p| p.contains_key("query")) {
        return "query".into();
    }
    schema
        .get("required")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_str)
        .unwrap_or("query")
        .to_string()
}

/// The full name a client gives a deferred `tool`, from the text of its request (a reminder
/// listing deferred tools): the longest word ending in the tool's name.
fn deferred_name(text: &str, tool: &str) -> Option<String> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(tool)
        .filter_map(|(at, _)| {
            let end = at + tool.len();
            if text[end..].chars().next().is_some_and(is_word) {
                return None;
            }
            let start = text[..at]
                .char_indices()
                .rev()
                .take_while(|(_, c)| is_word(*c))
                .last()
                .map_or(at, |(i, _)| i);
            Some(text[start..end].to_string())
        })
        .max_by_key(String::len)
}

/// What of the probe's tool result a client passed the model: `text`, `structuredContent`,
/// `both` or `neither` (the result's two parts carry different marks).
pub(crate) fn shown(output: &Value) -> &'static str {
    let text = output.to_string();
    match (text.contains(TEXT_MARK), text.contains(STRUCTURED_MARK)) {
        (true, true) => "both",
        (true, false) => "text",
        (false, true) => "structuredContent",
        (false, false) => "neither",
    }
}

/// The id of the model's next call: one per call in the conversation, so a client never
/// sees two calls under one id.
pub(crate) fn call_id(prefix: &str, turn: &Turn) -> String {
    format!("{prefix}_fieldnotes_{}", turn.calls + 1)
}

/// The arguments of a call as the JSON text APIs carry them.
pub(crate) fn arguments_text(arguments: &Value) -> String {
    arguments.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(name: &str) -> Offered {
        Offered {
            name: name.into(),
            namespace: None,
            schema: json!({"type": "object", "properties": {"query": {"type": "string"}}}),
            deferred: false,
        }
    }

    #[test]
    fn the_probe_tool_is_called_then_the_turn_ends_with_text() {
        let mut turn = Turn {
            tools: vec![offered("Read"), offered("mcp__probe__probe_echo")],
            ..Turn::default()
        };
        let (step, kind) = decide(&turn, &Target::default());
        assert_eq!(kind, "call");
        assert!(matches!(step, Step::Call { name, .. } if name == "mcp__probe__probe_echo"));
        turn.results.push(Ran {
            name: "mcp__probe__probe_echo".into(),
            output: json!([{"type": "text", "text": format!("{TEXT_MARK}: fieldnotes")}]),
        });
        assert_eq!(decide(&turn, &Target::default()).1, "final");
        assert_eq!(shown(&turn.results[0].output), "text");
    }

    #[test]
    fn a_deferred_tool_is_searched_for_then_called_through_the_bridge() {
        let mut turn = Turn {
            tools: vec![offered("tool_search"), offered("tool_call")],
            text: "deferred tools: mcp__probe__probe_echo, other".into(),
            ..Turn::default()
        };
        let (step, kind) = decide(&turn, &Target::default());
        assert_eq!(kind, "search");
        assert_eq!(
            step,
            Step::Call {
                name: "tool_search".into(),
                namespace: None,
                arguments: json!({"query": "select:mcp__probe__probe_echo"}),
            }
        );
        turn.results.push(Ran {
            name: "tool_search".into(),
            output: json!("found"),
        });
        let (step, kind) = decide(&turn, &Target::default());
        assert_eq!(kind, "bridge");
        assert!(matches!(step, Step::Call { arguments, .. }
            if arguments["name"] == "mcp__probe__probe_echo"));
    }

    #[test]
    fn no_tools_is_a_side_request_and_results_without_marks_end_the_turn() {
        assert_eq!(decide(&Turn::default(), &Target::default()).1, "side");
        let turn = Turn {
            tools: vec![offered("probe_echo")],
            results: (0..MAX_RESULTS)
                .map(|_| Ran {
                    name: "probe_echo".into(),
                    output: json!("denied"),
                })
                .collect(),
            ..Turn::default()
        };
        assert_eq!(decide(&turn, &Target::default()).1, "final");
        assert_eq!(
            shown(&json!({"a": TEXT_MARK, "b": STRUCTURED_MARK})),
            "both"
        );
    }

    #[test]
    fn another_servers_tool_is_called_with_the_given_arguments_then_the_turn_ends() {
        let target = Target {
            tool: "support".into(),
            arguments: json!({"client": "cline"}),
        };
        let mut turn = Turn {
            tools: vec![
                offered("mcp__probe__probe_echo"),
                offered("mcp__kb__support"),
            ],
            ..Turn::default()
        };
        let (step, kind) = decide(&turn, &target);
        assert_eq!(kind, "call");
        assert_eq!(
            step,
            Step::Call {
                name: "mcp__kb__support".into(),
                namespace: None,
                arguments: json!({"client": "cline"}),
            }
        );
        // A result without the probe's marks still ends the turn: it is the target's.
        turn.results.push(Ran {
            name: "mcp__kb__support".into(),
            output: json!("status: yes"),
        });
        assert_eq!(decide(&turn, &target).1, "final");
        // A tool whose name only contains the target's is not it.
        assert!(!target.is("mcp__kb__support_matrix"));
        assert!(target.is("kb_support"));
    }
}
