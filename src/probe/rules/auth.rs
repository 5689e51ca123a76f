//! The authorization rules: what a client did against `probe http --auth oauth`, read from
//! the flow's records (`"dir": "auth"`): discovery (in the order tried), registration (DCR or
//! a Client ID Metadata Document), PKCE, the `resource` parameter, the token exchange, the
//! token's use on MCP requests and refresh. Nothing is claimed of a session with no flow, and
//! a flow the client never began (no authorization request) claims only `unknown`.

use super::facts::Facts;
use super::{finding, Basis, Finding, Status};
use serde_json::Value;
use std::collections::BTreeMap;

/// The note the flow log begins with; what follows says what the probe offered.
pub(crate) const OFFERS: &str = "probe offers oauth ";

/// One flow record: its line and fields.
#[derive(Clone, Copy)]
struct Step<'a> {
    line: usize,
    auth: &'a Value,
}

impl<'a> Step<'a> {
    fn text(&self, field: &str) -> Option<&'a str> {
        self.auth.get(field).and_then(Value::as_str)
    }

    fn status(&self) -> u64 {
        self.auth.get("status").and_then(Value::as_u64).unwrap_or(0)
    }
}

struct Flow<'a> {
    steps: Vec<Step<'a>>,
    /// `registration=` of the offer note: `dcr`, `cimd` or `both`.
    registration: Option<&'a str>,
}

impl<'a> Flow<'a> {
    fn of(&self, step: &str) -> impl Iterator<Item = Step<'a>> + '_ {
        let step = step.to_string();
        self.steps
            .iter()
            .copied()
            .filter(move |s| s.text("step") == Some(step.as_str()))
    }

    fn first(&self, step: &str) -> Option<Step<'a>> {
        self.of(step).next()
    }

    /// The authorization request the probe refused outright (no redirect back to the client,
    /// so no code), when none was answered with a redirect: the flow stopped at the probe,
    /// which says nothing of what the client does next. Its error is the probe's reason.
    fn stopped_by_probe(&self) -> Option<Step<'a>> {
        let mut refused = None;
        for step in self.of("authorize") {
            if (300..400).contains(&step.status()) {
                return None;
            }
            refused = refused.or(Some(step));
        }
        refused
    }

    /// What the scripted browser said of the client's callback after the authorization
    /// request on `line`: its report's line and `Ok(status)`, or `Err(())` when it could not
    /// reach it; `None` when no report came (another browser, or none).
    fn callback_after(&self, line: usize) -> Option<(usize, Result<u64, ()>)> {
        let report = self.of("browser").find(|s| s.line > line)?;
        let answered = report.auth.get("callback").and_then(Value::as_u64);
        Some((report.line, answered.ok_or(())))
    }

    /// The server's own URI (RFC 8707's `resource`), from the metadata URL its 401 named:
    /// `…/.well-known/oauth-protected-resource/mcp` is the metadata of `…/mcp`.
    fn resource_uri(&self) -> Option<String> {
        let named = self.of("bearer").find_map(|s| {
            s.auth
                .pointer("/challenge/resource_metadata")
                .and_then(Value::as_str)
        })?;
        let (origin, path) = named.split_once("/.well-known/oauth-protected-resource")?;
        Some(format!(
            "{origin}{}",
            if path.is_empty() { "/" } else { path }
        ))
    }
}

/// Every authorization rule that can judge the flow in `facts`.
pub(super) fn results(facts: &Facts) -> BTreeMap<&'static str, Finding> {
    let mut out = BTreeMap::new();
    if facts.auth.is_empty() {
        return out;
    }
    let registration = (facts.notes.iter())
        .find_map(|(_, n)| n.strip_prefix(OFFERS))
        .and_then(|rest| {
            rest.split_whitespace()
                .find_map(|w| w.strip_prefix("registration="))
        });
    let flow = Flow {
        steps: (facts.auth.iter())
            .map(|(line, auth)| Step { line: *line, auth })
            .collect(),
        registration,
    };
    let judged: [(&'static str, Option<Finding>); 7] = [
        ("authorization.oauth", oauth(&flow)),
        ("authorization.protectedResourceMetadata", metadata(&flow)),
        ("authorization.clientIdMetadata", cimd(&flow)),
        ("authorization.dynamicClientRegistration", dcr(&flow)),
        ("authorization.pkce", pkce(&flow)),
        ("authorization.resourceIndicators", resource(&flow)),
        ("authorization.scopeStepUp", step_up(&flow)),
    ];
    for (id, found) in judged {
        if let Some(mut found) = found {
            found.messages.sort_unstable();
            found.messages.dedup();
            out.insert(id, found);
        }
    }
    out
}

/// The authorization code flow: a code exchanged for a token, the token sent on MCP
/// requests, and refreshed.
fn oauth(flow: &Flow) -> Option<Finding> {
    let challenged = flow.of("bearer").find(|s| s.status() == 401);
    let authorized = flow.first("authorize");
    let exchanged = flow
        .of("token")
        .find(|s| s.text("grant_type") == Some("authorization_code") && s.status() == 200);
    if let (Some(refused), None) = (flow.stopped_by_probe(), exchanged) {
        let mut lines: Vec<usize> = challenged.iter().map(|s| s.line).collect();
        lines.push(refused.line);
        return finding(
            Status::Unknown,
            Basis::Absent,
            format!(
                "the probe refused its authorization request ({}), so the flow could not go on",
                refused.text("error").unwrap_or("no redirect")
            ),
            lines,
        );
    }
    let (Some(authorize), Some(token)) = (authorized, exchanged) else {
        let lines: Vec<usize> = challenged
            .iter()
            .chain(&authorized)
            .map(|s| s.line)
            .collect();
        // A code exchange the token endpoint refused is the client's; no exchange at all
        // shows only that the flow stopped between the browser and the client's callback
        // (a sign-in left unfinished, a client waiting for the code to be pasted).
        let refused = flow
            .of("token")
            .find(|s| s.text("grant_type") == Some("authorization_code"));
        let report = authorized.and_then(|a| flow.callback_after(a.line));
        let callback = report.map(|(_, answered)| answered);
        let (status, basis, why) = match (authorized, refused, callback) {
            (Some(_), Some(_), _) => (
                Status::No,
                Basis::Refused,
                "sent an authorization request, but the token endpoint refused its code \
                 exchange"
                    .to_string(),
            ),
            (Some(_), None, Some(Ok(code @ 200..=399))) => (
                Status::No,
                Basis::Absent,
                format!(
                    "sent an authorization request, and the code reached its callback (the \
                     browser was answered {code}), but it exchanged no code at the token endpoint"
                ),
            ),
            (Some(_), None, Some(answered)) => (
                Status::Unknown,
                Basis::Absent,
                format!(
                    "sent an authorization request, but the browser could not hand the code to \
                     its callback ({}), so no exchange could follow",
                    answered.map_or("unreached".to_string(), |c| format!("answered {c}"))
                ),
            ),
            (Some(_), None, None) => (
                Status::Unknown,
                Basis::Absent,
                "sent an authorization request, but no code came back to the token endpoint in \
                 this session: the flow stopped before the client's callback took the code"
                    .to_string(),
            ),
            (None, _, _) => (
                Status::Unknown,
                Basis::Absent,
                "began no authorization request in this session".to_string(),
            ),
        };
        let lines: Vec<usize> = (lines.into_iter())
            .chain(refused.map(|s| s.line))
            .chain(report.map(|(line, _)| line))
            .collect();
        return (!lines.is_empty()).then_some(Finding {
            status,
            basis,
            why,
            messages: lines,
        });
    };
    let mut lines: Vec<usize> = challenged.iter().map(|s| s.line).collect();
    lines.extend([authorize.line, token.line]);
    let mut why = "completed the authorization code flow (authorize, then a code exchanged at \
                   the token endpoint)"
        .to_string();
    if let Some(used) = flow
        .of("bearer")
        .find(|s| s.auth.get("passed") == Some(&Value::Bool(true)))
    {
        lines.push(used.line);
        why.push_str(" and sent the bearer token on its MCP requests");
    }
    if let Some(refreshed) = flow
        .of("token")
        .find(|s| s.text("grant_type") == Some("refresh_token") && s.status() == 200)
    {
        lines.push(refreshed.line);
        why.push_str("; refreshed it with the refresh token");
    }
    finding(Status::Yes, Basis::Did, why, lines)
}

/// RFC 9728: the protected resource metadata fetched, and the authorization server metadata
/// after it; the discovery order is said.
fn metadata(flow: &Flow) -> Option<Finding> {
    let tried: Vec<Step> = flow.of("discovery").collect();
    if tried.is_empty() {
        return None;
    }
    let order: Vec<String> = tried
        .iter()
        .map(|s| {
            format!(
                "{} {} {}",
                s.text("document").unwrap_or("?"),
                s.text("form").unwrap_or("?"),
                s.status()
            )
        })
        .collect();
    let mut order_text: Vec<String> = Vec::new();
    for o in order {
        if order_text.last() != Some(&o) && !order_text.contains(&o) {
            order_text.push(o);
        }
    }
    let order_text = order_text.join(", ");
    let prm = tried
        .iter()
        .find(|s| s.text("document") == Some("prm") && s.status() == 200);
    let server = tried
        .iter()
        .find(|s| s.text("document") != Some("prm") && s.status() == 200);
    match (prm, server) {
        (Some(prm), Some(server)) if server.line > prm.line => finding(
            Status::Yes,
            Basis::Did,
            format!(
                "fetched the protected resource metadata, then the authorization server's; \
                 discovery order: {order_text}"
            ),
            vec![prm.line, server.line],
        ),
        (None, Some(server)) => finding(
            Status::No,
            Basis::Absent,
            format!(
                "fetched authorization server metadata without the protected resource \
                 metadata; discovery order: {order_text}"
            ),
            vec![server.line],
        ),
        _ => finding(
            Status::Unknown,
            Basis::Absent,
            format!("discovery order: {order_text}"),
            tried.iter().map(|s| s.line).take(5).collect(),
        ),
    }
}

/// Client ID Metadata Documents: a URL `client_id` at `/authorize`; not taking part when the
/// server offered nothing else.
fn cimd(flow: &Flow) -> Option<Finding> {
    if let Some(used) = flow
        .of("authorize")
        .find(|s| s.text("client") == Some("cimd"))
    {
        return finding(
            Status::Yes,
            Basis::Did,
            format!(
                "sent a URL client_id ({}) in its authorization request",
                used.text("client_id").unwrap_or("?")
            ),
            vec![used.line],
        );
    }
    if flow.registration != Some("cimd") {
        return None;
    }
    let seen: Vec<usize> = (flow.steps.iter())
        .filter(|s| matches!(s.text("step"), Some("discovery" | "register" | "authorize")))
        .map(|s| s.line)
        .collect();
    let last = *seen.last()?;
    let mut lines: Vec<usize> = seen.into_iter().take(3).collect();
    lines.push(last);
    finding(
        Status::No,
        Basis::Absent,
        "the server offered only Client ID Metadata Documents (no registration endpoint); \
         the client sent no authorization request with a URL client_id",
        lines,
    )
}

/// Dynamic client registration: `POST /register` answered 201, and its client id used.
fn dcr(flow: &Flow) -> Option<Finding> {
    let registered = flow.of("register").find(|s| s.status() == 201)?;
    let mut lines = vec![registered.line];
    let used = flow
        .of("authorize")
        .find(|s| s.text("client") == Some("dcr") && s.line > registered.line);
    lines.extend(used.map(|s| s.line));
    let name = registered
        .text("client_name")
        .map_or(String::new(), |n| format!(" as \"{n}\""));
    let why = if used.is_some() {
        format!("registered{name} at the registration endpoint and used the client id issued")
    } else {
        format!("registered{name} at the registration endpoint")
    };
    finding(Status::Yes, Basis::Did, why, lines)
}

/// PKCE: the challenge method at `/authorize`, and the verifier the token endpoint checked.
fn pkce(flow: &Flow) -> Option<Finding> {
    let authorize = flow.first("authorize")?;
    let method = authorize.text("code_challenge_method");
    let token = flow
        .of("token")
        .find(|s| s.text("grant_type") == Some("authorization_code"));
    let verified = token.filter(|t| t.text("pkce") == Some("verified"));
    let mut lines = vec![authorize.line];
    lines.extend(token.map(|t| t.line));
    let length = authorize
        .auth
        .get("code_challenge_length")
        .and_then(Value::as_u64);
    match (method, length, verified) {
        (Some("S256"), Some(length), Some(_)) => finding(
            Status::Yes,
            Basis::Did,
            format!(
                "sent an S256 code challenge ({length} characters) and the verifier that \
                 matched it at the token endpoint"
            ),
            lines,
        ),
        (Some("S256"), Some(length), None) if flow.stopped_by_probe().is_some() => finding(
            Status::Unknown,
            Basis::Did,
            format!(
                "sent an S256 code challenge ({length} characters); the probe refused the \
                 request, so no code was issued and no verifier could follow"
            ),
            lines,
        ),
        (Some("S256"), Some(length), None) if token.is_none() => finding(
            Status::Unknown,
            Basis::Did,
            format!(
                "sent an S256 code challenge ({length} characters); no code exchange followed \
                 in this session, so no verifier could be checked"
            ),
            lines,
        ),
        (Some("S256"), Some(_), None) => finding(
            Status::Partial,
            Basis::Did,
            "sent an S256 code challenge, but no verifier that matched it",
            lines,
        ),
        (Some(other), _, _) => finding(
            Status::Partial,
            Basis::Did,
            format!("sent code_challenge_method {other}, not S256"),
            lines,
        ),
        (None, _, _) => finding(
            Status::No,
            Basis::Absent,
            "sent no code challenge in its authorization request",
            lines,
        ),
    }
}

/// RFC 8707: `resource` on the authorization request and on the token request.
fn resource(flow: &Flow) -> Option<Finding> {
    let authorize = flow.first("authorize")?;
    let token = flow.first("token");
    let at_authorize = authorize.text("resource");
    let at_token = token.and_then(|t| t.text("resource"));
    let mut lines = vec![authorize.line];
    lines.extend(token.map(|t| t.line));
    let same = |a: &str, b: &str| a.trim_end_matches('/') == b.trim_end_matches('/');
    if let Some(server) = flow.resource_uri() {
        if let Some(wrong) = [at_authorize, at_token]
            .into_iter()
            .flatten()
            .find(|sent| !same(sent, &server))
        {
            return finding(
                Status::Partial,
                Basis::Did,
                format!("sent resource={wrong}, which is not the server's URI {server}"),
                lines,
            );
        }
    }
    match (at_authorize, at_token) {
        (Some(a), Some(_)) => finding(
            Status::Yes,
            Basis::Did,
            format!("sent resource={a} on the authorization and the token request"),
            lines,
        ),
        (Some(a), None) if token.is_none() => finding(
            Status::Yes,
            Basis::Did,
            format!("sent resource={a} on the authorization request (no token request)"),
            lines,
        ),
        (Some(_), None) => finding(
            Status::Partial,
            Basis::Did,
            "sent resource on the authorization request, not on the token request",
            lines,
        ),
        (None, Some(_)) => finding(
            Status::Partial,
            Basis::Did,
            "sent resource on the token request, not on the authorization request",
            lines,
        ),
        (None, None) => finding(
            Status::No,
            Basis::Absent,
            "sent no resource parameter",
            lines,
        ),
    }
}

/// Scope step-up (`--step-up`): after a 403 `insufficient_scope`, an authorization request
/// for the scopes it named, and the request retried with the new token.
fn step_up(flow: &Flow) -> Option<Finding> {
    let refused = flow
        .of("bearer")
        .find(|s| s.status() == 403 && s.text("error") == Some("insufficient_scope"))?;
    let required: Vec<&str> = refused
        .text("scope_required")
        .map_or(Vec::new(), |r| r.split_whitespace().collect());
    let again = flow.of("authorize").find(|s| {
        s.line > refused.line
            && s.text("scope").is_some_and(|asked| {
                required
                    .iter()
                    .all(|r| asked.split_whitespace().any(|a| a == *r))
            })
    });
    let Some(again) = again else {
        return finding(
            Status::No,
            Basis::Absent,
            format!(
                "got 403 insufficient_scope naming scope \"{}\" and sent no authorization \
                 request for it",
                required.join(" ")
            ),
            vec![refused.line],
        );
    };
    let asked = again.text("scope").unwrap_or("");
    // As for the first sign-in: without a code exchange after it, the new authorization
    // stopped short of the client's callback, and what the client would do with a new
    // token is not shown.
    if !flow.of("token").any(|s| s.line > again.line) {
        let report = flow.callback_after(again.line);
        let mut lines = vec![refused.line, again.line];
        lines.extend(report.map(|(line, _)| line));
        return match report.map(|(_, answered)| answered) {
            Some(Ok(code @ 200..=399)) => finding(
                Status::Partial,
                Basis::Absent,
                format!(
                    "after 403 insufficient_scope, authorized again with scope \"{asked}\", and \
                     the code reached its callback (the browser was answered {code}), but it \
                     exchanged no code, so no request went out with a wider token"
                ),
                lines,
            ),
            _ => finding(
                Status::Unknown,
                Basis::Absent,
                format!(
                    "after 403 insufficient_scope, authorized again with scope \"{asked}\", but \
                     no code exchange followed in this session, so a retry with a new token \
                     could not be seen"
                ),
                lines,
            ),
        };
    }
    let retried = flow
        .of("bearer")
        .find(|s| s.line > again.line && s.auth.get("passed") == Some(&Value::Bool(true)));
    match retried {
        Some(passed) => finding(
            Status::Yes,
            Basis::Did,
            format!(
                "after 403 insufficient_scope, authorized again with scope \"{asked}\" and \
                 retried with the new token"
            ),
            vec![refused.line, again.line, passed.line],
        ),
        None => finding(
            Status::Partial,
            Basis::Did,
            format!(
                "after 403 insufficient_scope, authorized again with scope \"{asked}\", but \
                 sent no request with a new token"
            ),
            vec![refused.line, again.line],
        ),
    }
}
