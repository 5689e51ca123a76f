//! Atom feeds of research notes, newest first: the whole site's (`/feed.xml`) and one per
//! client and per capability (`/feeds/clients/<id>.xml`, `/feeds/capabilities/<id>.xml`).
//! Dates come from the notes (`last-updated`, `lastVerified`), never from the clock.

use super::escape;
use super::views::{parse_day, Ctx};
use crate::index::routes::Page;
use crate::model::{text, Note};
use chrono::NaiveDate;
use serde::Serialize;
use std::borrow::Cow;

/// The most entries a feed carries.
pub const FEED_ENTRIES: usize = 50;

/// An Atom feed.
#[derive(Debug, Serialize)]
pub struct FeedView<'a> {
    pub title: Cow<'a, str>,
    pub subtitle: Cow<'a, str>,
    /// The feed's own absolute URL (also its Atom id).
    pub id: String,
    /// The page the feed follows.
    pub alternate: String,
    /// RFC 3339: the newest entry's date, else the day ages count to.
    pub updated: String,
    pub entries: Vec<FeedEntry<'a>>,
}

/// One note in a feed.
#[derive(Debug, Serialize)]
pub struct FeedEntry<'a> {
    pub title: &'a str,
    /// The note's canonical URL (also its Atom id).
    pub url: String,
    pub updated: String,
    /// The summary as HTML: rendered from Markdown, then the note's status when it is not
    /// `current`, every value escaped. The template escapes it once more into
    /// `type="html"`, and puts nothing else there.
    pub summary_html: String,
    /// The note's status, as text: escape it twice to put it in HTML in a feed.
    pub status: &'a str,
    /// Clients and capabilities the note is about, as Atom categories.
    pub categories: Vec<&'a str>,
}

/// A feed to link from a page's head.
#[derive(Debug, Serialize)]
pub struct FeedLink {
    pub title: String,
    pub url: String,
}

/// The route of a page's feed (`/feed.xml` for the home page), for pages that have one.
pub fn feed_route(ctx: &Ctx<'_>, page: Page) -> Option<String> {
    match page {
        Page::Home => Some("/feed.xml".to_string()),
        Page::Client(_) | Page::Capability(_) => Some(format!("/feeds{}.xml", ctx.route(page))),
        _ => None,
    }
}

/// The day a note last changed: the later of `last-updated` and `lastVerified`.
pub fn note_day(note: &Note) -> Option<NaiveDate> {
    let updated = parse_day(text(&note.last_updated));
    let verified = parse_day(text(&note.last_verified));
    updated.max(verified)
}

/// The feed of `page` over `notes` (indexes into the site's notes).
pub fn feed_view<'a>(ctx: &Ctx<'a>, page: Page, notes: &[usize]) -> FeedView<'a> {
    let mut dated: Vec<(Option<NaiveDate>, usize)> =
        notes.iter().map(|&n| (note_day(ctx.note(n)), n)).collect();
    // Newest first; undated last; ties in page order.
    dated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    dated.truncate(FEED_ENTRIES);
    let fallback = ctx.today();
    let updated = dated.first().and_then(|d| d.0).or(fallback);
    let site = ctx.config();
    let route = feed_route(ctx, page).unwrap_or_default();
    FeedView {
        title: match page {
            Page::Home => Cow::Borrowed(&site.title),
            _ => Cow::Owned(format!(
                "{}: research notes · {}",
                ctx.title(page),
                site.title
            )),
        },
        subtitle: Cow::Borrowed(&site.description),
        id: site.url_for(&route),
        alternate: ctx.canonical_url(page),
        updated: timestamp(updated),
        entries: dated
            .into_iter()
            .map(|(day, n)| entry(ctx, n, day.or(fallback)))
            .collect(),
    }
}

fn entry<'a>(ctx: &Ctx<'a>, n: usize, day: Option<NaiveDate>) -> FeedEntry<'a> {
    let note = ctx.note(n);
    let card = ctx.note_card(n);
    FeedEntry {
        title: card.title,
        url: ctx.canonical_url(Page::Note(n)),
        updated: timestamp(day),
        summary_html: summary_html(&card.summary_html, card.status),
        status: card.status,
        categories: note
            .clients
            .iter()
            .chain(&note.capabilities)
            .map(|v| v.value.as_str())
            .collect(),
    }
}

/// The HTML of an entry's summary: `summary_html` (already HTML), then ` (<status>)`
/// escaped unless the note is current.
fn summary_html(summary_html: &str, status: &str) -> String {
    let mut html = summary_html.to_string();
    if status != "current" {
        html.push_str(" (");
        escape::html(status, &mut html);
        html.push(')');
    }
    html
}

/// Midnight UTC of a day, as Atom writes dates (`1970-01-01` without one).
fn timestamp(day: Option<NaiveDate>) -> String {
    format!("{}T00:00:00Z", day.unwrap_or_default().format("%Y-%m-%d"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undated_feed_starts_at_the_epoch() {
        assert_eq!(timestamp(None), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn a_status_is_escaped_into_the_summary() {
        assert_eq!(summary_html("<p>A</p>", "current"), "<p>A</p>");
        assert_eq!(
            summary_html("<em>A</em>", "<img src=x onerror=alert(1)>"),
            "<em>A</em> (&lt;img src=x onerror=alert(1)&gt;)"
        );
    }
}
