//! What the client filters of the home matrix and the clients page offer and read: the
//! platforms the clients shown name (and "not stated"), and how each client's cells were
//! checked. Both pages keep the same address keys (`evidence`, `platforms`), so a filtered
//! address carries over from one to the other.

use super::views::Ctx;
use crate::index::evidence::{Method, METHODS};
use crate::text_file::Section;
use serde::Serialize;
use std::collections::BTreeMap;

/// The value of the platform choice for clients that name none.
pub const NO_PLATFORM: &str = "none";

/// One platform to filter by, with how many of the clients shown name it.
#[derive(Debug, Serialize)]
pub struct PlatformOption<'a> {
    pub value: &'a str,
    pub label: &'a str,
    pub count: usize,
}

/// One way a cell can have been checked, in the "Checked by" filter.
#[derive(Debug, Serialize)]
pub struct EvidenceOption {
    pub value: &'static str,
    pub label: &'static str,
}

/// The "Checked by" choices, strongest first.
pub fn evidence_options() -> Vec<EvidenceOption> {
    (METHODS.iter())
        .map(|m| EvidenceOption {
            value: m.as_str(),
            label: m.label(),
        })
        .collect()
}

/// The platforms `clients` name, sorted, each with its count; then "not stated" when some
/// client names none.
pub fn platform_options<'a>(
    ctx: &Ctx<'a>,
    clients: impl IntoIterator<Item = usize>,
) -> Vec<PlatformOption<'a>> {
    let mut counts: BTreeMap<&'a str, usize> = BTreeMap::new();
    let mut unstated = 0;
    for c in clients {
        let client = ctx.client(c);
        if client.platforms.is_empty() {
            unstated += 1;
        }
        for p in &client.platforms {
            *counts.entry(p.value.as_str()).or_default() += 1;
        }
    }
    let mut options: Vec<PlatformOption<'a>> = (counts.into_iter())
        .map(|(value, count)| PlatformOption {
            value,
            label: value,
            count,
        })
        .collect();
    if unstated > 0 {
        options.push(PlatformOption {
            value: NO_PLATFORM,
            label: "not stated",
            count: unstated,
        });
    }
    options
}

/// The platforms of client `c`, space-separated (a `data-platforms` value), or
/// [`NO_PLATFORM`].
pub fn client_platforms(ctx: &Ctx<'_>, c: usize) -> String {
    let client = ctx.client(c);
    if client.platforms.is_empty() {
        return NO_PLATFORM.to_string();
    }
    let values: Vec<&str> = client.platforms.iter().map(|p| p.value.as_str()).collect();
    values.join(" ")
}

/// How the known cells of client `c` were checked, space-separated in [`METHODS`] order
/// (a `data-evidence` value); `none` when no cell is known.
pub fn client_methods(ctx: &Ctx<'_>, c: usize) -> String {
    let mut used = [false; METHODS.len()];
    for capability in 0..ctx.count(Section::Capabilities) {
        if ctx.status(c, capability) == "unknown" {
            continue;
        }
        let method = ctx.evidence(c, capability).method;
        if let Some(i) = METHODS.iter().position(|m| *m == method) {
            used[i] = true;
        }
    }
    let methods: Vec<&str> = (METHODS.iter().zip(used))
        .filter(|(_, used)| *used)
        .map(|(m, _)| m.as_str())
        .collect();
    if methods.is_empty() {
        Method::None.as_str().to_string()
    } else {
        methods.join(" ")
    }
}
