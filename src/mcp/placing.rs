//! Where a draft goes, asked of the client (2026-07-28 multi round-trip): a `lint` call with
//! no `path` whose draft has no `id` to place it by is answered with `input_required` and a
//! form elicitation asking which file of the site the draft replaces (or which new file it
//! is); the client asks its user and calls again with the answer in `inputResponses`, which
//! becomes the call's `path`. A client that cannot be asked (an older revision, or no
//! `elicitation` capability) gets the tool error it always got, which names `path`.

use super::draft;
use rmcp::model::{
    CallToolRequestParams, ElicitRequest, ElicitRequestParams, InputRequest, InputRequests,
    InputRequiredResult, ProtocolVersion,
};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{json, Value};

/// The tool that places drafts.
const TOOL: &str = "lint";

/// The key of the question in `inputRequests`, and of the answer in `inputResponses`.
const QUESTION: &str = "path";

/// The question to send back instead of running the call, when it needs one.
pub fn ask(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<InputRequiredResult> {
    let unplaced = request.name == TOOL
        && path_argument(request).is_none()
        && answer(request).is_none()
        && text_argument(request).is_some_and(|text| draft::front_matter_id(text).is_err());
    if unplaced && can_ask(context) {
        question()
    } else {
        None
    }
}

/// The call with the client's answer, if it gave one, as its `path`.
pub fn answered(mut request: CallToolRequestParams) -> CallToolRequestParams {
    if request.name != TOOL || path_argument(&request).is_some() {
        return request;
    }
    if let Some(path) = answer(&request) {
        let path = Value::String(path.to_string());
        request
            .arguments
            .get_or_insert_default()
            .insert(QUESTION.to_string(), path);
    }
    request
}

/// Whether the request is of 2026-07-28 and its client takes form elicitations (a bare
/// `elicitation: {}` means forms).
fn can_ask(context: &RequestContext<RoleServer>) -> bool {
    let modern = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    let forms = context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    modern && forms
}

/// The form asking for the file; `None` if rmcp would not take its schema (then the call
/// runs, and says what is missing as before).
fn question() -> Option<InputRequiredResult> {
    let schema = json!({
        "type": "object",
        "properties": {QUESTION: {
            "type": "string",
            "title": "File",
            "description": "content/research/<id>.md for a note (or content/clients/, \
                            content/capabilities/, content/guides/); a file the site has \
                            already is checked as an edit of it",
        }},
        "required": [QUESTION],
    });
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: "The draft has no `id` in its front matter. Which file of the site does it \
                  replace, or which new file is it?"
            .to_string(),
        requested_schema: serde_json::from_value(schema).ok()?,
    };
    let mut requests = InputRequests::new();
    requests.insert(
        QUESTION.to_string(),
        InputRequest::Elicitation(ElicitRequest::new(params)),
    );
    Some(InputRequiredResult::from_input_requests(requests))
}

/// The path the client's user gave, when they accepted the question.
fn answer(request: &CallToolRequestParams) -> Option<&str> {
    let response = request.input_responses.as_ref()?.get(QUESTION)?;
    if response.get("action")?.as_str()? != "accept" {
        return None;
    }
    response
        .pointer(&format!("/content/{QUESTION}"))?
        .as_str()
        .map(str::trim)
        .filter(|path| !path.is_empty())
}

fn path_argument(request: &CallToolRequestParams) -> Option<&str> {
    request
        .arguments
        .as_ref()?
        .get(QUESTION)?
        .as_str()
        .map(str::trim)
        .filter(|path| !path.is_empty())
}

fn text_argument(request: &CallToolRequestParams) -> Option<&str> {
    request.arguments.as_ref()?.get("text")?.as_str()
}
