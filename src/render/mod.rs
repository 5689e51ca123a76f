//! Render: the site's pages from tera templates over view structs, as HTML and Markdown.
//!
//! Every page is written twice, as `<route>.html` and `<route>.md` (`index.*` for the home
//! page), from a same-named `.html` and `.md` template. Templates never see the model: each
//! page family builds serialize-only views (`views`, `body`, `home`, `note`,
//! `support`, `listing`) that borrow from the index. `theme` finds and compiles the
//! templates, `escape` escapes what they print for each output format, `markdown` turns
//! bodies into HTML (`highlight` colours their code), `sources` pins source links to commits
//! and lines. Beside the pages: Atom feeds (`feeds`), `sitemap.xml` and `robots.txt`
//! (`sitemap`), the JSON data API (`api`) and the search index (`search`).
//!
//! [`render`] makes everything. [`render_with`] can also reuse what an earlier render made
//! ([`Memo`]): a [`Fingerprint`] hashes each page's inputs, and a page whose hash is
//! unchanged is not rendered again (`fieldnotes serve` re-renders one edited note this way).

mod api;
mod body;
mod escape;
mod feeds;
mod files;
mod highlight;
mod home;
mod listing;
mod markdown;
mod matrix;
mod memo;
mod note;
mod search;
mod sitemap;
mod sources;
mod support;
mod theme;
mod urls;
mod views;

use crate::error::Result;
use crate::index::routes::{html_file_of_stem, output_stem, Page};
use crate::index::SiteIndex;
use crate::model::text;
use crate::source::Section;
use crate::sources::excerpt::Excerpts;
use crate::write::Output;
use crate::write::Shared;
use chrono::NaiveDate;
use memo::MemoPage;
pub use memo::{Fingerprint, Memo};
use rayon::prelude::*;
pub use search::SEARCH_DIR;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
pub use theme::builtin_static_files;
use views::{Ctx, PageView};

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
    /// ([`RenderOptions::defer_listings`]): a render without deferral brings them up to date.
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
    /// With a memo: write the previous version of every changed page that lists or tallies
    /// notes (home, indexes, client, capability and spec pages) and of the files beside the
    /// pages, instead of rendering them, and name them in [`RenderStats::deferred`].
    /// `fieldnotes serve` publishes the edited notes this way first, then the listings.
    pub defer_listings: bool,
}

/// Renders the site into `out`, reusing from `memo` each output whose fingerprint is
/// unchanged and remembering the rest there. Without a memo, renders everything.
pub fn render_with(
    index: &SiteIndex,
    options: &RenderOptions<'_>,
    out: &mut dyn Output,
    memo: Option<(&mut Memo, &dyn Fingerprint)>,
) -> Result<RenderStats> {
    let (mut memo, fingerprint) = match memo {
        Some((memo, fingerprint)) => (Some(memo), Some(fingerprint)),
        None => (None, None),
    };
    let theme = match memo.as_ref().and_then(|m| m.theme.clone()) {
        Some(theme) => theme,
        None => Arc::new(theme::load(index)?),
    };
    let (today, _) = match options.reference {
        Some(reference) => reference,
        None => reference_day(index)?,
    };
    let pages = Pages {
        tera: &theme.tera,
        index,
        today,
        excerpts: options.excerpts,
        ctx: OnceLock::new(),
        site: OnceLock::new(),
    };
    let mut r = Renderer {
        pages: &pages,
        out,
        stats: RenderStats::default(),
        written: Vec::new(),
        generated: HashSet::new(),
        progress: options.progress,
        fingerprint,
        memo: memo.as_deref_mut().map(std::mem::take).unwrap_or_default(),
        defer: options.defer_listings && memo.is_some(),
    };
    let written = (|| {
        r.pages()?;
        r.files()?;
        // After the pages, not beside them: both use every core, and the index's postings
        // would add to the pages' peak memory.
        if !options.skip_search {
            for (path, bytes) in search::index_files(pages.ctx())? {
                r.put(&path, &bytes)?;
            }
        }
        for (path, bytes) in &theme.static_files {
            r.put_static(path, bytes)?;
        }
        Ok(())
    })();
    // Kept even when the render failed: each entry still holds its inputs' fingerprint.
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
    2 + Section::ALL.len()
        + content.notes.len()
        + content.clients.len()
        + content.capabilities.len()
        + content.guides.len()
        + index.config.spec_versions.len()
}

/// The search index alone, as (path, contents): what [`RenderOptions::skip_search`] leaves
/// out.
pub fn search_files(index: &SiteIndex) -> Result<Vec<(String, Vec<u8>)>> {
    let (today, _) = reference_day(index)?;
    search::index_files(&Ctx::new(index, today))
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
        return Ok((Some(crate::today::today(None)?), true));
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
/// change it: a page [`RenderOptions::defer_listings`] may leave for later.
fn lists_notes(page: Page) -> bool {
    !matches!(page, Page::Note(_) | Page::Guide(_))
}

/// Pages are rendered in parallel, this many at a time, then written in order.
const PAGE_CHUNK: usize = 64;

/// One page to render: which, and how (its view, made only when it is rendered).
struct Job<'j> {
    page: Page,
    render: Box<dyn Fn() -> Result<Rendered> + Send + Sync + 'j>,
}

/// The job rendering `page` from `<template>.html` and `<template>.md`, with the view
/// `view` makes (and the page's description) under the template's name.
fn job<'j, 'a: 'j, V: Serialize + 'j>(
    pages: &'j Pages<'j, 'a>,
    page: Page,
    template: &'static str,
    view: impl Fn(&'j Ctx<'a>) -> (V, Cow<'a, str>) + Send + Sync + 'j,
) -> Job<'j> {
    Job {
        page,
        render: Box::new(move || {
            let (view, description) = view(pages.ctx());
            pages.render(page, template, template, &view, description)
        }),
    }
}

/// Renders pages from templates; shared by the threads that render notes.
struct Pages<'r, 'a> {
    tera: &'r tera::Tera,
    index: &'a SiteIndex,
    today: Option<NaiveDate>,
    excerpts: Option<&'a Excerpts>,
    /// Made on first use: a rebuild that reuses every page needs neither.
    ctx: OnceLock<Ctx<'a>>,
    site: OnceLock<tera::Value>,
}

/// A page rendered as HTML and Markdown (or reused), not yet written.
struct Rendered {
    page: Page,
    stem: String,
    html: Shared,
    md: Shared,
    /// Its fingerprint, when it has one: to remember it by.
    key: Option<u64>,
    made: Made,
}

/// Where a page's output came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Made {
    Rendered,
    /// Taken from the previous render, its inputs unchanged.
    Reused,
    /// Taken from the previous render although its inputs changed (deferred).
    Deferred,
}

impl<'a> Pages<'_, 'a> {
    /// Renders `page` from `<template>.html` and `<template>.md`, with the view under `key`
    /// beside `site` and `page`.
    fn render<V: Serialize>(
        &self,
        page: Page,
        template: &str,
        key: &'static str,
        view: &V,
        description: Cow<'a, str>,
    ) -> Result<Rendered> {
        let ctx = self.ctx();
        let meta = ctx.page(page, ctx.title(page), description);
        let mut context = tera::Context::new();
        context.insert_value("site", self.site());
        context.insert("page", &meta);
        context.insert(key, view);
        // Both at once: a listing of 10,000 notes takes tens of milliseconds per form.
        let (html, md) = rayon::join(
            || self.template(&format!("{template}.html"), &context),
            || self.template(&format!("{template}.md"), &context),
        );
        Ok(Rendered {
            page,
            stem: output_stem(&meta.route),
            html: html?.into_bytes().into(),
            md: md?.into_bytes().into(),
            key: None,
            made: Made::Rendered,
        })
    }

    /// `page` as the previous render made it, when its fingerprint (`key`) is unchanged or
    /// `defer` allows an out-of-date version.
    fn reuse(&self, page: Page, key: Option<u64>, memo: &Memo, defer: bool) -> Option<Rendered> {
        let old = memo.pages.get(&page)?;
        let made = match key {
            Some(key) if key == old.key => Made::Reused,
            _ if defer && lists_notes(page) => Made::Deferred,
            _ => return None,
        };
        Some(Rendered {
            page,
            stem: old.stem.clone(),
            html: old.html.clone(),
            md: old.md.clone(),
            key: Some(old.key),
            made,
        })
    }

    /// The context views are built from.
    fn ctx(&self) -> &Ctx<'a> {
        self.ctx.get_or_init(|| {
            let mut ctx = Ctx::new(self.index, self.today);
            ctx.excerpts = self.excerpts;
            ctx
        })
    }

    /// The `site` every template sees, converted to a template value once: each page gets a
    /// shared copy instead of converting it again.
    fn site(&self) -> tera::Value {
        let site = self
            .site
            .get_or_init(|| tera::Value::from_serializable(&self.ctx().site()));
        site.clone()
    }

    fn template(&self, template: &str, context: &tera::Context) -> Result<String> {
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
    /// The pages written so far, for the sitemap.
    written: Vec<Page>,
    /// Every path written so far: a static file may replace none of them.
    generated: HashSet<String>,
    progress: Option<&'r AtomicUsize>,
    fingerprint: Option<&'r dyn Fingerprint>,
    /// What the previous render made, updated with what this one makes (empty and left
    /// so without a fingerprint).
    memo: Memo,
    /// See [`RenderOptions::defer_listings`].
    defer: bool,
}

impl<'a> Renderer<'_, 'a> {
    /// Every page: home, section indexes, notes, clients, capabilities, spec revisions,
    /// guides. Rendered in parallel, [`PAGE_CHUNK`] at a time, and written in this order; a
    /// page whose fingerprint is unchanged is taken from the previous render instead.
    fn pages(&mut self) -> Result<()> {
        let pages = self.pages;
        let index = pages.index;
        let content = &index.content;
        let description = || Cow::Borrowed(index.config.description.as_str());
        let summary = |s: &'a str| -> Cow<'a, str> { Cow::Borrowed(s) };
        let mut jobs = vec![job(pages, Page::Home, "home", move |ctx| {
            (home::home_view(ctx), description())
        })];
        for section in Section::ALL {
            jobs.push(job(pages, Page::Index(section), "list", move |ctx| {
                (listing::section_view(ctx, section), description())
            }));
        }
        jobs.push(job(pages, Page::SpecIndex, "list", move |ctx| {
            (listing::spec_index_view(ctx), description())
        }));
        for i in 0..content.notes.len() {
            jobs.push(job(pages, Page::Note(i), "note", move |ctx| {
                (
                    note::note_view(ctx, i),
                    summary(text(&content.notes[i].summary)),
                )
            }));
        }
        for i in 0..content.clients.len() {
            jobs.push(job(pages, Page::Client(i), "client", move |ctx| {
                let view = support::client_view(ctx, i);
                let about = support::client_description(view.title);
                (view, Cow::Owned(about))
            }));
        }
        for i in 0..content.capabilities.len() {
            jobs.push(job(pages, Page::Capability(i), "capability", move |ctx| {
                let view = support::capability_view(ctx, i);
                let about = support::capability_description(view.title);
                (view, Cow::Owned(about))
            }));
        }
        for i in 0..index.config.spec_versions.len() {
            jobs.push(job(pages, Page::Spec(i), "spec", move |ctx| {
                let about = index.config.spec_versions[i].title.as_deref().map(summary);
                (listing::spec_view(ctx, i), about.unwrap_or(description()))
            }));
        }
        for i in 0..content.guides.len() {
            jobs.push(job(pages, Page::Guide(i), "guide", move |ctx| {
                let about = summary(text(&content.guides[i].summary));
                (note::guide_view(ctx, i), about)
            }));
        }
        // Chunks bound the memory a build holds; a render with a memo keeps every page
        // anyway, and mostly reuses them: one batch balances the few it renders over cores.
        let chunk = match self.fingerprint {
            Some(_) => jobs.len().max(1),
            None => PAGE_CHUNK,
        };
        for chunk in jobs.chunks(chunk) {
            let (memo, fingerprint, defer) = (&self.memo, self.fingerprint, self.defer);
            let rendered: Vec<Result<Rendered>> = chunk
                .par_iter()
                .map(|job| {
                    let key = fingerprint.and_then(|f| f.page(job.page));
                    if let Some(reused) = pages.reuse(job.page, key, memo, defer) {
                        return Ok(reused);
                    }
                    Ok(Rendered {
                        key,
                        ..(job.render)()?
                    })
                })
                .collect();
            for page in rendered {
                self.write(page?)?;
            }
        }
        // Forget pages the site no longer has (after notes were removed).
        if self.memo.pages.len() > self.written.len() {
            let written: std::collections::HashSet<&Page> = self.written.iter().collect();
            self.memo.pages.retain(|page, _| written.contains(page));
        }
        Ok(())
    }

    /// Writes a rendered page as `<stem>.html` and `<stem>.md`.
    fn write(&mut self, page: Rendered) -> Result<()> {
        let urls = self.pages.index.config.urls;
        let (html, md) = (
            html_file_of_stem(&page.stem, urls),
            format!("{}.md", page.stem),
        );
        self.put_shared(&html, &page.html)?;
        self.put_shared(&md, &page.md)?;
        self.stats.pages += 1;
        if let Some(progress) = self.progress {
            progress.fetch_add(1, Ordering::Relaxed);
        }
        self.written.push(page.page);
        match (page.made, page.key) {
            (Made::Reused, _) => self.stats.reused += 1,
            (Made::Deferred, _) => {
                self.stats.reused += 1;
                self.stats.deferred.extend([html, md]);
            }
            (Made::Rendered, Some(key)) => {
                let (stem, html, md) = (page.stem, page.html, page.md);
                let old = MemoPage {
                    key,
                    stem,
                    html,
                    md,
                };
                self.memo.pages.insert(page.page, old);
            }
            (Made::Rendered, None) => {}
        }
        Ok(())
    }

    /// The files beside the pages (404, `llms.txt`, feeds, sitemap, data API), or the
    /// previous render's when their fingerprint is unchanged.
    fn files(&mut self) -> Result<()> {
        let key = self.fingerprint.and_then(|f| f.files());
        if let Some((old, files)) = self.memo.files.take() {
            let fresh = key == Some(old);
            if fresh || self.defer {
                for (path, bytes) in &files {
                    self.put_shared(path, bytes)?;
                    if !fresh {
                        self.stats.deferred.push(path.clone());
                    }
                }
                self.memo.files = Some((old, files));
                return Ok(());
            }
        }
        let notes = self.pages.index.content.notes.len();
        let keys: Option<Vec<u64>> =
            (self.fingerprint).and_then(|f| (0..notes).map(|i| f.note_record(i)).collect());
        let records = (self.memo.note_records.as_slice(), keys.as_deref());
        let (made, records) = files::files(self.pages, &self.written, records)?;
        self.memo.note_records = records;
        for (path, bytes) in &made {
            self.put_shared(path, bytes)?;
        }
        if let Some(key) = key {
            self.memo.files = Some((key, made));
        }
        Ok(())
    }

    fn put(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        self.out.put(path, bytes)?;
        self.generated.insert(path.to_string());
        self.stats.files += 1;
        Ok(())
    }

    fn put_shared(&mut self, path: &str, bytes: &Shared) -> Result<()> {
        self.out.put_shared(path, bytes)?;
        self.generated.insert(path.to_string());
        self.stats.files += 1;
        Ok(())
    }

    /// Writes a static file, which may never replace a generated one (lint reports it first,
    /// as FN012; this keeps the promise whatever lint was asked).
    fn put_static(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        if self.generated.contains(path) {
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
