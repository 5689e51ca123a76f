//! Render: the site's pages from tera templates over view structs, as HTML and Markdown.
//!
//! Every page is written twice, as `<route>.html` and `<route>.md` (`index.*` for the home
//! page), from a same-named `.html` and `.md` template. Templates never see the model: each
//! page family builds serialize-only views (`views`, `body`, `home`, `note`,
//! `support`, `listing`) that borrow from the index. `theme` finds and compiles the
//! templates, `markdown` turns bodies into HTML (`highlight` colours their code), `sources`
//! pins source links to commits and lines. Beside the pages: Atom feeds (`feeds`),
//! `sitemap.xml` and `robots.txt` (`sitemap`), the JSON data API (`api`) and the search
//! index (`search`).

mod api;
mod body;
mod feeds;
mod highlight;
mod home;
mod listing;
mod markdown;
mod matrix;
mod note;
mod search;
mod sitemap;
mod sources;
mod support;
mod theme;
mod urls;
mod views;

use crate::error::Result;
use crate::index::routes::{output_stem, Page};
use crate::index::SiteIndex;
use crate::model::text;
use crate::source::Section;
use crate::sources::excerpt::Excerpts;
use crate::write::Output;
use chrono::NaiveDate;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;
use views::{Ctx, PageView, SiteView};

/// How much a render wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct RenderStats {
    /// Pages, each written as HTML and as Markdown.
    pub pages: usize,
    /// Every file written: pages in both forms, `404.html`, `llms.txt`, feeds, the sitemap,
    /// `robots.txt`, the data API, the search index, static files.
    pub files: usize,
}

/// Renders every page of the site into `out`.
/// `excerpts`: each source's pinned lines, shown under its link (`build --excerpts`).
pub fn render(
    index: &SiteIndex,
    excerpts: Option<&Excerpts>,
    out: &mut dyn Output,
) -> Result<RenderStats> {
    let theme = theme::load(index)?;
    let (today, from_epoch) = reference_day(index)?;
    let mut ctx = Ctx::new(index, today);
    ctx.excerpts = excerpts;
    let pages = Pages {
        tera: &theme.tera,
        site: ctx.site(),
        ctx: &ctx,
    };
    let mut r = Renderer {
        pages: &pages,
        out,
        stats: RenderStats::default(),
        written: Vec::new(),
    };
    // The search index takes about as long as the pages: it is built meanwhile.
    std::thread::scope(|scope| {
        let search = scope.spawn(|| search::index_files(&ctx));
        r.pages(from_epoch)?;
        r.not_found()?;
        r.llms_txt()?;
        r.feeds()?;
        r.sitemap()?;
        r.api()?;
        let search = search
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        for (path, bytes) in search? {
            r.put(&path, &bytes)?;
        }
        for (path, bytes) in &theme.static_files {
            r.put(path, bytes)?;
        }
        Ok(r.stats)
    })
}

/// The day "verified N days ago" counts to, and whether it came from `SOURCE_DATE_EPOCH`.
///
/// A build must be byte-identical run to run, so render never reads the clock. When
/// `SOURCE_DATE_EPOCH` is set (the reproducible-builds convention) ages count to its day.
/// Otherwise they count to the newest `lastVerified` or `last-updated` date in the site
/// (notes, support cells, guides): the freshest evidence reads "today" and the rest read
/// how far behind it they are, which stays true however late the build runs. With neither,
/// pages show dates without ages.
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

/// Notes are rendered in parallel, this many at a time, then written in order.
const NOTE_CHUNK: usize = 256;

/// Renders pages from templates; shared by the threads that render notes.
struct Pages<'r, 'a> {
    tera: &'r tera::Tera,
    ctx: &'r Ctx<'a>,
    site: SiteView<'a>,
}

/// A page rendered as HTML and Markdown, not yet written.
struct Rendered {
    page: Page,
    stem: String,
    html: String,
    md: String,
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
        let meta = self.ctx.page(page, self.ctx.title(page), description);
        let mut context = tera::Context::new();
        context.insert("site", &self.site);
        context.insert("page", &meta);
        context.insert(key, view);
        Ok(Rendered {
            page,
            stem: output_stem(&meta.route),
            html: self.template(&format!("{template}.html"), &context)?,
            md: self.template(&format!("{template}.md"), &context)?,
        })
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
}

impl<'a> Renderer<'_, 'a> {
    /// Every page: home, section indexes, notes, clients, capabilities, spec revisions,
    /// guides.
    fn pages(&mut self, from_epoch: bool) -> Result<()> {
        let ctx = self.pages.ctx;
        let index = ctx.index;
        let content = &index.content;
        let description = Cow::Borrowed(index.config.description.as_str());
        let summary = |s: &'a str| -> Cow<'a, str> { Cow::Borrowed(s) };
        let home = home::home_view(ctx, from_epoch);
        self.page(Page::Home, "home", "home", &home, description.clone())?;
        for section in Section::ALL {
            let list = listing::section_view(ctx, section);
            self.page(
                Page::Index(section),
                "list",
                "list",
                &list,
                description.clone(),
            )?;
        }
        let specs = listing::spec_index_view(ctx);
        self.page(Page::SpecIndex, "list", "list", &specs, description.clone())?;
        let notes: Vec<usize> = (0..content.notes.len()).collect();
        for chunk in notes.chunks(NOTE_CHUNK) {
            let pages = self.pages;
            let rendered: Vec<Result<Rendered>> = chunk
                .par_iter()
                .map(|&i| {
                    let view = note::note_view(ctx, i);
                    let about = summary(text(&content.notes[i].summary));
                    pages.render(Page::Note(i), "note", "note", &view, about)
                })
                .collect();
            for page in rendered {
                self.write(page?)?;
            }
        }
        for i in 0..content.clients.len() {
            let view = support::client_view(ctx, i);
            let about = format!(
                "Which protocol capabilities {} supports, with the evidence for each.",
                view.title
            );
            self.page(
                Page::Client(i),
                "client",
                "client",
                &view,
                Cow::Owned(about),
            )?;
        }
        for i in 0..content.capabilities.len() {
            let view = support::capability_view(ctx, i);
            let about = format!(
                "Which clients support {}, with the evidence for each.",
                view.title
            );
            let page = Page::Capability(i);
            self.page(page, "capability", "capability", &view, Cow::Owned(about))?;
        }
        for i in 0..index.config.spec_versions.len() {
            let view = listing::spec_view(ctx, i);
            let about = index.config.spec_versions[i].title.as_deref().map(summary);
            let about = about.unwrap_or(description.clone());
            self.page(Page::Spec(i), "spec", "spec", &view, about)?;
        }
        for i in 0..content.guides.len() {
            let view = note::guide_view(ctx, i);
            let about = summary(text(&content.guides[i].summary));
            self.page(Page::Guide(i), "guide", "guide", &view, about)?;
        }
        Ok(())
    }

    /// Renders and writes one page.
    fn page<V: Serialize>(
        &mut self,
        page: Page,
        template: &str,
        key: &'static str,
        view: &V,
        description: Cow<'a, str>,
    ) -> Result<()> {
        let rendered = self.pages.render(page, template, key, view, description)?;
        self.write(rendered)
    }

    /// Writes a rendered page as `<stem>.html` and `<stem>.md`.
    fn write(&mut self, page: Rendered) -> Result<()> {
        self.put(&format!("{}.html", page.stem), page.html.as_bytes())?;
        self.put(&format!("{}.md", page.stem), page.md.as_bytes())?;
        self.stats.pages += 1;
        self.written.push(page.page);
        Ok(())
    }

    /// `/404.html`: served by hosts for any missing route, so it has no canonical URL.
    fn not_found(&mut self) -> Result<()> {
        let meta = PageView {
            title: Cow::Borrowed("Page not found"),
            description: Cow::Borrowed(""),
            route: "/404".to_string(),
            url: self.pages.ctx.href_route("/404"),
            canonical: None,
            md_url: None,
            section: "",
            edit_url: None,
            feed: None,
        };
        let mut context = tera::Context::new();
        context.insert("site", &self.pages.site);
        context.insert("page", &meta);
        let html = self.render("404.html", &context)?;
        self.put("404.html", html.as_bytes())
    }

    /// `/llms.txt`: the site for language models, every page's Markdown rendition listed.
    fn llms_txt(&mut self) -> Result<()> {
        let mut context = tera::Context::new();
        context.insert("site", &self.pages.site);
        context.insert("llms", &listing::llms_view(self.pages.ctx));
        let text = self.render("llms.txt", &context)?;
        self.put("llms.txt", text.as_bytes())
    }

    /// Atom feeds: the site's, then one per client and per capability.
    fn feeds(&mut self) -> Result<()> {
        let ctx = self.pages.ctx;
        let index = ctx.index;
        let all: Vec<usize> = (0..index.content.notes.len()).collect();
        let pages = std::iter::once((Page::Home, all.as_slice()))
            .chain(
                index
                    .notes_by_client
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (Page::Client(i), n.as_slice())),
            )
            .chain(
                index
                    .notes_by_capability
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (Page::Capability(i), n.as_slice())),
            );
        for (page, notes) in pages {
            let mut context = tera::Context::new();
            context.insert("site", &self.pages.site);
            context.insert("feed", &feeds::feed_view(ctx, page, notes));
            let xml = self.render("feed.xml", &context)?;
            let route = feeds::feed_route(ctx, page).unwrap_or_default();
            self.put(route.trim_start_matches('/'), xml.as_bytes())?;
        }
        Ok(())
    }

    /// `/sitemap.xml` of every page written, and `/robots.txt` pointing at it.
    fn sitemap(&mut self) -> Result<()> {
        let mut context = tera::Context::new();
        context.insert("site", &self.pages.site);
        context.insert(
            "sitemap",
            &sitemap::sitemap_view(self.pages.ctx, &self.written),
        );
        let xml = self.render("sitemap.xml", &context)?;
        self.put("sitemap.xml", xml.as_bytes())?;
        let robots = self.render("robots.txt", &context)?;
        self.put("robots.txt", robots.as_bytes())
    }

    /// The JSON data API and its schemas, under `/api/`.
    fn api(&mut self) -> Result<()> {
        let ctx = self.pages.ctx;
        self.json("api/notes.json", &api::notes_doc(ctx))?;
        self.json("api/clients.json", &api::clients_doc(ctx))?;
        self.json("api/matrix.json", &api::matrix_doc(ctx))?;
        for (name, schema) in api::SCHEMAS {
            self.put(&format!("api/{name}.schema.json"), schema)?;
        }
        Ok(())
    }

    /// Writes `value` as compact JSON (serde_json escapes every string).
    fn json<V: Serialize>(&mut self, path: &str, value: &V) -> Result<()> {
        let mut bytes = serde_json::to_vec(value)
            .map_err(|e| crate::error::Error::io(path, "serialize", e.into()))?;
        bytes.push(b'\n');
        self.put(path, &bytes)
    }

    fn render(&self, template: &str, context: &tera::Context) -> Result<String> {
        self.pages.template(template, context)
    }

    fn put(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        self.out.put(path, bytes)?;
        self.stats.files += 1;
        Ok(())
    }
}
