//! The protocol revisions served: every one rmcp knows, 2024-11-05 through 2026-07-28. A
//! client of a revision with `initialize` gets a session as before; a 2026-07-28 client sends
//! `server/discover` and then self-contained requests (revision, capabilities and client info
//! in each request's `_meta`), which rmcp answers statelessly on both transports. What differs
//! per revision here is only the SSE priming event ([`primes`]).

use rmcp::model::ProtocolVersion;
use std::borrow::Cow;

/// The newest revision served.
pub(crate) const NEWEST: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// The first revision whose clients expect an SSE priming event (an event with an id and
/// empty data, then `retry`): 2025-11-25 defined it (SEP-1699).
const FIRST_PRIMED: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// The revisions served, oldest first: `server/discover` lists them, `initialize` agrees to
/// one of them, and a request's `_meta` must name one.
pub(super) fn supported() -> Cow<'static, [ProtocolVersion]> {
    Cow::Borrowed(ProtocolVersion::known_up_to(&NEWEST))
}

/// Whether a session of `revision` gets the SSE priming event and `retry`. Clients of older
/// revisions parse every event's data as JSON-RPC, and some fail on the empty one (Gemini
/// CLI 0.61, on 2025-06-18).
pub(super) fn primes(revision: &str) -> bool {
    // Revisions are ISO dates: they compare as strings the way they do as days.
    revision >= FIRST_PRIMED.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_revision_up_to_2026_07_28_is_served_and_only_2025_11_25_on_primes() {
        let served = supported();
        assert_eq!(served.first(), Some(&ProtocolVersion::V_2024_11_05));
        assert_eq!(served.last(), Some(&ProtocolVersion::V_2026_07_28));
        assert!(served.contains(&ProtocolVersion::V_2025_06_18));
        assert!(!primes("2025-03-26"));
        assert!(!primes("2025-06-18"));
        assert!(primes("2025-11-25"));
        assert!(primes("2026-07-28"));
    }
}
