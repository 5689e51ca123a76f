//! The authorization server's endpoints, without I/O: dynamic client registration, an
//! `/authorize` that approves at once, a `/token` that checks PKCE S256, the `resource`
//! parameter and refresh tokens, and the bearer check of the protected resource. Each step
//! returns its answer and what the transcript keeps of it: the shape of what the client sent
//! (PKCE method, challenge and verifier lengths, `resource`, scopes), never a code, token,
//! verifier or secret.

use super::metadata::Urls;
use base64::Engine;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How many clients, codes and tokens are kept; past it the oldest kind is cleared.
const MAX_KEPT: usize = 256;

/// What one endpoint answers, and the transcript's record of the step.
#[derive(Debug)]
pub(crate) struct Step {
    pub status: u16,
    /// `Location` of a redirect.
    pub location: Option<String>,
    pub body: Value,
    pub record: Value,
}

#[derive(Debug, Clone)]
struct Client {
    redirect_uris: Vec<String>,
    secret: Option<String>,
}

#[derive(Debug, Clone)]
struct Code {
    client_id: String,
    redirect_uri: String,
    challenge: String,
    resource: Option<String>,
    scope: Option<String>,
}

#[derive(Debug, Clone)]
struct Grant {
    client_id: String,
    resource: Option<String>,
    scope: Option<String>,
}

/// What the bearer check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bearer {
    Missing,
    /// An `Authorization` that is not `Bearer …`.
    OtherScheme,
    Unknown,
    Expired,
    /// Valid; `true` the first time this token is used.
    Valid(bool),
}

impl Bearer {
    pub fn id(self) -> &'static str {
        match self {
            Bearer::Missing => "missing",
            Bearer::OtherScheme => "other-scheme",
            Bearer::Unknown => "unknown",
            Bearer::Expired => "expired",
            Bearer::Valid(_) => "valid",
        }
    }
}

/// Registered clients, codes not yet exchanged, tokens issued.
#[derive(Debug)]
pub(crate) struct Grants {
    pub dcr: bool,
    pub cimd: bool,
    pub lifetime: Duration,
    clients: BTreeMap<String, Client>,
    codes: BTreeMap<String, Code>,
    /// Access tokens: until when, whether used yet, the scope granted.
    access: BTreeMap<String, (Instant, bool, String)>,
    refresh: BTreeMap<String, Grant>,
}

/// `application/x-www-form-urlencoded` (or a query) as pairs, percent-decoded; the first of a
/// repeated name wins.
pub(crate) fn form(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for pair in text.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        out.entry(decode(name)).or_insert_with(|| decode(value));
    }
    out
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match text.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16)) {
                Some(Ok(b)) => {
                    out.push(b);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether `uri` is an `http` URL on this machine (a native client's callback).
fn loopback(uri: &str) -> bool {
    let Some(rest) = uri.strip_prefix("http://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
    matches!(host, "127.0.0.1" | "localhost" | "[::1]")
}

/// The secret-free shape of a value: present, and how long.
fn shape(value: Option<&String>) -> Value {
    value.map_or(Value::Null, |v| json!(v.len()))
}

fn error(status: u16, code: &str, why: &str, mut record: Value) -> Step {
    record["status"] = json!(status);
    record["error"] = json!(format!("{code}: {why}"));
    Step {
        status,
        location: None,
        body: json!({"error": code, "error_description": why}),
        record,
    }
}

impl Grants {
    pub fn new(dcr: bool, cimd: bool, lifetime: Duration) -> Grants {
        Grants {
            dcr,
            cimd,
            lifetime,
            clients: BTreeMap::new(),
            codes: BTreeMap::new(),
            access: BTreeMap::new(),
            refresh: BTreeMap::new(),
        }
    }

    /// `POST /auth/register` (RFC 7591): the loopback redirect URIs asked for are registered.
    pub fn register(&mut self, body: &[u8]) -> Step {
        let mut record = json!({"step": "register"});
        if !self.dcr {
            return error(
                404,
                "invalid_request",
                "this server offers no dynamic client registration",
                record,
            );
        }
        let Ok(Value::Object(asked)) = serde_json::from_slice::<Value>(body) else {
            return error(400, "invalid_client_metadata", "not a JSON object", record);
        };
        for field in [
            "client_name",
            "redirect_uris",
            "grant_types",
            "response_types",
            "token_endpoint_auth_method",
            "scope",
            "application_type",
        ] {
            if let Some(value) = asked.get(field) {
                record[field] = value.clone();
            }
        }
        let redirect_uris: Vec<String> = (asked.get("redirect_uris").and_then(Value::as_array))
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        // Only callbacks on this machine are registered (so no code is ever sent elsewhere);
        // others are dropped from the registration, as RFC 7591 lets a server do, and the
        // answer names what was kept. A client that offers none here is refused.
        let (redirect_uris, dropped): (Vec<String>, Vec<String>) =
            redirect_uris.into_iter().partition(|u| loopback(u));
        if redirect_uris.is_empty() {
            return error(
                400,
                "invalid_redirect_uri",
                "redirect_uris must be http URLs on this machine",
                record,
            );
        }
        if !dropped.is_empty() {
            record["dropped_redirect_uris"] = json!(dropped);
        }
        let method = (asked
            .get("token_endpoint_auth_method")
            .and_then(Value::as_str))
        .unwrap_or("client_secret_basic")
        .to_string();
        let client_id = format!("dcr-{}", super::super::new_id());
        let secret = (method != "none").then(super::super::new_id);
        keep(&mut self.clients);
        self.clients.insert(
            client_id.clone(),
            Client {
                redirect_uris: redirect_uris.clone(),
                secret: secret.clone(),
            },
        );
        let mut answer = Map::from_iter(asked);
        answer.insert("redirect_uris".into(), json!(redirect_uris));
        answer.insert("client_id".into(), json!(client_id));
        answer.insert("token_endpoint_auth_method".into(), json!(method));
        if let Some(secret) = secret {
            answer.insert("client_secret".into(), json!(secret));
            answer.insert("client_secret_expires_at".into(), json!(0));
        }
        record["status"] = json!(201);
        record["issued"] = json!(if method == "none" {
            "client_id"
        } else {
            "client_id and client_secret"
        });
        Step {
            status: 201,
            location: None,
            body: Value::Object(answer),
            record,
        }
    }

    /// `GET /auth/authorize?…`: approves at once with a code, when the request is sound.
    pub fn authorize(&mut self, query: &str, urls: &Urls) -> Step {
        let q = form(query);
        let client_id = q.get("client_id").cloned().unwrap_or_default();
        let kind = if self.clients.contains_key(&client_id) {
            "dcr"
        } else if client_id.starts_with("https://") {
            "cimd"
        } else if client_id.is_empty() {
            "missing"
        } else {
            "unknown"
        };
        let mut record = json!({
            "step": "authorize",
            "client": kind,
            "response_type": q.get("response_type"),
            "code_challenge_method": q.get("code_challenge_method"),
            "code_challenge_length": shape(q.get("code_challenge")),
            "state": q.contains_key("state"),
            "scope": q.get("scope"),
            "resource": q.get("resource"),
            "redirect_uri": q.get("redirect_uri"),
        });
        if kind == "cimd" {
            // A Client ID Metadata Document's URL is public; it cannot be fetched here.
            record["client_id"] = json!(client_id);
        }
        let redirect = match (kind, q.get("redirect_uri")) {
            ("dcr", Some(uri)) if self.clients[&client_id].redirect_uris.contains(uri) => {
                uri.clone()
            }
            ("dcr", None) if self.clients[&client_id].redirect_uris.len() == 1 => {
                self.clients[&client_id].redirect_uris[0].clone()
            }
            ("cimd", Some(uri)) if self.cimd && loopback(uri) => uri.clone(),
            ("cimd", _) if !self.cimd => {
                return error(
                    400,
                    "invalid_client",
                    "this server does not take Client ID Metadata Documents",
                    record,
                )
            }
            ("dcr" | "cimd", _) => {
                return error(
                    400,
                    "invalid_request",
                    "redirect_uri is not one registered",
                    record,
                )
            }
            _ => {
                return error(
                    400,
                    "invalid_client",
                    "client_id is not registered here",
                    record,
                )
            }
        };
        let state = q.get("state").map(|s| format!("&state={}", encode(s)));
        let iss = format!("&iss={}", encode(&urls.issuer));
        let sep = if redirect.contains('?') { '&' } else { '?' };
        let refuse = |code: &str, mut record: Value| {
            record["status"] = json!(302);
            record["error"] = json!(code);
            Step {
                status: 302,
                location: Some(format!(
                    "{redirect}{sep}error={code}{}{iss}",
                    state.clone().unwrap_or_default()
                )),
                body: Value::Null,
                record,
            }
        };
        if q.get("response_type").map(String::as_str) != Some("code") {
            return refuse("unsupported_response_type", record);
        }
        let Some(challenge) = q.get("code_challenge") else {
            return refuse("invalid_request", record);
        };
        if q.get("code_challenge_method").map(String::as_str) != Some("S256") {
            return refuse("invalid_request", record);
        }
        let code = super::super::new_id();
        keep(&mut self.codes);
        self.codes.insert(
            code.clone(),
            Code {
                client_id,
                redirect_uri: redirect.clone(),
                challenge: challenge.clone(),
                resource: q.get("resource").cloned(),
                scope: q.get("scope").cloned(),
            },
        );
        record["status"] = json!(302);
        record["issued"] = json!("code");
        Step {
            status: 302,
            location: Some(format!(
                "{redirect}{sep}code={code}{}{iss}",
                state.unwrap_or_default()
            )),
            body: Value::Null,
            record,
        }
    }

    /// `POST /auth/token`: an authorization code (PKCE S256 checked) or a refresh token
    /// exchanged for tokens. `basic`: the client id and secret of an `Authorization: Basic`.
    pub fn token(&mut self, body: &str, basic: Option<(String, String)>, urls: &Urls) -> Step {
        let f = form(body);
        let grant_type = f.get("grant_type").cloned().unwrap_or_default();
        let client_auth = match (&basic, f.contains_key("client_secret")) {
            (Some(_), _) => "client_secret_basic",
            (None, true) => "client_secret_post",
            (None, false) => "none",
        };
        let client_id = (basic.as_ref().map(|(id, _)| id.clone()))
            .or_else(|| f.get("client_id").cloned())
            .unwrap_or_default();
        let secret = basic
            .map(|(_, s)| s)
            .or_else(|| f.get("client_secret").cloned());
        let mut record = json!({
            "step": "token",
            "grant_type": grant_type,
            "client_auth": client_auth,
            "resource": f.get("resource"),
            "scope": f.get("scope"),
        });
        if let Some(client) = self.clients.get(&client_id) {
            if client.secret.is_some() && client.secret != secret {
                return error(401, "invalid_client", "wrong client secret", record);
            }
        }
        if let Some(resource) = f.get("resource") {
            if resource != &urls.resource {
                return error(
                    400,
                    "invalid_target",
                    "resource is not this server's MCP endpoint",
                    record,
                );
            }
        }
        let grant = match grant_type.as_str() {
            "authorization_code" => {
                record["code_verifier_length"] = shape(f.get("code_verifier"));
                let Some(code) = f.get("code").and_then(|c| self.codes.remove(c)) else {
                    return error(400, "invalid_grant", "unknown or used code", record);
                };
                if code.client_id != client_id {
                    return error(400, "invalid_grant", "code of another client", record);
                }
                if f.get("redirect_uri")
                    .is_some_and(|u| *u != code.redirect_uri)
                {
                    return error(400, "invalid_grant", "redirect_uri differs", record);
                }
                let Some(verifier) = f.get("code_verifier") else {
                    record["pkce"] = json!("missing");
                    return error(400, "invalid_grant", "code_verifier missing", record);
                };
                if s256(verifier) != code.challenge {
                    record["pkce"] = json!("mismatch");
                    return error(400, "invalid_grant", "PKCE verification failed", record);
                }
                record["pkce"] = json!("verified");
                record["resource_at_authorize"] = json!(code.resource);
                Grant {
                    client_id,
                    resource: f.get("resource").cloned().or(code.resource),
                    scope: code.scope,
                }
            }
            "refresh_token" => {
                let Some(grant) = f.get("refresh_token").and_then(|r| self.refresh.remove(r))
                else {
                    return error(400, "invalid_grant", "unknown refresh token", record);
                };
                if !client_id.is_empty() && grant.client_id != client_id {
                    return error(
                        400,
                        "invalid_grant",
                        "refresh token of another client",
                        record,
                    );
                }
                record["resource_at_authorize"] = json!(grant.resource);
                grant
            }
            _ => {
                return error(
                    400,
                    "unsupported_grant_type",
                    "authorization_code or refresh_token",
                    record,
                )
            }
        };
        let access = super::super::new_id();
        let refresh = super::super::new_id();
        let scope = grant
            .scope
            .clone()
            .unwrap_or_else(|| super::metadata::SCOPE.into());
        keep(&mut self.access);
        self.access.insert(
            access.clone(),
            (Instant::now() + self.lifetime, false, scope.clone()),
        );
        keep(&mut self.refresh);
        self.refresh.insert(refresh.clone(), grant);
        record["status"] = json!(200);
        record["issued"] = json!("access_token and refresh_token");
        record["expires_in"] = json!(self.lifetime.as_secs());
        Step {
            status: 200,
            location: None,
            body: json!({
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": self.lifetime.as_secs(),
                "refresh_token": refresh,
                "scope": scope,
            }),
            record,
        }
    }

    /// The protected resource's check of an `Authorization` header.
    pub fn bearer(&mut self, authorization: Option<&str>) -> Bearer {
        let Some(value) = authorization else {
            return Bearer::Missing;
        };
        let Some(token) = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
        else {
            return Bearer::OtherScheme;
        };
        match self.access.get_mut(token.trim()) {
            None => Bearer::Unknown,
            Some((until, _, _)) if *until <= Instant::now() => Bearer::Expired,
            Some((_, used, _)) => Bearer::Valid(!std::mem::replace(used, true)),
        }
    }

    /// Whether the bearer token of `authorization` was granted without `scope`.
    pub fn lacks(&self, authorization: Option<&str>, scope: &str) -> bool {
        let token = authorization
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim);
        token
            .and_then(|t| self.access.get(t))
            .is_some_and(|(_, _, granted)| !granted.split_whitespace().any(|s| s == scope))
    }
}

/// `BASE64URL(SHA-256(verifier))`, the S256 challenge of a verifier (RFC 7636).
pub(crate) fn s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn keep<T>(map: &mut BTreeMap<String, T>) {
    if map.len() >= MAX_KEPT {
        map.clear();
    }
}

#[cfg(test)]
#[path = "grant_tests.rs"]
mod tests;
