//! The files beside the pages: `404.html`, the search page, `llms.txt`, the Atom feeds,
//! `sitemap.xml` and `robots.txt`, the data API (JSON and `api/matrix.csv`) and the SVG
//! badges. Each is made on its own thread; they come back in a fixed order, so the output is
//! the same whatever finishes first.

use super::inputs::Inputs;
use super::memo::{FileKey, Kept};
use super::{api, badges, feeds, listing, matrix_csv, sitemap, Ctx, PageView, Pages};
use crate::error::Result;
use crate::index::routes::Page;
use crate::render::output::Shared;
use crate::text_file::Section;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// One file's path under the output root and its bytes.
type File = (String, Shared);

/// Makes one or more files, reading the site through the context it is given.
type Maker<'m> = Box<dyn Fn(&Ctx<'m>) -> Result<Vec<File>> + Send + Sync + 'm>;

/// The maker of every file beside the pages, in output order. The maker of `api/notes.json`
/// reuses `records` (see [`api::notes_json`]) and leaves the records it made in `made`.
pub(super) fn makers<'m>(
    pages: &'m Pages<'m, '_>,
    records: Option<(&'m [Kept<Shared>], &'m dyn Inputs)>,
    made: &'m Mutex<Option<Vec<Kept<Shared>>>>,
) -> Vec<(FileKey, Maker<'m>)> {
    let content = &pages.index.content;
    let mut makers: Vec<(FileKey, Maker<'m>)> = vec![
        (FileKey::NotFound, Box::new(|ctx| not_found(pages, ctx))),
        (FileKey::Search, Box::new(|ctx| search_page(pages, ctx))),
        (
            FileKey::Disagreements,
            Box::new(|ctx| disagreements_page(pages, ctx)),
        ),
        (
            FileKey::Llms,
            Box::new(|ctx| {
                let mut context = pages.context(ctx);
                context.insert("llms", &listing::llms_view(ctx));
                one("llms.txt", pages.template(ctx, "llms.txt", &context)?)
            }),
        ),
    ];
    let feeds = std::iter::once(Page::Home)
        .chain((0..content.clients.len()).map(Page::Client))
        .chain((0..content.capabilities.len()).map(Page::Capability));
    for page in feeds {
        let feed: Maker<'m> = Box::new(move |ctx| {
            let notes: Vec<usize> = match page {
                Page::Home => (0..ctx.count(Section::Research)).collect(),
                _ => ctx.notes_of(page).to_vec(),
            };
            let mut context = pages.context(ctx);
            context.insert("feed", &feeds::feed_view(ctx, page, &notes));
            let xml = pages.template(ctx, "feed.xml", &context)?;
            let route = feeds::feed_route(ctx, page).unwrap_or_default();
            one(route.trim_start_matches('/'), xml)
        });
        makers.push((FileKey::Feed(page), feed));
    }
    makers.push((
        FileKey::Sitemap,
        Box::new(|ctx| {
            let mut context = pages.context(ctx);
            context.insert("sitemap", &sitemap::sitemap_view(ctx));
            let xml = pages.template(ctx, "sitemap.xml", &context)?;
            let robots = pages.template(ctx, "robots.txt", &context)?;
            Ok(vec![file("sitemap.xml", xml), file("robots.txt", robots)])
        }),
    ));
    makers.push((
        FileKey::Notes,
        Box::new(move |ctx| {
            let (json, records) = api::notes_json(ctx, records)?;
            *made.lock().unwrap_or_else(|e| e.into_inner()) = Some(records);
            Ok(vec![(api::NOTES_JSON.to_string(), Arc::new(json))])
        }),
    ));
    makers.push((
        FileKey::Clients,
        Box::new(|ctx| json("api/clients.json", &api::clients_doc(ctx))),
    ));
    makers.push((
        FileKey::Matrix,
        Box::new(|ctx| json("api/matrix.json", &api::matrix_doc(ctx))),
    ));
    makers.push((
        FileKey::MatrixCsv,
        Box::new(|ctx| one(matrix_csv::PATH, matrix_csv::matrix_csv(ctx))),
    ));
    makers.push((
        FileKey::Badges,
        Box::new(|ctx| {
            let badges = badges::badges(ctx);
            Ok(badges
                .into_iter()
                .map(|(path, svg)| file(&path, svg))
                .collect())
        }),
    ));
    makers.push((
        FileKey::Schemas,
        Box::new(|ctx| {
            let vocabulary = &ctx.config().vocabulary;
            Ok(api::SCHEMAS
                .iter()
                .map(|(name, schema)| {
                    let schema = api::in_site_words(schema, vocabulary);
                    (format!("api/{name}.schema.json"), Arc::new(schema))
                })
                .collect())
        }),
    ));
    makers
}

/// `/404.html`: served by hosts for any missing route, so it has no canonical URL, and links
/// the theme's files by absolute path.
fn not_found(pages: &Pages<'_, '_>, ctx: &Ctx<'_>) -> Result<Vec<File>> {
    let meta = utility_page(ctx, "Page not found", "/404", ctx.href_route("/"));
    let mut context = pages.context(ctx);
    context.insert("page", &meta);
    one("404.html", pages.template(ctx, "404.html", &context)?)
}

/// `/search`: every result of `?q=`, paged, listed by the theme's script (not indexed).
fn search_page(pages: &Pages<'_, '_>, ctx: &Ctx<'_>) -> Result<Vec<File>> {
    let route = super::search::SEARCH_PAGE;
    let urls = ctx.config().urls;
    let assets = super::views::relative_root(route, urls);
    let mut meta = utility_page(ctx, "Search", route, assets);
    meta.url = ctx.href_page_route(route);
    let mut context = pages.context(ctx);
    context.insert("page", &meta);
    let file = crate::index::routes::html_file(route, urls);
    one(&file, pages.template(ctx, "search.html", &context)?)
}

/// `/disagreements`: the self-reports stronger evidence contradicts, each with both.
fn disagreements_page(pages: &Pages<'_, '_>, ctx: &Ctx<'_>) -> Result<Vec<File>> {
    let route = super::disagreements::ROUTE;
    let urls = ctx.config().urls;
    let assets = super::views::relative_root(route, urls);
    let mut meta = utility_page(ctx, "Self-reports against the evidence", route, assets);
    meta.url = ctx.href_page_route(route);
    meta.canonical = Some(format!(
        "{}{route}",
        ctx.config().base_url.trim_end_matches('/')
    ));
    let mut context = pages.context(ctx);
    context.insert("page", &meta);
    context.insert(
        "disagreements",
        &super::disagreements::disagreements_view(ctx),
    );
    let file = crate::index::routes::html_file(route, urls);
    one(&file, pages.template(ctx, "disagreements.html", &context)?)
}

/// The page view of a page that is no content's: no canonical URL, no Markdown rendition.
fn utility_page<'a>(
    ctx: &Ctx<'_>,
    title: &'static str,
    route: &str,
    assets: String,
) -> PageView<'a> {
    PageView {
        title: Cow::Borrowed(title),
        description: Cow::Borrowed(""),
        route: route.to_string(),
        url: ctx.href_route(route),
        canonical: None,
        md_url: None,
        section: "",
        edit_url: None,
        feed: None,
        og_type: "website",
        assets,
    }
}

fn file(path: &str, text: String) -> File {
    (path.to_string(), Arc::new(text.into_bytes()))
}

fn one(path: &str, text: String) -> Result<Vec<File>> {
    Ok(vec![file(path, text)])
}

/// `value` as a compact JSON file.
fn json<V: Serialize>(path: &str, value: &V) -> Result<Vec<File>> {
    let mut bytes = api::compact(path, value)?;
    bytes.push(b'\n');
    Ok(vec![(path.to_string(), Arc::new(bytes))])
}
