//! The authorization rules on real clients' flows against `probe http --auth oauth`
//! (`tests/fixtures/oauth/`: recorded transcripts, trimmed; no code, token or verifier is
//! ever recorded).

use super::*;
use crate::probe::transcript::Transcript;

fn judged(jsonl: &str, handshake: bool) -> BTreeMap<&'static str, Finding> {
    let transcript = Transcript::from_jsonl(jsonl);
    let seen = Seen {
        transport: Transport::StreamableHttp,
        mode: "streamable",
        handshake,
    };
    results(&seen, transcript.records())
}

fn status(results: &BTreeMap<&'static str, Finding>, id: &str) -> Option<Status> {
    results.get(id).map(|f| f.status)
}

/// The transcript line `n` (1-based) as JSON.
fn line(jsonl: &str, n: usize) -> Value {
    serde_json::from_str(jsonl.lines().nth(n - 1).expect("a line")).expect("JSON")
}

const CLAUDE: &str = include_str!("../../../tests/fixtures/oauth/claude-code-2.1.332.jsonl");
const CODEX: &str = include_str!("../../../tests/fixtures/oauth/codex-0.171.0.jsonl");
const GEMINI: &str = include_str!("../../../tests/fixtures/oauth/gemini-cli-0.61.0.jsonl");
const GEMINI_CIMD: &str =
    include_str!("../../../tests/fixtures/oauth/gemini-cli-0.61.0-cimd-only.jsonl");

#[test]
fn claude_code_signs_in_with_its_client_id_metadata_document() {
    let r = judged(CLAUDE, false);
    for id in [
        "authorization.oauth",
        "authorization.protectedResourceMetadata",
        "authorization.clientIdMetadata",
        "authorization.pkce",
        "authorization.resourceIndicators",
    ] {
        assert_eq!(status(&r, id), Some(Status::Yes), "{id}: {:?}", r.get(id));
    }
    // Both were offered; it did not register.
    assert!(!r.contains_key("authorization.dynamicClientRegistration"));
    let cimd = &r["authorization.clientIdMetadata"];
    assert!(cimd
        .why
        .contains("https://claude.ai/oauth/claude-code-client-metadata"));
    let cited = line(CLAUDE, cimd.messages[0]);
    assert_eq!(cited["auth"]["step"], "authorize");
    assert_eq!(cited["auth"]["code_challenge_method"], "S256");
    let prm = &r["authorization.protectedResourceMetadata"];
    assert!(
        prm.why.contains("prm path 200, oauth path 200"),
        "{}",
        prm.why
    );
}

#[test]
fn codex_signs_in_with_a_url_client_id_too() {
    let r = judged(CODEX, false);
    assert_eq!(status(&r, "authorization.oauth"), Some(Status::Yes));
    assert_eq!(
        status(&r, "authorization.clientIdMetadata"),
        Some(Status::Yes)
    );
    assert!(r["authorization.clientIdMetadata"]
        .why
        .contains("https://chatgpt.com/oauth/codex/client.json"));
    assert_eq!(status(&r, "authorization.pkce"), Some(Status::Yes));
    assert_eq!(
        status(&r, "authorization.resourceIndicators"),
        Some(Status::Yes)
    );
    // It took the 401's challenge first.
    let oauth = &r["authorization.oauth"];
    assert_eq!(line(CODEX, oauth.messages[0])["auth"]["status"], 401);
}

#[test]
fn gemini_cli_registers_by_dcr_then_uses_the_token() {
    let r = judged(GEMINI, true);
    assert_eq!(
        status(&r, "authorization.dynamicClientRegistration"),
        Some(Status::Yes)
    );
    assert!(r["authorization.dynamicClientRegistration"]
        .why
        .contains("Gemini CLI MCP Client"));
    assert!(!r.contains_key("authorization.clientIdMetadata"));
    let oauth = &r["authorization.oauth"];
    assert_eq!(oauth.status, Status::Yes);
    assert!(oauth
        .why
        .contains("sent the bearer token on its MCP requests"));
    let used = line(GEMINI, *oauth.messages.last().expect("lines"));
    assert_eq!(used["auth"]["passed"], true);
    // PKCE with an 86-character verifier (its own shape), and the MCP session after it.
    assert_eq!(status(&r, "authorization.pkce"), Some(Status::Yes));
    assert_eq!(status(&r, "core.initialization"), Some(Status::Yes));
    let prm = &r["authorization.protectedResourceMetadata"];
    assert!(
        prm.why.contains("oauth path 200, oauth root 200"),
        "{}",
        prm.why
    );
}

#[test]
fn gemini_cli_offered_only_client_id_metadata_documents_does_not_sign_in() {
    let r = judged(GEMINI_CIMD, false);
    let cimd = &r["authorization.clientIdMetadata"];
    assert_eq!(cimd.status, Status::No, "{cimd:?}");
    assert_eq!(cimd.basis, Basis::Absent);
    assert_ne!(status(&r, "authorization.oauth"), Some(Status::Yes));
}

const MCP_REMOTE_STEP_UP: &str =
    include_str!("../../../tests/fixtures/oauth/mcp-remote-0.15.1-step-up.jsonl");

#[test]
fn mcp_remote_authorizes_again_after_insufficient_scope_but_no_code_follows() {
    let r = judged(MCP_REMOTE_STEP_UP, false);
    let step_up = &r["authorization.scopeStepUp"];
    // The new authorization request went out; no code was exchanged after it, so what the
    // client does with a wider token is not shown.
    assert_eq!(step_up.status, Status::Unknown, "{step_up:?}");
    assert!(step_up.why.contains("mcp:write"), "{}", step_up.why);
    assert!(
        step_up.why.contains("no code exchange followed"),
        "{}",
        step_up.why
    );
    let refused = line(MCP_REMOTE_STEP_UP, step_up.messages[0]);
    assert_eq!(refused["auth"]["error"], "insufficient_scope");
    let again = line(MCP_REMOTE_STEP_UP, step_up.messages[1]);
    assert_eq!(again["auth"]["step"], "authorize");
    // Had it exchanged the new code and then sent nothing with the new token, that is partial.
    let exchanged = format!(
        "{MCP_REMOTE_STEP_UP}{}\n",
        r#"{"t":"2026-12-06T12:37:10Z","dir":"auth","auth":{"client_auth":"none","grant_type":"authorization_code","pkce":"verified","status":200,"step":"token","issued":"access_token"}}"#
    );
    let r = judged(&exchanged, false);
    assert_eq!(
        status(&r, "authorization.scopeStepUp"),
        Some(Status::Partial)
    );
    // Without --step-up nothing is said of it.
    assert!(!judged(GEMINI, true).contains_key("authorization.scopeStepUp"));
}

const VSCODE: &str = include_str!("../../../tests/fixtures/oauth/vscode-1.139.1-code-server.jsonl");

/// VS Code in code-server registers its web redirects beside a loopback one, then asks to be
/// sent back to `https://vscode.dev/redirect`, which the probe never sends a code to: what
/// follows is unknown, not a failure of the client's.
#[test]
fn a_flow_the_probe_stopped_says_unknown_not_no() {
    let r = judged(VSCODE, false);
    let oauth = &r["authorization.oauth"];
    assert_eq!(oauth.status, Status::Unknown, "{oauth:?}");
    assert!(
        oauth.why.contains("redirect_uri is not one registered"),
        "{}",
        oauth.why
    );
    let pkce = &r["authorization.pkce"];
    assert_eq!(pkce.status, Status::Unknown, "{pkce:?}");
    assert!(pkce.why.contains("S256"), "{}", pkce.why);
    for id in [
        "authorization.dynamicClientRegistration",
        "authorization.protectedResourceMetadata",
    ] {
        assert_eq!(status(&r, id), Some(Status::Yes), "{id}: {:?}", r.get(id));
    }
}

/// A `resource` that is not the server's URI (RFC 8707) is partial, naming both.
#[test]
fn a_resource_that_is_not_the_servers_uri_is_partial() {
    let r = judged(VSCODE, false);
    let resource = &r["authorization.resourceIndicators"];
    assert_eq!(resource.status, Status::Partial, "{resource:?}");
    assert!(
        resource.why.contains("http:/127.0.0.1:8777/mcp")
            && resource
                .why
                .contains("not the server's URI http://127.0.0.1:8777/mcp"),
        "{}",
        resource.why
    );
    // The same client flow with the server's own URI is yes.
    let fixed = VSCODE.replace("http:/127.0.0.1:8777/mcp", "http://127.0.0.1:8777/mcp");
    let r = judged(&fixed, false);
    assert_eq!(
        status(&r, "authorization.resourceIndicators"),
        Some(Status::Yes)
    );
}

const AMP_STOPPED: &str =
    include_str!("../../../tests/fixtures/oauth/amp-stopped-after-authorize.jsonl");

/// amp's flow cut where it stalled when run without a terminal (it printed the link and waited
/// for the callback URL to be pasted): discovery, registration and the authorization request,
/// then nothing at the token endpoint. That is a sign-in left unfinished, not a client that
/// cannot sign in: oauth and pkce are unknown, what it did send is still judged.
#[test]
fn a_flow_that_stopped_before_the_code_exchange_is_unknown() {
    let r = judged(AMP_STOPPED, false);
    let oauth = &r["authorization.oauth"];
    assert_eq!(oauth.status, Status::Unknown, "{oauth:?}");
    assert!(oauth.why.contains("no code came back"), "{}", oauth.why);
    let pkce = &r["authorization.pkce"];
    assert_eq!(pkce.status, Status::Unknown, "{pkce:?}");
    assert!(pkce.why.contains("S256 code challenge (43"), "{}", pkce.why);
    for id in [
        "authorization.dynamicClientRegistration",
        "authorization.protectedResourceMetadata",
    ] {
        assert_eq!(status(&r, id), Some(Status::Yes), "{id}: {:?}", r.get(id));
    }
    // The scripted browser's word that the callback took the code (answered 200): then the
    // missing exchange is the client's, and no.
    let reached = format!(
        "{AMP_STOPPED}{}\n",
        r#"{"t":"2026-12-07T12:58:32.515Z","dir":"auth","auth":{"step":"browser","callback":200,"status":204}}"#
    );
    let r = judged(&reached, false);
    let oauth = &r["authorization.oauth"];
    assert_eq!(oauth.status, Status::No, "{oauth:?}");
    assert!(
        oauth.why.contains("the code reached its callback"),
        "{}",
        oauth.why
    );
    let unreached = reached.replace(r#""callback":200"#, r#""callback":"unreached""#);
    let oauth = &judged(&unreached, false)["authorization.oauth"];
    assert_eq!(oauth.status, Status::Unknown, "{oauth:?}");
    assert!(oauth.why.contains("(unreached)"), "{}", oauth.why);
    // A code exchange the token endpoint refused is the client's own: no.
    let refused = format!(
        "{AMP_STOPPED}{}\n",
        r#"{"t":"2026-12-07T12:58:32.522320Z","dir":"auth","auth":{"client_auth":"none","grant_type":"authorization_code","pkce":"mismatch","status":400,"step":"token","error":"invalid_grant"}}"#
    );
    let r = judged(&refused, false);
    let oauth = &r["authorization.oauth"];
    assert_eq!(oauth.status, Status::No, "{oauth:?}");
    assert!(
        oauth.why.contains("refused its code exchange"),
        "{}",
        oauth.why
    );
    assert_eq!(status(&r, "authorization.pkce"), Some(Status::Partial));
}
