//! The cache hints 2026-07-28 puts on list and read results (`ttlMs`, `cacheScope`): how long
//! a client may keep an answer. Requests of older revisions get none, as before.

use rmcp::model::{CacheScope, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::RoleServer;

/// How long an answer stays true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Life {
    /// As long as this binary runs: the tools and prompts are compiled in.
    Binary,
    /// Until a file of the site changes, which can be at any moment while it is edited
    /// (`subscriptions/listen` says when).
    Files,
}

/// How long a client may keep a list the binary fixes: an hour.
pub const BINARY_TTL_MS: u64 = 60 * 60 * 1000;

/// The hints for an answer that lives `life`, for this request: `None`s before 2026-07-28.
/// Nothing served depends on who asks, so any cache may share it (`public`).
pub fn hints(
    context: &RequestContext<RoleServer>,
    life: Life,
) -> (Option<u64>, Option<CacheScope>) {
    let modern = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if !modern {
        return (None, None);
    }
    let ttl = match life {
        Life::Binary => BINARY_TTL_MS,
        Life::Files => 0,
    };
    (Some(ttl), Some(CacheScope::Public))
}
