//! `/sitemap.xml`: every HTML page at its canonical URL, with the day its content last
//! changed where the content says (`last-updated`, `lastVerified`).

use super::feeds::note_day;
use super::views::{parse_day, Ctx};
use crate::index::routes::Page;
use crate::model::text;
use crate::text_file::Section;
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

/// The sitemap of every page, in the order the render writes them.
pub fn sitemap_view(ctx: &Ctx<'_>) -> SitemapView {
    let notes: Vec<Option<NaiveDate>> = (0..ctx.count(Section::Research))
        .map(|n| note_day(ctx.note(n)))
        .collect();
    let mut clients: Vec<Option<NaiveDate>> = vec![None; ctx.count(Section::Clients)];
    let mut capabilities: Vec<Option<NaiveDate>> = vec![None; ctx.count(Section::Capabilities)];
    for (c, newest) in clients.iter_mut().enumerate() {
        for cell in &ctx.client(c).support {
            let day = parse_day(text(&cell.last_verified));
            *newest = (*newest).max(day);
            if let Some((cap, _)) = ctx.find_capability(&cell.capability.value) {
                capabilities[cap] = capabilities[cap].max(day);
            }
        }
    }
    let newest_of = |list: &[usize]| list.iter().filter_map(|&n| notes[n]).max();
    let guides: Vec<Option<NaiveDate>> = (0..ctx.count(Section::Guides))
        .map(|g| parse_day(text(&ctx.guide(g).last_updated)))
        .collect();
    let newest = notes
        .iter()
        .chain(&clients)
        .flatten()
        .copied()
        .chain(guides.iter().flatten().copied())
        .max();
    let lastmod = |page: Page| match page {
        Page::Note(i) => notes[i],
        Page::Client(i) => clients[i],
        Page::Capability(i) => capabilities[i],
        Page::Guide(i) => guides[i],
        Page::Spec(i) => newest_of(ctx.notes_of(Page::Spec(i))),
        Page::Observation(i) => parse_day(text(&ctx.observation(i).observed)),
        Page::Home | Page::Index(_) | Page::SpecIndex => newest,
    };
    SitemapView {
        urls: ctx
            .pages()
            .into_iter()
            .map(|page| SitemapUrl {
                loc: ctx.canonical_url(page),
                lastmod: lastmod(page).map(|d| d.format("%Y-%m-%d").to_string()),
            })
            .collect(),
    }
}
