//! Render: the site's pages from tera templates over view structs, as HTML and Markdown.
//!
//! Every page is written twice, as `<route>.html` and `<route>.md` (`index.*` for the home
//! page), from a same-named `.html` and `.md` template. Templates never see the model: each
//! page family builds serialize-only views (`views`, `body`, `home`, `note`,
//! `support`, `listing`) that borrow from the index. `theme` finds and compiles the
//! templates, `markdown` turns bodies into HTML, `sources` pins source links to commits
//! and lines.

mod body;
mod home;
mod listing;
mod markdown;
mod note;
mod sources;
mod support;
mod theme;
mod views;

use crate::error::Result;
use crate::index::routes::{output_stem, Page};
use crate::index::SiteIndex;
use crate::model::text;
use crate::source::Section;
use crate::write::Output;
use chrono::NaiveDate;
use serde::Serialize;
use std::borrow::Cow;
use views::{Ctx, PageView, SiteView};

/// How much a render wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct RenderStats {
    /// Pages, each written as HTML and as Markdown.
    pub pages: usize,
    /// Every file written: pages in both forms, `404.html`, `llms.txt`, static files.
    pub files: usize,
}

/// Renders every page of the site into `out`.
pub fn render<'a>(index: &'a SiteIndex, out: &mut dyn Output) -> Result<RenderStats> {
    let theme = theme::load(index)?;
    let (today, from_epoch) = reference_day(index)?;
    let ctx = Ctx::new(index, today);
    let mut r = Renderer {
        tera: &theme.tera,
        site: ctx.site(),
        ctx: &ctx,
        out,
        stats: RenderStats::default(),
    };
    let description = Cow::Borrowed(index.config.description.as_str());
    let content = &index.content;
    let summary = |s: &'a str| -> Cow<'a, str> { Cow::Borrowed(s) };

    let home = home::home_view(&ctx, from_epoch);
    r.page(Page::Home, "home", "home", &home, description.clone())?;
    for section in Section::ALL {
        let list = listing::section_view(&ctx, section);
        r.page(
            Page::Index(section),
            "list",
            "list",
            &list,
            description.clone(),
        )?;
    }
    let specs = listing::spec_index_view(&ctx);
    r.page(Page::SpecIndex, "list", "list", &specs, description.clone())?;
    for i in 0..content.notes.len() {
        let view = note::note_view(&ctx, i);
        let about = summary(text(&content.notes[i].summary));
        r.page(Page::Note(i), "note", "note", &view, about)?;
    }
    for i in 0..content.clients.len() {
        let view = support::client_view(&ctx, i);
        let about = format!(
            "Which protocol capabilities {} supports, with the evidence for each.",
            view.title
        );
        r.page(
            Page::Client(i),
            "client",
            "client",
            &view,
            Cow::Owned(about),
        )?;
    }
    for i in 0..content.capabilities.len() {
        let view = support::capability_view(&ctx, i);
        let about = format!(
            "Which clients support {}, with the evidence for each.",
            view.title
        );
        r.page(
            Page::Capability(i),
            "capability",
            "capability",
            &view,
            Cow::Owned(about),
        )?;
    }
    for i in 0..index.config.spec_versions.len() {
        let view = listing::spec_view(&ctx, i);
        let about = index.config.spec_versions[i].title.as_deref().map(summary);
        r.page(
            Page::Spec(i),
            "spec",
            "spec",
            &view,
            about.unwrap_or(description.clone()),
        )?;
    }
    for i in 0..content.guides.len() {
        let view = note::guide_view(&ctx, i);
        let about = summary(text(&content.guides[i].summary));
        r.page(Page::Guide(i), "guide", "guide", &view, about)?;
    }
    r.not_found()?;
    r.llms_txt()?;
    for (path, bytes) in &theme.static_files {
        r.put(path, bytes)?;
    }
    Ok(r.stats)
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
        .filter_map(|d| NaiveDate::parse_from_str(text(d).trim(), "%Y-%m-%d").ok())
        .max();
    Ok((newest, false))
}

/// Renders templates into the output and counts what it wrote.
struct Renderer<'r, 'a> {
    tera: &'r tera::Tera,
    ctx: &'r Ctx<'a>,
    site: SiteView<'a>,
    out: &'r mut dyn Output,
    stats: RenderStats,
}

impl<'a> Renderer<'_, 'a> {
    /// Writes `page` as HTML and Markdown from `<template>.html` and `<template>.md`, with
    /// the view under `key` beside `site` and `page`.
    fn page<V: Serialize>(
        &mut self,
        page: Page,
        template: &str,
        key: &'static str,
        view: &V,
        description: Cow<'a, str>,
    ) -> Result<()> {
        let meta = self.ctx.page(page, self.ctx.title(page), description);
        let mut context = tera::Context::new();
        context.insert("site", &self.site);
        context.insert("page", &meta);
        context.insert(key, view);
        let stem = output_stem(&meta.route);
        for ext in ["html", "md"] {
            let rendered = self.render(&format!("{template}.{ext}"), &context)?;
            self.put(&format!("{stem}.{ext}"), rendered.as_bytes())?;
        }
        self.stats.pages += 1;
        Ok(())
    }

    /// `/404.html`: served by hosts for any missing route, so it has no canonical URL.
    fn not_found(&mut self) -> Result<()> {
        let meta = PageView {
            title: Cow::Borrowed("Page not found"),
            description: Cow::Borrowed(""),
            route: "/404".to_string(),
            url: self.ctx.href_route("/404"),
            canonical: None,
            md_url: None,
            section: "",
            edit_url: None,
        };
        let mut context = tera::Context::new();
        context.insert("site", &self.site);
        context.insert("page", &meta);
        let html = self.render("404.html", &context)?;
        self.put("404.html", html.as_bytes())
    }

    /// `/llms.txt`: the site for language models, every page's Markdown rendition listed.
    fn llms_txt(&mut self) -> Result<()> {
        let mut context = tera::Context::new();
        context.insert("site", &self.site);
        context.insert("llms", &listing::llms_view(self.ctx));
        let text = self.render("llms.txt", &context)?;
        self.put("llms.txt", text.as_bytes())
    }

    fn render(&self, template: &str, context: &tera::Context) -> Result<String> {
        self.tera
            .render(template, context)
            .map_err(|e| theme::template_error(template, &e))
    }

    fn put(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        self.out.put(path, bytes)?;
        self.stats.files += 1;
        Ok(())
    }
}
