//! `/sitemap.xml`: every HTML page at its canonical URL, with the day its content last
//! changed where the content says (`last-updated`, `lastVerified`).

use super::feeds::note_day;
use super::views::{parse_day, Ctx};
use crate::index::routes::Page;
use crate::model::text;
use chrono::NaiveDate;
use serde::Serialize;

/// The sitemap.
#[derive(Debug, Serialize)]
pub struct SitemapView {
    pub urls: Vec<SitemapUrl>,
}

#[derive(Debug, Serialize)]
pub struct SitemapUrl {
    pub loc: String,
    /// `YYYY-MM-DD`; `None` when nothing on the page is dated.
    pub lastmod: Option<String>,
}

/// The sitemap of `pages` (every page the render wrote), in that order.
pub fn sitemap_view(ctx: &Ctx<'_>, pages: &[Page]) -> SitemapView {
    let index = ctx.index;
    let content = &index.content;
    let notes: Vec<Option<NaiveDate>> = content.notes.iter().map(note_day).collect();
    let mut clients: Vec<Option<NaiveDate>> = vec![None; content.clients.len()];
    let mut capabilities: Vec<Option<NaiveDate>> = vec![None; content.capabilities.len()];
    for (c, client) in content.clients.iter().enumerate() {
        for cell in &client.support {
            let day = parse_day(text(&cell.last_verified));
            clients[c] = clients[c].max(day);
            if let Some((cap, _)) = index.ids.capability(&cell.capability.value) {
                capabilities[cap] = capabilities[cap].max(day);
            }
        }
    }
    let newest_of = |list: &[usize]| list.iter().filter_map(|&n| notes[n]).max();
    let guides = content
        .guides
        .iter()
        .filter_map(|g| parse_day(text(&g.last_updated)));
    let newest = notes
        .iter()
        .chain(&clients)
        .flatten()
        .copied()
        .chain(guides)
        .max();
    let lastmod = |page: Page| match page {
        Page::Note(i) => notes[i],
        Page::Client(i) => clients[i],
        Page::Capability(i) => capabilities[i],
        Page::Guide(i) => parse_day(text(&content.guides[i].last_updated)),
        Page::Spec(i) => newest_of(&index.notes_by_spec[i]),
        Page::Home | Page::Index(_) | Page::SpecIndex => newest,
    };
    SitemapView {
        urls: pages
            .iter()
            .map(|&page| SitemapUrl {
                loc: index.canonical_url(page),
                lastmod: lastmod(page).map(|d| d.format("%Y-%m-%d").to_string()),
            })
            .collect(),
    }
}
