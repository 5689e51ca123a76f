//! `fieldnotes probe http --auth oauth`: the probe's HTTP server is also the protected
//! resource (a 401 with `WWW-Authenticate` until a valid bearer token comes) and its own
//! authorization server ([`metadata`]: RFC 9728, RFC 8414 and OIDC discovery at the forms
//! `--discovery` offers; [`grant`]: DCR, Client ID Metadata Documents, an `/authorize` that
//! approves at once, `/token` with PKCE S256, `resource` and refresh). Every request of the
//! flow is kept in one flow log, with a record (`"dir": "auth"`) of what the client sent;
//! the first session that comes with a token takes the log as its first lines, else it is
//! written as a `no-session` observation of its own.

mod grant;
mod metadata;

use super::{http_event, learn_client, read_body, Body, Hub};
use crate::probe::session::{Session, Transport};
use crate::probe::settings::Settings;
use crate::probe::transcript::{Entry, Record};
use base64::Engine;
use grant::{Bearer, Grants, Step};
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::{Request, Response, StatusCode};
pub use metadata::Discovery;
use metadata::Urls;
use serde_json::json;
use std::time::{Duration, Instant};

/// How clients may register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// Dynamic client registration (RFC 7591) only.
    Dcr,
    /// Client ID Metadata Documents only.
    Cimd,
    Both,
}

impl Registration {
    pub fn id(self) -> &'static str {
        match self {
            Registration::Dcr => "dcr",
            Registration::Cimd => "cimd",
            Registration::Both => "both",
        }
    }
}

/// What `--auth oauth` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthConfig {
    pub registration: Registration,
    pub discovery: Discovery,
    /// How long an access token is valid (`expires_in`).
    pub lifetime: Duration,
    /// A token without `mcp:write` gets 403 `insufficient_scope` (scope step-up).
    pub step_up: bool,
}

impl AuthConfig {
    /// The observation's `probe.auth`: `oauth registration=… discovery=… lifetime=…s`.
    pub fn describe(&self) -> String {
        format!(
            "oauth registration={} discovery={} lifetime={}s{}",
            self.registration.id(),
            self.discovery.id(),
            self.lifetime.as_secs(),
            if self.step_up { " step-up" } else { "" }
        )
    }

    /// The observation id's part: `oauth`, `oauth-dcr` or `oauth-cimd`.
    pub fn tag(&self) -> String {
        match self.registration {
            Registration::Both => "oauth".to_string(),
            other => format!("oauth-{}", other.id()),
        }
    }
}

/// The authorization server's state and the flow log no session has taken yet.
pub(crate) struct Server {
    config: AuthConfig,
    urls: Urls,
    grants: Grants,
    settings: Settings,
    flow: Option<Session>,
    /// The report keys handed to browsers in `/authorize` redirects, newest last: a report
    /// to `/auth/browser` counts only with one of them, so the client under observation,
    /// which never sees the redirect's headers, cannot speak for its browser.
    report_keys: Vec<String>,
}

/// The header of an `/authorize` redirect that carries the browser's report key.
pub(crate) const REPORT_KEY_HEADER: &str = "fieldnotes-report-key";
/// How many report keys are kept.
const REPORT_KEYS: usize = 64;

/// The paths an MCP client reaches the protected resource on.
const MCP_PATHS: [&str; 3] = ["/mcp", "/sse", "/messages"];

impl Server {
    pub fn new(config: AuthConfig, base: &str, resource_path: &str, settings: Settings) -> Server {
        let dcr = config.registration != Registration::Cimd;
        let cimd = config.registration != Registration::Dcr;
        Server {
            urls: Urls::new(base, resource_path, &config.discovery),
            grants: Grants::new(dcr, cimd, config.lifetime),
            config,
            settings,
            flow: None,
            report_keys: Vec::new(),
        }
    }

    /// Appends to the flow log (begun if none).
    fn log(&mut self, entries: Vec<Entry>) -> &mut Session {
        let settings = self.settings;
        let flow = self.flow.get_or_insert_with(|| {
            let mut session = Session::new(Transport::StreamableHttp, settings);
            let offers = self.config.describe();
            let offers = offers.strip_prefix("oauth ").unwrap_or(&offers);
            session.note(format!("{}{offers}", crate::probe::rules::auth::OFFERS));
            session
        });
        for entry in entries {
            flow.transcript.push(entry);
        }
        flow.dirty = true;
        flow.last_heard = Instant::now();
        flow
    }

    /// The flow log, for a session begun with a token (what was written of it is removed).
    pub fn claim(&mut self, hub: &Hub) -> Vec<Record> {
        match self.flow.take() {
            Some(mut flow) => {
                hub.writer.remove(&mut flow);
                flow.transcript.take()
            }
            None => Vec::new(),
        }
    }

    /// Writes the flow log once quiet; drops it past the idle limit.
    pub fn tick(&mut self, hub: &Hub, now: Instant) {
        if let Some(flow) = self.flow.as_mut() {
            let idle = flow.is_idle(now);
            if flow.dirty && (idle || flow.is_quiet(now, hub.quiet)) {
                hub.write(flow);
            }
            if idle {
                self.flow = None;
            }
        }
    }

    /// Writes the flow log if it has something new (the probe is stopping).
    pub fn write_all(&mut self, hub: &Hub) {
        if let Some(flow) = self.flow.as_mut().filter(|f| f.dirty) {
            hub.write(flow);
        }
    }

    /// The transcript bytes held.
    pub fn bytes(&self) -> usize {
        self.flow.as_ref().map_or(0, |f| f.transcript.bytes())
    }
}

/// What the flow needs of a request before its body is read.
struct Head {
    method: String,
    path: String,
    query: String,
    authorization: Option<String>,
    event: crate::probe::transcript::HttpEvent,
}

/// Answers a request of the OAuth flow (discovery, the authorization server's endpoints, an
/// MCP request without a valid token); gives back any other request, and an MCP request
/// with a valid token, for the MCP routes.
pub(crate) async fn route(
    hub: &Hub,
    request: Request<Incoming>,
) -> Result<Response<Body>, Request<Incoming>> {
    let path = request.uri().path().to_string();
    let known = {
        let state = hub.lock();
        let Some(server) = state.oauth.as_ref() else {
            return Err(request);
        };
        metadata::well_known(&path, &server.urls.resource_path)
    };
    let auth_path = path.starts_with(&format!("{}/", metadata::ISSUER_PATH)) && known.is_none();
    let mcp = MCP_PATHS.contains(&path.as_str());
    if known.is_none() && !auth_path && !mcp {
        return Err(request);
    }
    let authorization = (request.headers().get("authorization"))
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if mcp {
        let mut state = hub.lock();
        let Some(server) = state.oauth.as_mut() else {
            return Err(request);
        };
        let bearer = server.grants.bearer(authorization.as_deref());
        let narrow = server.config.step_up
            && (server.grants).lacks(authorization.as_deref(), metadata::STEP_UP_SCOPE);
        if let (Bearer::Valid(first), false) = (bearer, narrow) {
            if first {
                let http = http_event(&request, StatusCode::OK, "none");
                server.log(vec![Entry::Auth {
                    auth: json!({"step": "bearer", "token": "valid", "method": http.method,
                        "path": http.path, "passed": true}),
                }]);
            }
            return Err(request);
        }
    }
    let head = Head {
        method: request.method().as_str().to_string(),
        path: path.clone(),
        query: request.uri().query().unwrap_or("").to_string(),
        authorization,
        event: http_event(&request, StatusCode::OK, "json"),
    };
    let body = read_body(request).await.unwrap_or_default();
    let mut state = hub.lock();
    let Some(server) = state.oauth.as_mut() else {
        return Ok(super::plain(StatusCode::NOT_FOUND, "not found"));
    };
    let (step, content_type) = if mcp {
        (unauthorized(server, &head), "application/json")
    } else if let Some(known) = known {
        (discovery(server, known), "application/json")
    } else {
        (endpoint(server, &head, &body), "application/json")
    };
    let report_key = (step.status == 302 && step.record.get("step") == Some(&json!("authorize")))
        .then(|| {
            let key = super::new_id();
            server.report_keys.push(key.clone());
            let excess = server.report_keys.len().saturating_sub(REPORT_KEYS);
            server.report_keys.drain(..excess);
            key
        });
    let mut event = head.event;
    event.status = step.status;
    event.stream = if step.body.is_null() { "none" } else { "json" }.into();
    // A browser report that comes once a session has taken the flow log says only that the
    // code got through, which that session shows: it begins no log of its own.
    let late_report = step.record.get("step") == Some(&json!("browser")) && server.flow.is_none();
    if !late_report {
        let flow = server.log(vec![
            Entry::Http { http: event },
            Entry::Auth {
                auth: step.record.clone(),
            },
        ]);
        if mcp {
            learn_client(flow, &body);
        }
    }
    let challenge = if step.status == 403 {
        server.urls.insufficient(&server.config.discovery)
    } else {
        server.urls.challenge(&server.config.discovery)
    };
    let mut response = answer(step, content_type, mcp.then_some(challenge));
    if let Some(key) = report_key.and_then(|k| HeaderValue::from_str(&k).ok()) {
        response.headers_mut().insert(REPORT_KEY_HEADER, key);
    }
    Ok(response)
}

fn answer(step: Step, content_type: &str, challenge: Option<String>) -> Response<Body> {
    let text = if step.body.is_null() {
        String::new()
    } else {
        step.body.to_string()
    };
    let mut response = Response::new(Body::text(text));
    *response.status_mut() =
        StatusCode::from_u16(step.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    if !step.body.is_null() {
        if let Ok(v) = HeaderValue::from_str(content_type) {
            headers.insert("content-type", v);
        }
    }
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    if let Some(location) = step.location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        headers.insert("location", location);
    }
    if let Some(challenge) = challenge.and_then(|c| HeaderValue::from_str(&c).ok()) {
        headers.insert("www-authenticate", challenge);
    }
    response
}

/// A 401 for an MCP request without a valid token; with `--step-up`, a 403
/// `insufficient_scope` for a valid token without `mcp:write`.
fn unauthorized(server: &mut Server, head: &Head) -> Step {
    let bearer = server.grants.bearer(head.authorization.as_deref());
    if let Bearer::Valid(_) = bearer {
        let required = format!("{} {}", metadata::SCOPE, metadata::STEP_UP_SCOPE);
        return Step {
            status: 403,
            location: None,
            body: json!({"error": "insufficient_scope", "error_description": format!("this request needs {}", metadata::STEP_UP_SCOPE)}),
            record: json!({"step": "bearer", "token": "valid", "method": head.method,
                "path": head.path, "passed": false, "status": 403,
                "error": "insufficient_scope", "scope_required": required}),
        };
    }
    let header = server.config.discovery.header;
    Step {
        status: 401,
        location: None,
        body: json!({"error": "invalid_token", "error_description": "sign in: this MCP server needs a bearer token"}),
        record: json!({
            "step": "bearer",
            "token": bearer.id(),
            "method": head.method,
            "path": head.path,
            "passed": false,
            "status": 401,
            "challenge": if header {
                json!({"resource_metadata": server.urls.resource_metadata(&server.config.discovery),
                       "scope": metadata::SCOPE})
            } else {
                json!({"scope": metadata::SCOPE})
            },
        }),
    }
}

/// A well-known document, or 404 where `--discovery` does not offer it.
fn discovery(server: &Server, known: metadata::WellKnown) -> Step {
    let served = server.config.discovery.serves(known);
    let record = json!({"step": "discovery", "document": known.document, "form": known.form,
        "status": if served { 200 } else { 404 }});
    let body = match (served, known.document) {
        (false, _) => json!({"error": "not_found"}),
        (true, "prm") => metadata::protected_resource(&server.urls),
        (true, _) => {
            metadata::authorization_server(&server.urls, server.grants.dcr, server.grants.cimd)
        }
    };
    Step {
        status: if served { 200 } else { 404 },
        location: None,
        body,
        record,
    }
}

/// `/auth/register`, `/auth/authorize`, `/auth/token`, `/auth/jwks`, and `/auth/browser`,
/// where `probe browser` says how the client's callback answered.
fn endpoint(server: &mut Server, head: &Head, body: &[u8]) -> Step {
    let name = (head.path.strip_prefix(metadata::ISSUER_PATH)).unwrap_or(&head.path);
    match (head.method.as_str(), name) {
        ("POST", "/register") => server.grants.register(body),
        ("GET", "/authorize") => server.grants.authorize(&head.query, &server.urls),
        ("POST", "/token") => {
            let basic = head.authorization.as_deref().and_then(basic);
            let text = String::from_utf8_lossy(body);
            server.grants.token(&text, basic, &server.urls)
        }
        ("POST", "/browser") => browser_report(&mut server.report_keys, body),
        ("GET", "/jwks") => Step {
            status: 200,
            location: None,
            body: json!({"keys": []}),
            record: json!({"step": "jwks", "status": 200}),
        },
        _ => Step {
            status: 404,
            location: None,
            body: json!({"error": "not_found"}),
            record: json!({"step": "unknown", "status": 404}),
        },
    }
}

/// `probe browser`'s word on the leg the probe cannot see: the status the client's callback
/// answered with (`callback=200`), or `callback=unreached`, with the report key of the
/// redirect it followed (used once). Anything else is refused and recorded as such, never
/// as a callback.
fn browser_report(keys: &mut Vec<String>, body: &[u8]) -> Step {
    let form = grant::form(&String::from_utf8_lossy(body));
    let said = form.get("callback").map(String::as_str);
    let callback = match said {
        Some("unreached") => Some(json!("unreached")),
        Some(code) => code
            .parse::<u16>()
            .ok()
            .filter(|c| (100..=599).contains(c))
            .map(|c| json!(c)),
        None => None,
    };
    let key = (form.get("key")).and_then(|k| keys.iter().position(|known| known == k));
    match (callback, key) {
        (Some(callback), Some(key)) => {
            keys.remove(key);
            Step {
                status: 204,
                location: None,
                body: serde_json::Value::Null,
                record: json!({"step": "browser", "callback": callback, "status": 204}),
            }
        }
        (callback, _) => Step {
            status: 400,
            location: None,
            body: json!({"error": "invalid_request",
                "error_description": "callback=STATUS or callback=unreached, with the key of the redirect followed"}),
            record: json!({"step": "unknown", "status": 400,
                "refused": if callback.is_some() { "browser report without a key this probe gave" } else { "browser report without a callback" }}),
        },
    }
}

/// The client id and secret of `Authorization: Basic …` (each form-decoded, RFC 6749 2.3.1).
fn basic(value: &str) -> Option<(String, String)> {
    let encoded = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (id, secret) = text.split_once(':')?;
    let pairs = grant::form(&format!("i={id}&s={secret}"));
    Some((pairs.get("i")?.clone(), pairs.get("s")?.clone()))
}
