//! The results of a session without a handshake: a client refused at a URL that offered the
//! SSE stream at its `GET`, and sent no `GET`, did not fall back. Nothing else is claimed.

use super::{Basis, Finding, Seen, Status};
use crate::probe::rules::facts::Facts;
use crate::probe::transcript;
use std::collections::BTreeMap;

/// A client that was refused and began no session: in a legacy-only mode (the SSE stream
/// offered at `GET` of the same URL), POSTs refused with 404/405 and no `GET` after them say
/// the client does not fall back to SSE. Nothing else is claimed.
pub(super) fn no_session(seen: &Seen, facts: &Facts) -> BTreeMap<&'static str, Finding> {
    let mut out = BTreeMap::new();
    if !seen.mode.starts_with("legacy-only") {
        return out;
    }
    let refused: Vec<(usize, &transcript::HttpEvent)> = (facts.http.iter())
        .filter(|(_, h)| h.method == "POST" && matches!(h.status, 404 | 405))
        .map(|(l, h)| (*l, *h))
        .collect();
    let Some((first, http)) = refused.first() else {
        return out;
    };
    let opened = facts
        .http
        .iter()
        .any(|(l, h)| *l > *first && h.method == "GET");
    if !opened {
        let mut lines: Vec<usize> = refused.iter().map(|(l, _)| *l).collect();
        lines.truncate(5);
        out.insert(
            "transports.sse",
            Finding {
                status: Status::No,
                basis: Basis::Absent,
                why: format!(
                    "POST {} answered {} ({} time{}), and no GET of the SSE stream followed: \
                     no fallback",
                    http.path,
                    http.status,
                    refused.len(),
                    if refused.len() == 1 { "" } else { "s" }
                ),
                messages: lines,
            },
        );
    }
    out
}
