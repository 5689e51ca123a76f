//! Releases: a client's `releaseTags` on the widget repository (v1 tagged `v1.0.0`, v2
//! tagged `v1.1.0` and, before it, the pre-release `v1.1.0-rc.1`): `sources release` writes
//! each code cell's first release as its `version`, `sources verify` flags a version that is
//! no release containing the commit (FN950), and `sources bump --release` moves pins to the
//! newest release's commit.

use super::widget::{V1, V2};
use super::{fixture, sources_offline};
use crate::support::TestSite;
use std::fs;

const CLIENT: &str = "content/clients/widget.md";

/// The widget client with `releaseTags: v*` and two code cells: `transports.streamableHttp`
/// pinned at v1 with no version, `transports.sse` pinned at v2 (lines 8–11 of
/// `src/transport.py`) claiming `version: "1.0.0"`, which v2 is not in.
fn client() -> String {
    format!(
        r#"---
id: widget
title: Widget
vendor: Acme
homepage: https://git.test/acme/widget
repository: https://git.test/acme/widget
clientInfoNames:
  - widget
platforms:
  - cli
releaseTags: "v*"
support:
  transports.streamableHttp:
    status: yes
    notes: The README says so.
    sources:
      - url: https://git.test/acme/widget
        title: README.md, what widget is
        commit: {V1}
        path: README.md:3
    lastVerified: 2026-07-01
  transports.sse:
    status: yes
    notes: pick_transport returns sse when asked.
    sources:
      - url: https://git.test/acme/widget
        title: src/transport.py, pick_transport
        commit: {V2}
        path: src/transport.py:8-11
    version: "1.0.0"
    lastVerified: 2026-07-01
---

Widget is a tiny MCP client that the tests build as a git repository.
"#
    )
}

/// The fixture with the client above and the widget's releases tagged.
fn released() -> (TestSite, super::Widget) {
    let (site, widget) = fixture();
    widget.repo.git(&["tag", "v1.0.0", V1]);
    widget.repo.git(&["tag", "v1.1.0-rc.1", V2]);
    widget.repo.git(&["tag", "-a", "-m", "1.1.0", "v1.1.0", V2]);
    site.write(CLIENT, &client());
    (site, widget)
}

/// The codes and lines of `sources verify`'s findings in the client file.
fn verify_in_client(site: &TestSite, widget: &super::Widget) -> Vec<(String, u64)> {
    let out = sources_offline(site, widget, &["verify", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    (value["diagnostics"].as_array().expect("list").iter())
        .filter(|d| d["file"] == CLIENT)
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn release_writes_the_first_release_each_cell_is_in_and_verify_checks_it() {
    let (site, widget) = released();
    // v2 is in v1.1.0 (the pre-release before it is no release), not in v1.0.0.
    assert_eq!(
        verify_in_client(&site, &widget),
        [("FN950".to_string(), 30)]
    );
    let dry = sources_offline(&site, &widget, &["release", "--dry-run"]);
    let table = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(table.contains("widget: 2 of 2 code cells"), "{table}");
    assert!(
        table.contains("transports.sse: version 1.0.0 → 1.1.0"),
        "{table}"
    );
    assert_eq!(
        fs::read_to_string(site.root().join(CLIENT)).expect("client"),
        client(),
        "--dry-run writes nothing"
    );
    let out = sources_offline(&site, &widget, &["release"]);
    assert!(out.status.success(), "{out:?}");
    let written = fs::read_to_string(site.root().join(CLIENT)).expect("client");
    let expected = client()
        .replace(
            "        path: README.md:3\n    lastVerified",
            "        path: README.md:3\n    version: \"1.0.0\"\n    lastVerified",
        )
        .replace(
            "version: \"1.0.0\"\n    lastVerified: 2026-07-01\n---",
            "version: \"1.1.0\"\n    lastVerified: 2026-07-01\n---",
        );
    assert_eq!(written, expected);
    assert_eq!(verify_in_client(&site, &widget), []);
    // A second run finds every version current and writes nothing.
    let again = sources_offline(&site, &widget, &["release"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("wrote versions in 0 files"));
}

#[test]
fn a_cell_no_release_contains_yet_is_named_with_the_newest_release() {
    let (site, widget) = fixture();
    widget.repo.git(&["tag", "v1.0.0", V1]);
    site.write(CLIENT, &client().replace("    version: \"1.0.0\"\n", ""));
    let out = sources_offline(&site, &widget, &["release", "--dry-run"]);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(table.contains("widget: 1 of 2 code cells"), "{table}");
    assert!(
        table.contains("no release (`releaseTags: v*`) contains commit 64a33dd yet; the newest release the clone has is v1.0.0"),
        "{table}"
    );
}

#[test]
fn bump_release_moves_pins_to_the_newest_release_and_drift_compares_with_it() {
    let (site, widget) = released();
    // Pinned at v1: lines 5-8 of src/transport.py, which v1.1.0 has at 8-11.
    let at_v1 = client()
        .replace(&format!("commit: {V2}"), &format!("commit: {V1}"))
        .replace("src/transport.py:8-11", "src/transport.py:5-8");
    site.write(CLIENT, &at_v1);
    let drift = sources_offline(&site, &widget, &["drift", "--release"]);
    let table = String::from_utf8_lossy(&drift.stdout).into_owned();
    assert!(
        table.contains("v1.1.0") || table.contains("64a33dd"),
        "{table}"
    );
    assert!(table.contains("moved"), "{table}");
    let out = sources_offline(&site, &widget, &["bump", "--release"]);
    assert!(out.status.success(), "{out:?}");
    let bumped = fs::read_to_string(site.root().join(CLIENT)).expect("client");
    assert_eq!(
        bumped,
        at_v1
            .replace(&format!("commit: {V1}"), &format!("commit: {V2}"))
            .replace("src/transport.py:5-8", "src/transport.py:8-11")
    );
}

#[test]
fn cells_of_a_client_without_release_tags_are_counted_unnamed_with_the_fix() {
    let (site, widget) = released();
    site.write(CLIENT, &client().replace("releaseTags: \"v*\"\n", ""));
    let out = sources_offline(&site, &widget, &["release", "--dry-run"]);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(table.contains("widget: 0 of 2 code cells"), "{table}");
    assert!(table.contains("names no `releaseTags`"), "{table}");
    assert!(
        table.contains("0 of 2 code cells name their release"),
        "{table}"
    );
}

/// An observation of widget `version` (its package and `clientInfo`) that saw SSE work.
fn observation(version: &str) -> String {
    format!(
        r#"---
id: widget-sse
client: widget
clientInfo:
  name: widget
  version: {version}
observed: 2026-07-02
transport: sse
package:
  ecosystem: npm
  name: widget
  version: {version}
command: widget connect
transcript: widget-sse.jsonl
results:
  transports.sse:
    status: yes
    basis: did
    why: connected over sse
    messages: [1]
---
"#
    )
}

#[test]
fn a_version_an_observation_the_cell_cites_ran_is_neither_flagged_nor_rewritten() {
    let (site, widget) = released();
    let cited = client().replace(
        "    version: \"1.0.0\"\n",
        "    observations:\n      - widget-sse\n    version: \"1.0.0\"\n",
    );
    site.write(CLIENT, &cited);
    site.write("content/observations/widget-sse.jsonl", "{\"t\": \"2026-07-02T00:00:00Z\", \"dir\": \"in\", \"msg\": {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\"}}\n");
    // The session ran 1.0.0: the cell is as of it, though its code is v2 (first in 1.1.0).
    site.write("content/observations/widget-sse.md", &observation("1.0.0"));
    assert_eq!(verify_in_client(&site, &widget), []);
    let dry = sources_offline(&site, &widget, &["release", "--dry-run"]);
    let table = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(!table.contains("transports.sse: version"), "{table}");
    // An observation of another version does not vouch for it: FN950 again.
    site.write("content/observations/widget-sse.md", &observation("0.9.0"));
    assert_eq!(
        verify_in_client(&site, &widget),
        [("FN950".to_string(), 32)]
    );
}
