//! Render: the site's pages from tera templates over view structs, as HTML and Markdown.
//!
//! Every page is written twice, as `<route>.html` and `<route>.md` (`index.*` for the home
//! page), from a same-named `.html` and `.md` template. Templates never see the model: each
//! page family builds serialize-only views (`views`, `body`, `home`, `note`,
//! `support`, `listing`) from what a context (`ctx`) hands out, one per page, which records
//! every input it hands out ([`Input`]). `theme` finds and compiles the templates, `escape`
//! escapes what they print for each output format, `markdown` turns bodies into HTML
//! (`highlight` colours their code), `citations` pins cited sources' links to commits and lines.
//! Beside the pages: Atom feeds (`feeds`), `sitemap.xml` and `robots.txt`
//! (`sitemap`), the JSON data API (`api`) and the search index (`search`).
//!
//! [`render`] makes everything. [`render_with`] can also reuse what an earlier render made
//! ([`Incremental`]): a [`Memo`] keeps each output with the inputs it read, and an output
//! whose inputs are unchanged ([`Inputs`] says what each is now) is not made again
//! (`fieldnotes serve` re-renders one edited note this way). Without one, nothing is recorded.

mod api;
mod badges;
mod body;
mod citations;
mod ctx;
mod disagreements;
pub(crate) mod escape;
mod evidence;
mod feeds;
mod files;
mod filters;
mod frame;
mod hashed;
pub mod highlight;
mod home;
mod inputs;
mod listing;
mod markdown;
mod matrix;
mod matrix_csv;
mod memo;
mod note;
mod observation;
pub mod output;
mod outside;
mod page_evidence;
mod revision;
mod search;
mod sitemap;
mod state;
mod support;
mod theme;
mod urls;
mod views;

use crate::error::Result;
use crate::index::outputs::fold_case;
use crate::index::routes::{html_file_of_stem, output_stem, Page};
use crate::index::SiteIndex;
use crate::model::text;
use crate::provenance::excerpt::Excerpts;
use crate::render::output::Output;
use crate::render::output::Shared;
use chrono::NaiveDate;
use ctx::{site_pages, Cached, Site};
use frame::PageView;
pub use inputs::{fold, Input, Inputs};
pub use memo::{Incremental, Memo};
use memo::{Outcome, PageFiles, Reuse};
use rayon::prelude::*;
pub use search::{SearchFiles, SEARCH_DIR};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
pub use theme::published_static_files;
use views::Ctx;

/// How much a render wrote.
#[derive(Debug, Default, Clone)]
pub struct RenderStats {
    /// Pages, each written as HTML and as Markdown.
    pub pages: usize,
    /// Every file written: pages in both forms, `404.html`, `llms.txt`, feeds, the sitemap,
    /// `robots.txt`, the data API, the search index, static files.
    pub files: usize,
    /// Pages reused from an earlier render, unchanged (see [`render_with`]).
    pub reused: usize,
    /// Output paths written as an earlier render made them although their inputs changed
    /// ([`Incremental::defer_listings`]): a render without deferral brings them up to date.
    pub deferred: Vec<String>,
}

/// Renders every page of the site into `out`.
/// `excerpts`: each source's pinned lines, shown under its link (`build --excerpts`).
pub fn render(
    index: &SiteIndex,
    excerpts: Option<&Excerpts>,
    out: &mut dyn Output,
) -> Result<RenderStats> {
    let options = RenderOptions {
        excerpts,
        ..RenderOptions::default()
    };
    render_with(index, &options, out, None)
}

/// How [`render_with`] renders.
#[derive(Default)]
pub struct RenderOptions<'o> {
    /// Each source's pinned lines, shown under its link (`build --excerpts`).
    pub excerpts: Option<&'o Excerpts>,
    /// Leave out the search index (`fieldnotes serve` builds it after the pages are served:
    /// see [`search_files`]).
    pub skip_search: bool,
    /// Counts the pages as they are written, for a progress bar.
    pub progress: Option<&'o AtomicUsize>,
    /// The site's reference day, when the caller has it already (see [`reference_day`]).
    pub reference: Option<(Option<NaiveDate>, bool)>,
}

/// Renders the site into `out`. With `incremental` (`fieldnotes serve`), each output whose
/// inputs are unchanged since the memo's render is taken from it, and each one made now is
/// kept there with the inputs it read; without, every output is made and nothing recorded.
pub fn render_with(
    index: &SiteIndex,
    options: &RenderOptions<'_>,
    out: &mut dyn Output,
    incremental: Option<Incremental<'_>>,
) -> Result<RenderStats> {
    let (mut memo, reuse) = incremental.map(Incremental::split).unzip();
    let theme = match memo.as_ref().and_then(|m| m.theme.clone()) {
        Some(theme) => theme,
        None => Arc::new(theme::load(index)?),
    };
    let reference = match options.reference {
        Some(reference) => reference,
        None => reference_day(index)?,
    };
    let pages = Pages {
        tera: &theme.tera,
        index,
        reference,
        excerpts: options.excerpts,
        record: reuse.is_some(),
        site: OnceLock::new(),
        site_value: OnceLock::new(),
    };
    let mut r = Renderer {
        pages: &pages,
        out,
        stats: RenderStats::default(),
        generated: HashSet::new(),
        progress: options.progress,
        reuse,
        memo: memo.as_deref_mut().map(std::mem::take).unwrap_or_default(),
    };
    let written = (|| {
        r.pages()?;
        r.files()?;
        // After the pages, not beside them: both use every core, and the index's postings
        // would add to the pages' peak memory.
        if !options.skip_search {
            let never = || false;
            for (path, bytes) in search::index_files(pages.site(), &never)?.unwrap_or_default() {
                r.put(&path, &bytes)?;
            }
        }
        for (path, bytes) in &theme.static_files {
            r.put_static(path, bytes)?;
        }
        Ok(())
    })();
    // Kept even when the render failed: each entry still holds the inputs it was made from.
    if let Some(memo) = memo {
        *memo = std::mem::take(&mut r.memo);
        memo.theme = Some(theme.clone());
    }
    written.map(|()| r.stats)
}

/// How many pages a render of `index` writes (each as HTML and Markdown).
pub fn page_count(index: &SiteIndex) -> usize {
    let content = &index.content;
    // Home, each section's index, the index of spec revisions.
    2 + crate::index::outputs::section_indexes(content).count()
        + content.notes.len()
        + content.clients.len()
        + content.capabilities.len()
        + content.guides.len()
        + index.config.spec_versions.len()
        + content.observations.len()
}

/// The search index alone, as (path, contents): what [`RenderOptions::skip_search`] leaves
/// out.
pub fn search_files(index: &SiteIndex) -> Result<search::SearchFiles> {
    Ok(search_files_unless(index, &|| false)?.unwrap_or_default())
}

/// [`search_files`], or `None` as soon as `stop` says to give up (it is asked between
/// chunks of pages).
pub fn search_files_unless(
    index: &SiteIndex,
    stop: &dyn Fn() -> bool,
) -> Result<Option<search::SearchFiles>> {
    let reference = reference_day(index)?;
    search::index_files(&Site::new(index, reference, None, false), stop)
}

/// The site's reference day, and whether it came from `SOURCE_DATE_EPOCH`: what a feed with
/// no dated entry is dated by.
///
/// A build must be byte-identical run to run, so render never reads the clock. When
/// `SOURCE_DATE_EPOCH` is set (the reproducible-builds convention) it is that day; otherwise
/// the newest `lastVerified` or `last-updated` date in the site (notes, support cells,
/// guides). Pages show no age counted to it: "12 days ago", "today" and the staleness badges
/// are worked out in the reader's browser, on the day the page is read.
pub fn reference_day(index: &SiteIndex) -> Result<(Option<NaiveDate>, bool)> {
    if std::env::var("SOURCE_DATE_EPOCH").is_ok_and(|v| !v.trim().is_empty()) {
        return Ok((Some(crate::dates::today(None)?), true));
    }
    let content = &index.content;
    let notes = content
        .notes
        .iter()
        .flat_map(|n| [&n.last_verified, &n.last_updated]);
    let cells = content
        .clients
        .iter()
        .flat_map(|c| c.support.iter().map(|s| &s.last_verified));
    let guides = content.guides.iter().map(|g| &g.last_updated);
    let newest = notes
        .chain(cells)
        .chain(guides)
        .filter_map(|d| views::parse_day(text(d)))
        .max();
    Ok((newest, false))
}

/// Whether `page` lists or tallies notes, so that an edit to any note's front matter may
/// change it: a page [`Incremental::defer_listings`] may leave for later.
fn lists_notes(page: Page) -> bool {
    !matches!(page, Page::Note(_) | Page::Guide(_) | Page::Observation(_))
}

/// Pages are rendered in parallel, this many at a time, then written in order.
const PAGE_CHUNK: usize = 64;

/// Renders `page` from its template, with its view, reading the site through `ctx`.
fn render_page(pages: &Pages<'_, '_>, ctx: &Ctx<'_>, page: Page) -> Result<PageFiles> {
    let description = || Cow::Borrowed(ctx.config().description.as_str());
    match page {
        Page::Home => pages.render(ctx, page, "home", &home::home_view(ctx), description()),
        Page::Index(section) => {
            let view = listing::section_view(ctx, section);
            pages.render(ctx, page, "list", &view, description())
        }
        Page::SpecIndex => {
            let view = listing::spec_index_view(ctx);
            pages.render(ctx, page, "list", &view, description())
        }
        Page::Note(i) => {
            let view = note::note_view(ctx, i);
            let about = Cow::Borrowed(text(&ctx.note(i).summary));
            pages.render(ctx, page, "note", &view, about)
        }
        Page::Client(i) => {
            let view = support::client_view(ctx, i);
            let about = Cow::Owned(support::client_description(view.profile.title));
            pages.render(ctx, page, "client", &view, about)
        }
        Page::Capability(i) => {
            let view = support::capability_view(ctx, i);
            let about = Cow::Owned(support::capability_description(view.title));
            pages.render(ctx, page, "capability", &view, about)
        }
        Page::Spec(i) => {
            let view = listing::spec_view(ctx, i);
            let about = ctx.config().spec_versions[i]
                .title
                .as_deref()
                .map(Cow::Borrowed);
            pages.render(ctx, page, "spec", &view, about.unwrap_or_else(description))
        }
        Page::Guide(i) => {
            let view = note::guide_view(ctx, i);
            let about = Cow::Borrowed(text(&ctx.guide(i).summary));
            pages.render(ctx, page, "guide", &view, about)
        }
        Page::Observation(i) => {
            let view = observation::observation_view(ctx, i);
            let about = Cow::Owned(observation::description(&view));
            pages.render(ctx, page, "observation", &view, about)
        }
    }
}

/// Renders pages from templates; shared by the threads that render them.
struct Pages<'r, 'a> {
    tera: &'r tera::Tera,
    index: &'a SiteIndex,
    /// The day ages count to, and whether `SOURCE_DATE_EPOCH` gave it.
    reference: (Option<NaiveDate>, bool),
    excerpts: Option<&'a Excerpts>,
    /// Whether contexts record what they read (with a memo).
    record: bool,
    /// Made on first use: a rebuild that reuses every page needs neither.
    site: OnceLock<Site<'a>>,
    site_value: Cached<tera::Value>,
}

impl<'a> Pages<'_, 'a> {
    /// Renders `page` from `<template>.html` and `<template>.md`, with the view under the
    /// template's name beside `site` and `page`.
    fn render<'c, V: Serialize>(
        &self,
        ctx: &Ctx<'c>,
        page: Page,
        template: &'static str,
        view: &V,
        description: Cow<'c, str>,
    ) -> Result<PageFiles> {
        let meta = ctx.page(page, ctx.title(page), description);
        let mut context = self.context(ctx);
        context.insert("page", &meta);
        context.insert(template, view);
        ctx.uses_theme();
        // Both at once: a listing of 10,000 notes takes tens of milliseconds per form.
        let (html, md) = rayon::join(
            || self.tera_render(&format!("{template}.html"), &context),
            || self.tera_render(&format!("{template}.md"), &context),
        );
        Ok(PageFiles {
            stem: output_stem(&meta.route),
            html: html?.into_bytes().into(),
            md: md?.into_bytes().into(),
        })
    }

    /// What every page's context shares.
    fn site(&self) -> &Site<'a> {
        let (index, reference) = (self.index, self.reference);
        (self.site).get_or_init(|| Site::new(index, reference, self.excerpts, self.record))
    }

    /// A context for one output.
    fn ctx(&self) -> Ctx<'_> {
        self.site().ctx()
    }

    /// The `site` every template sees, converted to a template value once: each page gets a
    /// shared copy instead of converting it again (and records what it was made from).
    /// A template's context with what every template is given: `site`, and `extra` (the
    /// site's own settings from `site.yaml`).
    fn context(&self, ctx: &Ctx<'_>) -> tera::Context {
        let mut context = tera::Context::new();
        context.insert_value("site", self.site_value(ctx));
        context.insert("extra", &ctx.config().extra);
        context
    }

    fn site_value(&self, ctx: &Ctx<'_>) -> tera::Value {
        let value = ctx.cached(&self.site_value, |ctx| {
            tera::Value::from_serializable(&ctx.site())
        });
        value.clone()
    }

    /// `template` rendered with `context`, for the output `ctx` reads for.
    fn template(&self, ctx: &Ctx<'_>, template: &str, context: &tera::Context) -> Result<String> {
        ctx.uses_theme();
        self.tera_render(template, context)
    }

    fn tera_render(&self, template: &str, context: &tera::Context) -> Result<String> {
        self.tera
            .render(template, context)
            .map_err(|e| theme::template_error(template, &e))
    }
}

/// Writes rendered pages and files into the output and counts what it wrote.
struct Renderer<'r, 'a> {
    pages: &'r Pages<'r, 'a>,
    out: &'r mut dyn Output,
    stats: RenderStats,
    /// Every path written so far, [`fold_case`]d: a static file may replace none of them.
    generated: HashSet<String>,
    progress: Option<&'r AtomicUsize>,
    /// With a memo: what inputs are now, and whether to defer listings.
    reuse: Option<Reuse<'r>>,
    /// What the previous render made, updated with what this one makes (empty and left
    /// so without a memo).
    memo: Memo,
}

impl Renderer<'_, '_> {
    /// Every page, in [`site_pages`] order, rendered in parallel, [`PAGE_CHUNK`] at a time;
    /// a page whose inputs are unchanged is taken from the memo instead.
    fn pages(&mut self) -> Result<()> {
        let pages = self.pages;
        let all = site_pages(pages.index);
        // Chunks bound the memory a build holds; a render with a memo keeps every page
        // anyway, and mostly reuses them: one batch balances the few it renders over cores.
        let chunk = match self.reuse {
            Some(_) => all.len().max(1),
            None => PAGE_CHUNK,
        };
        for chunk in all.chunks(chunk) {
            let (memo, reuse) = (&self.memo, self.reuse);
            let rendered: Vec<Result<Outcome<PageFiles>>> = chunk
                .par_iter()
                .map(|&page| {
                    let old = memo.pages.get(&page);
                    if let Some(reused) = Outcome::reuse(old, reuse, lists_notes(page)) {
                        return Ok(reused);
                    }
                    let ctx = pages.ctx();
                    let made = render_page(pages, &ctx, page)?;
                    Ok(Outcome::made(made, ctx, reuse))
                })
                .collect();
            for (&page, outcome) in chunk.iter().zip(rendered) {
                self.write(page, outcome?)?;
            }
        }
        // Forget pages the site no longer has (after notes were removed).
        if self.memo.pages.len() > all.len() {
            let all: std::collections::HashSet<&Page> = all.iter().collect();
            self.memo.pages.retain(|page, _| all.contains(page));
        }
        Ok(())
    }

    /// Writes a page as `<stem>.html` (`<stem>/index.html` when pages are folders) and
    /// `<stem>.md`.
    fn write(&mut self, page: Page, outcome: Outcome<PageFiles>) -> Result<()> {
        let files = outcome.output();
        let urls = self.pages.index.config.urls;
        let (html, md) = (
            html_file_of_stem(&files.stem, urls),
            format!("{}.md", files.stem),
        );
        self.put_shared(&html, &files.html)?;
        self.put_shared(&md, &files.md)?;
        self.stats.pages += 1;
        if let Some(progress) = self.progress {
            progress.fetch_add(1, Ordering::Relaxed);
        }
        match outcome {
            Outcome::Reused(_) => self.stats.reused += 1,
            Outcome::Deferred(_) => {
                self.stats.reused += 1;
                self.stats.deferred.extend([html, md]);
            }
            Outcome::Made(_, Some(kept)) => {
                self.memo.pages.insert(page, kept);
            }
            Outcome::Made(_, None) => {}
        }
        Ok(())
    }

    /// The files beside the pages (404, `llms.txt`, feeds, sitemap, data API), each group
    /// taken from the memo when the inputs its maker read are unchanged.
    fn files(&mut self) -> Result<()> {
        let (pages, memo, reuse) = (self.pages, &self.memo, self.reuse);
        let records = reuse.map(|r| (memo.note_records.as_slice(), r.inputs));
        let made_records = std::sync::Mutex::new(None);
        let makers = files::makers(pages, records, &made_records);
        let made: Vec<Result<Outcome<memo::SharedFiles>>> = makers
            .par_iter()
            .map(|(key, make)| {
                if let Some(reused) = Outcome::reuse(memo.files.get(key), reuse, true) {
                    return Ok(reused);
                }
                let ctx = pages.ctx();
                let made = make(&ctx)?;
                Ok(Outcome::made(made, ctx, reuse))
            })
            .collect();
        let keys: Vec<memo::FileKey> = makers.iter().map(|(key, _)| *key).collect();
        drop(makers);
        for (key, outcome) in keys.iter().zip(made) {
            let outcome = outcome?;
            for (path, bytes) in outcome.output() {
                self.put_shared(path, bytes)?;
                if let Outcome::Deferred(_) = outcome {
                    self.stats.deferred.push(path.clone());
                }
            }
            if let Outcome::Made(_, Some(kept)) = outcome {
                self.memo.files.insert(*key, kept);
            }
        }
        if let Some(records) = made_records.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.memo.note_records = records;
        }
        // Forget the feeds of clients and capabilities the site no longer has.
        self.memo.files.retain(|key, _| keys.contains(key));
        Ok(())
    }

    fn put(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        self.out.put(path, bytes)?;
        self.generated.insert(fold_case(path).into_owned());
        self.stats.files += 1;
        Ok(())
    }

    fn put_shared(&mut self, path: &str, bytes: &Shared) -> Result<()> {
        self.out.put_shared(path, bytes)?;
        self.generated.insert(fold_case(path).into_owned());
        self.stats.files += 1;
        Ok(())
    }

    /// Writes a static file, which may never replace a generated one (lint reports it first,
    /// as FN012; this keeps the promise whatever lint was asked). Case is ignored, as macOS
    /// and Windows ignore it.
    fn put_static(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        if self.generated.contains(fold_case(path).as_ref()) {
            let error = std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "a static file would replace this generated file; rename or move the static \
                 file (FN012)",
            );
            return Err(crate::error::Error::io(path, "publish", error));
        }
        self.out.put(path, bytes)?;
        self.stats.files += 1;
        Ok(())
    }
}
