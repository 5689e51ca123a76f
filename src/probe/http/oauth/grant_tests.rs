//! The authorization server's steps: what each answers and what the transcript keeps.

use super::super::metadata::{Discovery, Urls};
use super::*;

const BASE: &str = "http://127.0.0.1:7";
const VERIFIER: &str = "a-verifier-of-forty-three-characters-long-xx";

fn urls() -> Urls {
    Urls::new(BASE, "/mcp", &Discovery::ALL)
}

fn enc(text: &str) -> String {
    encode(text)
}

/// A registered public client and an approved code for it: (client id, code).
fn approved(grants: &mut Grants, resource: Option<&str>) -> (String, String) {
    let registered = grants.register(
        br#"{"redirect_uris":["http://localhost:9/cb"],"token_endpoint_auth_method":"none","client_name":"t"}"#,
    );
    assert_eq!(registered.status, 201, "{:?}", registered.body);
    let id = registered.body["client_id"]
        .as_str()
        .expect("an id")
        .to_string();
    let mut query = format!(
        "response_type=code&client_id={}&redirect_uri={}&code_challenge={}&code_challenge_method=S256&state=s",
        enc(&id),
        enc("http://localhost:9/cb"),
        s256(VERIFIER)
    );
    if let Some(r) = resource {
        query.push_str(&format!("&resource={}", enc(r)));
    }
    let step = grants.authorize(&query, &urls());
    assert_eq!(step.status, 302, "{:?}", step.record);
    let location = step.location.expect("a redirect");
    assert!(
        location.starts_with("http://localhost:9/cb?code="),
        "{location}"
    );
    assert!(location.contains("&state=s&iss="), "{location}");
    let code = form(location.split_once('?').expect("a query").1)["code"].clone();
    (id, code)
}

#[test]
fn the_s256_challenge_is_base64url_of_sha256() {
    // As `printf %s VERIFIER | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d =`
    // computes it.
    assert_eq!(
        s256("dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk"),
        "ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc"
    );
}

#[test]
fn a_code_is_exchanged_once_with_the_matching_verifier_and_refreshed() {
    let mut grants = Grants::new(true, true, Duration::from_secs(60));
    let resource = format!("{BASE}/mcp");
    let (id, code) = approved(&mut grants, Some(&resource));
    let body = format!(
        "grant_type=authorization_code&code={code}&code_verifier={VERIFIER}&client_id={}&resource={}",
        enc(&id),
        enc(&resource)
    );
    let step = grants.token(&body, None, &urls());
    assert_eq!(step.status, 200, "{:?}", step.record);
    assert_eq!(step.record["pkce"], "verified");
    assert_eq!(step.record["code_verifier_length"], VERIFIER.len());
    let access = step.body["access_token"]
        .as_str()
        .expect("a token")
        .to_string();
    let refresh = step.body["refresh_token"]
        .as_str()
        .expect("a token")
        .to_string();
    // Nothing secret is kept: no code, verifier, token.
    let kept = step.record.to_string();
    for secret in [code.as_str(), VERIFIER, &access, &refresh] {
        assert!(!kept.contains(secret), "{kept}");
    }
    assert_eq!(
        grants.bearer(Some(&format!("Bearer {access}"))),
        Bearer::Valid(true)
    );
    assert_eq!(
        grants.bearer(Some(&format!("Bearer {access}"))),
        Bearer::Valid(false)
    );
    assert_eq!(grants.bearer(Some("Bearer nope")), Bearer::Unknown);
    assert_eq!(grants.bearer(None), Bearer::Missing);
    // The code is spent.
    assert_eq!(grants.token(&body, None, &urls()).status, 400);
    let again = grants.token(
        &format!(
            "grant_type=refresh_token&refresh_token={refresh}&client_id={}",
            enc(&id)
        ),
        None,
        &urls(),
    );
    assert_eq!(again.status, 200, "{:?}", again.record);
    assert_eq!(again.record["grant_type"], "refresh_token");
    assert_eq!(again.record["resource_at_authorize"], resource.as_str());
}

#[test]
fn a_wrong_verifier_or_resource_is_refused() {
    let mut grants = Grants::new(true, false, Duration::from_secs(60));
    let (id, code) = approved(&mut grants, None);
    let wrong = grants.token(
        &format!(
            "grant_type=authorization_code&code={code}&code_verifier=other&client_id={}",
            enc(&id)
        ),
        None,
        &urls(),
    );
    assert_eq!(wrong.status, 400);
    assert_eq!(wrong.record["pkce"], "mismatch");
    let (id, code) = approved(&mut grants, None);
    let elsewhere = grants.token(
        &format!(
            "grant_type=authorization_code&code={code}&code_verifier={VERIFIER}&client_id={}&resource={}",
            enc(&id),
            enc("http://127.0.0.1:8/mcp")
        ),
        None,
        &urls(),
    );
    assert_eq!(elsewhere.status, 400);
    assert_eq!(elsewhere.body["error"], "invalid_target");
}

#[test]
fn an_authorization_request_without_s256_is_sent_back_with_an_error() {
    let mut grants = Grants::new(true, true, Duration::from_secs(60));
    let plain = grants.authorize(
        "response_type=code&client_id=https%3A%2F%2Fclient.example%2Fmeta&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&code_challenge=abc&code_challenge_method=plain",
        &urls(),
    );
    assert_eq!(plain.status, 302);
    assert!(plain
        .location
        .as_deref()
        .is_some_and(|l| l.contains("error=invalid_request")));
    assert_eq!(plain.record["client"], "cimd");
    assert_eq!(plain.record["code_challenge_method"], "plain");
}

#[test]
fn registration_and_url_client_ids_follow_what_is_offered() {
    let mut cimd_only = Grants::new(false, true, Duration::from_secs(60));
    assert_eq!(
        cimd_only
            .register(br#"{"redirect_uris":["http://localhost:1/"]}"#)
            .status,
        404
    );
    let mut dcr_only = Grants::new(true, false, Duration::from_secs(60));
    let refused = dcr_only.authorize(
        "response_type=code&client_id=https%3A%2F%2Fclient.example%2Fmeta&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb",
        &urls(),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(refused.body["error"], "invalid_client");
    // Only callbacks on this machine are registered.
    let far = dcr_only.register(br#"{"redirect_uris":["http://example.com/cb"]}"#);
    assert_eq!(far.status, 400);
    // Offered beside one here (VS Code offers its web redirects too), they are dropped and
    // the answer says what was registered; a code is never sent to them.
    let mixed = dcr_only.register(
        br#"{"redirect_uris":["https://vscode.dev/redirect","http://127.0.0.1:33418/"],"token_endpoint_auth_method":"none"}"#,
    );
    assert_eq!(mixed.status, 201);
    assert_eq!(
        mixed.body["redirect_uris"],
        serde_json::json!(["http://127.0.0.1:33418/"])
    );
    assert_eq!(
        mixed.record["dropped_redirect_uris"],
        serde_json::json!(["https://vscode.dev/redirect"])
    );
    let id = mixed.body["client_id"].as_str().expect("a client id");
    let elsewhere = dcr_only.authorize(
        &format!("response_type=code&client_id={id}&redirect_uri=https%3A%2F%2Fvscode.dev%2Fredirect&code_challenge=x&code_challenge_method=S256"),
        &urls(),
    );
    assert_eq!(elsewhere.status, 400);
    assert!(elsewhere.location.is_none());
}
