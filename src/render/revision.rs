//! Who speaks a spec revision, as its page answers in one table: each client seen offering
//! the revision to `fieldnotes probe`, or supporting one of the capabilities it introduced,
//! with the newest such observation and how many of those capabilities it supports.

use super::evidence::{observation_item, ObservationItem};
use super::views::{Ctx, LinkView};
use crate::index::routes::Page;
use crate::model::text;
use serde::Serialize;

/// A client that speaks a revision, by what was seen or what its cells say.
#[derive(Debug, Serialize)]
pub struct Speaker<'a> {
    pub client: LinkView<'a>,
    /// The newest observation in which the client offered the revision.
    pub observed: Option<ObservationItem<'a>>,
    /// How many observations saw it offer the revision.
    pub observed_count: usize,
    /// Of the capabilities the revision introduced, how many the client supports (yes) or
    /// partly supports.
    pub new_yes: usize,
    pub new_partial: usize,
}

/// The clients that speak revision `id`, in matrix order; `introduced` are the capabilities
/// it introduced.
pub fn speakers<'a>(ctx: &Ctx<'a>, id: &str, introduced: &[usize]) -> Vec<Speaker<'a>> {
    let observations = &ctx.observations().by_client;
    let mut speakers = Vec::new();
    for &client in &ctx.matrix().clients {
        let offered: Vec<usize> = (observations.get(client).map_or(&[][..], Vec::as_slice))
            .iter()
            .copied()
            .filter(|&o| text(&ctx.observation(o).protocol_version) == id)
            .collect();
        let count = |wanted: &str| {
            (introduced.iter())
                .filter(|&&c| ctx.status(client, c) == wanted)
                .count()
        };
        let (new_yes, new_partial) = (count("yes"), count("partial"));
        if offered.is_empty() && new_yes + new_partial == 0 {
            continue;
        }
        speakers.push(Speaker {
            client: ctx.link(Page::Client(client)),
            // Observations are listed newest version first.
            observed: offered.first().map(|&o| observation_item(ctx, o)),
            observed_count: offered.len(),
            new_yes,
            new_partial,
        });
    }
    // Seen speaking it first, then by how much of what is new they support.
    speakers.sort_by_key(|s| {
        (
            s.observed.is_none(),
            std::cmp::Reverse(s.new_yes * 2 + s.new_partial),
        )
    });
    speakers
}
