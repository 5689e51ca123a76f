//! What the loopback authorization server offers and where: the well-known documents
//! (RFC 9728 protected resource metadata, RFC 8414 authorization server metadata, OpenID
//! Connect discovery), each at the path-inserted and root forms `--discovery` lets through,
//! and the `WWW-Authenticate` challenge of a 401.

use serde_json::{json, Value};

/// The authorization server's path: its issuer is `<base>/auth` (so path-inserted and root
/// discovery differ), unless `issuer-root` is asked for.
pub(crate) const ISSUER_PATH: &str = "/auth";
/// The scope the protected resource asks for.
pub(crate) const SCOPE: &str = "mcp";
/// With `--step-up`: the scope a token must also hold, named only in a 403
/// `insufficient_scope` challenge.
pub(crate) const STEP_UP_SCOPE: &str = "mcp:write";

/// Which discovery documents are served, and where; the rest answer 404.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discovery {
    /// `resource_metadata` in the 401's `WWW-Authenticate`.
    pub header: bool,
    /// `/.well-known/oauth-protected-resource/<resource path>`.
    pub prm_path: bool,
    /// `/.well-known/oauth-protected-resource`.
    pub prm_root: bool,
    /// `/.well-known/oauth-authorization-server/auth`.
    pub oauth_path: bool,
    /// `/.well-known/oauth-authorization-server`.
    pub oauth_root: bool,
    /// `/.well-known/openid-configuration/auth`.
    pub oidc_path: bool,
    /// `/auth/.well-known/openid-configuration`.
    pub oidc_suffix: bool,
    /// `/.well-known/openid-configuration`.
    pub oidc_root: bool,
    /// The issuer is the server's root, not `/auth`.
    pub issuer_root: bool,
}

/// The `--discovery` words, each with what it turns on.
pub const WORDS: &str = "all, header, prm, prm-path, prm-root, oauth, oauth-path, oauth-root, \
                         oidc, oidc-path, oidc-suffix, oidc-root, issuer-root";

impl Discovery {
    pub const ALL: Discovery = Discovery {
        header: true,
        prm_path: true,
        prm_root: true,
        oauth_path: true,
        oauth_root: true,
        oidc_path: true,
        oidc_suffix: true,
        oidc_root: true,
        issuer_root: false,
    };

    /// `all`, or a comma-separated list of [`WORDS`].
    pub fn parse(text: &str) -> Result<Discovery, String> {
        let mut d = Discovery {
            header: false,
            prm_path: false,
            prm_root: false,
            oauth_path: false,
            oauth_root: false,
            oidc_path: false,
            oidc_suffix: false,
            oidc_root: false,
            issuer_root: false,
        };
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "all" => {
                    let issuer_root = d.issuer_root;
                    d = Discovery {
                        issuer_root,
                        ..Discovery::ALL
                    }
                }
                "header" => d.header = true,
                "prm" => (d.prm_path, d.prm_root) = (true, true),
                "prm-path" => d.prm_path = true,
                "prm-root" => d.prm_root = true,
                "oauth" => (d.oauth_path, d.oauth_root) = (true, true),
                "oauth-path" => d.oauth_path = true,
                "oauth-root" => d.oauth_root = true,
                "oidc" => (d.oidc_path, d.oidc_suffix, d.oidc_root) = (true, true, true),
                "oidc-path" => d.oidc_path = true,
                "oidc-suffix" => d.oidc_suffix = true,
                "oidc-root" => d.oidc_root = true,
                "issuer-root" => d.issuer_root = true,
                other => return Err(format!("`{other}` is not one of: {WORDS}")),
            }
        }
        let any_as = d.oauth_path || d.oauth_root || d.oidc_path || d.oidc_suffix || d.oidc_root;
        if !any_as {
            return Err(format!(
                "`{text}` offers no authorization server metadata: add oauth or oidc (words: {WORDS})"
            ));
        }
        Ok(d)
    }

    /// How the run is named in ids and the observation: `all`, or the words given.
    pub fn id(&self) -> String {
        if *self == Discovery::ALL {
            return "all".to_string();
        }
        let words = [
            (self.header, "header"),
            (self.prm_path, "prm-path"),
            (self.prm_root, "prm-root"),
            (self.oauth_path, "oauth-path"),
            (self.oauth_root, "oauth-root"),
            (self.oidc_path, "oidc-path"),
            (self.oidc_suffix, "oidc-suffix"),
            (self.oidc_root, "oidc-root"),
            (self.issuer_root, "issuer-root"),
        ];
        let on: Vec<&str> = words.iter().filter(|(b, _)| *b).map(|(_, w)| *w).collect();
        on.join("+")
    }
}

/// A well-known document a client asked for: which, and in which form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WellKnown {
    /// `prm`, `oauth` or `oidc`.
    pub document: &'static str,
    /// `path` (inserted after `/.well-known/…`), `suffix` (OIDC's `<issuer>/.well-known/…`),
    /// `root`, or `other` (a path no client should try).
    pub form: &'static str,
}

const PRM: &str = "/.well-known/oauth-protected-resource";
const OAUTH: &str = "/.well-known/oauth-authorization-server";
const OIDC: &str = "/.well-known/openid-configuration";

/// What `path` asks for, if it is a discovery path (`None`: not one).
pub(crate) fn well_known(path: &str, resource_path: &str) -> Option<WellKnown> {
    let issuer_suffix = format!("{ISSUER_PATH}{OIDC}");
    let of = |document, form| Some(WellKnown { document, form });
    for (prefix, document) in [(PRM, "prm"), (OAUTH, "oauth"), (OIDC, "oidc")] {
        if path == prefix {
            return of(document, "root");
        }
        if let Some(rest) = path.strip_prefix(prefix) {
            let expected = if document == "prm" {
                resource_path
            } else {
                ISSUER_PATH
            };
            return of(document, if rest == expected { "path" } else { "other" });
        }
    }
    if path == issuer_suffix {
        return of("oidc", "suffix");
    }
    if path.contains("/.well-known/") {
        let document = if path.contains("openid") {
            "oidc"
        } else if path.contains("protected-resource") {
            "prm"
        } else {
            "oauth"
        };
        return of(document, "other");
    }
    None
}

impl Discovery {
    /// Whether `known` is served.
    pub(crate) fn serves(&self, known: WellKnown) -> bool {
        match (known.document, known.form) {
            ("prm", "path") => self.prm_path,
            ("prm", "root") => self.prm_root,
            // With the issuer at the root, path-inserted and root forms are one URL.
            ("oauth", "root") => self.oauth_root || (self.issuer_root && self.oauth_path),
            ("oauth", "path") => self.oauth_path && !self.issuer_root,
            ("oidc", "root") => self.oidc_root || (self.issuer_root && self.oidc_path),
            ("oidc", "path") => self.oidc_path && !self.issuer_root,
            ("oidc", "suffix") => self.oidc_suffix && !self.issuer_root,
            _ => false,
        }
    }
}

/// The URLs the documents name, from the server's base (`http://127.0.0.1:P`).
#[derive(Debug, Clone)]
pub(crate) struct Urls {
    pub base: String,
    /// The MCP endpoint: the protected resource.
    pub resource: String,
    pub resource_path: String,
    pub issuer: String,
}

impl Urls {
    pub fn new(base: &str, resource_path: &str, discovery: &Discovery) -> Urls {
        Urls {
            base: base.to_string(),
            resource: format!("{base}{resource_path}"),
            resource_path: resource_path.to_string(),
            issuer: if discovery.issuer_root {
                base.to_string()
            } else {
                format!("{base}{ISSUER_PATH}")
            },
        }
    }

    fn endpoint(&self, name: &str) -> String {
        format!("{}{ISSUER_PATH}/{name}", self.base)
    }

    /// The RFC 9728 document's URL a 401 points at: the path-inserted form when served,
    /// else the root form.
    pub fn resource_metadata(&self, discovery: &Discovery) -> String {
        if discovery.prm_path || !discovery.prm_root {
            format!("{}{PRM}{}", self.base, self.resource_path)
        } else {
            format!("{}{PRM}", self.base)
        }
    }

    /// The `WWW-Authenticate` value of a 403 for a token without [`STEP_UP_SCOPE`].
    pub fn insufficient(&self, discovery: &Discovery) -> String {
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"{SCOPE} {STEP_UP_SCOPE}\", \
             resource_metadata=\"{}\", error_description=\"this request needs {STEP_UP_SCOPE}\"",
            self.resource_metadata(discovery)
        )
    }

    /// The `WWW-Authenticate` value of a 401.
    pub fn challenge(&self, discovery: &Discovery) -> String {
        if discovery.header {
            format!(
                "Bearer resource_metadata=\"{}\", scope=\"{SCOPE}\"",
                self.resource_metadata(discovery)
            )
        } else {
            format!("Bearer scope=\"{SCOPE}\"")
        }
    }
}

/// The RFC 9728 protected resource metadata.
pub(crate) fn protected_resource(urls: &Urls) -> Value {
    json!({
        "resource": urls.resource,
        "authorization_servers": [urls.issuer],
        "scopes_supported": [SCOPE],
        "bearer_methods_supported": ["header"],
        "resource_name": "fieldnotes probe",
    })
}

/// The authorization server metadata (RFC 8414; served as OIDC discovery too, with what
/// strict OIDC clients require: `jwks_uri`, `subject_types_supported`,
/// `id_token_signing_alg_values_supported`). `dcr`: a registration endpoint; `cimd`:
/// `client_id_metadata_document_supported`.
pub(crate) fn authorization_server(urls: &Urls, dcr: bool, cimd: bool) -> Value {
    let mut doc = json!({
        "issuer": urls.issuer,
        "authorization_endpoint": urls.endpoint("authorize"),
        "token_endpoint": urls.endpoint("token"),
        "jwks_uri": urls.endpoint("jwks"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic"],
        "scopes_supported": [SCOPE, "offline_access"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "authorization_response_iss_parameter_supported": true,
    });
    if dcr {
        doc["registration_endpoint"] = Value::String(urls.endpoint("register"));
    }
    if cimd {
        doc["client_id_metadata_document_supported"] = Value::Bool(true);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_told_apart_by_document_and_form() {
        let w = |p| well_known(p, "/mcp").map(|k| (k.document, k.form));
        assert_eq!(
            w("/.well-known/oauth-protected-resource/mcp"),
            Some(("prm", "path"))
        );
        assert_eq!(
            w("/.well-known/oauth-protected-resource"),
            Some(("prm", "root"))
        );
        assert_eq!(
            w("/.well-known/oauth-authorization-server/auth"),
            Some(("oauth", "path"))
        );
        assert_eq!(
            w("/auth/.well-known/openid-configuration"),
            Some(("oidc", "suffix"))
        );
        assert_eq!(
            w("/.well-known/openid-configuration/mcp"),
            Some(("oidc", "other"))
        );
        assert_eq!(w("/mcp"), None);
    }

    #[test]
    fn discovery_words_choose_what_is_served() {
        let only_oidc = Discovery::parse("prm,oidc-root").expect("parses");
        let root = WellKnown {
            document: "oidc",
            form: "root",
        };
        let oauth = WellKnown {
            document: "oauth",
            form: "path",
        };
        assert!(only_oidc.serves(root));
        assert!(!only_oidc.serves(oauth));
        assert!(!only_oidc.header);
        assert_eq!(only_oidc.id(), "prm-path+prm-root+oidc-root");
        assert!(Discovery::parse("prm").is_err_and(|e| e.contains("add oauth or oidc")));
        assert!(Discovery::parse("nope").is_err_and(|e| e.contains("`nope`")));
        assert_eq!(
            Discovery::parse("all").map(|d| d.id()).ok().as_deref(),
            Some("all")
        );
    }

    #[test]
    fn the_challenge_names_the_metadata_only_when_asked() {
        let urls = Urls::new("http://127.0.0.1:1", "/mcp", &Discovery::ALL);
        assert_eq!(
            urls.challenge(&Discovery::ALL),
            "Bearer resource_metadata=\"http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp\", scope=\"mcp\""
        );
        let quiet = Discovery::parse("prm,oauth").expect("parses");
        assert_eq!(urls.challenge(&quiet), "Bearer scope=\"mcp\"");
        let doc = authorization_server(&urls, false, true);
        assert!(doc.get("registration_endpoint").is_none());
        assert_eq!(doc["client_id_metadata_document_supported"], true);
        assert_eq!(doc["issuer"], "http://127.0.0.1:1/auth");
    }
}
