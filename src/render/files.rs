//! The files beside the pages: `404.html`, the search page, `llms.txt`, the Atom feeds, `sitemap.xml` and
//! `robots.txt`, and the JSON data API. Each is made on its own thread; they come back in a
//! fixed order, so the output is the same whatever finishes first.

use super::{api, feeds, listing, sitemap, PageView, Pages};
use crate::error::Result;
use crate::index::routes::Page;
use crate::write::Shared;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// One file's path under the output root and its bytes.
type File = (String, Shared);

/// Makes one or more files.
type Maker<'m> = Box<dyn Fn() -> Result<Vec<File>> + Send + Sync + 'm>;

/// Every file beside the pages, in output order, and the records of `api/notes.json` (see
/// [`api::notes_json`], which takes `records`). `written`: the pages, for the sitemap.
pub(super) fn files(
    pages: &Pages<'_, '_>,
    written: &[Page],
    records: (&[api::NoteRecord], Option<&[u64]>),
) -> Result<(Vec<File>, Vec<api::NoteRecord>)> {
    let ctx = pages.ctx();
    let index = ctx.index;
    let made_records = Mutex::new(Vec::new());
    let all: Vec<usize> = (0..index.content.notes.len()).collect();
    let mut makers: Vec<Maker<'_>> = vec![
        Box::new(|| not_found(pages)),
        Box::new(|| search_page(pages)),
        Box::new(|| {
            let mut context = tera::Context::new();
            context.insert_value("site", pages.site());
            context.insert("llms", &listing::llms_view(ctx));
            one("llms.txt", pages.template("llms.txt", &context)?)
        }),
    ];
    let by_client = index.notes_by_client.iter().enumerate();
    let by_capability = index.notes_by_capability.iter().enumerate();
    let feeds = std::iter::once((Page::Home, all.as_slice()))
        .chain(by_client.map(|(i, n)| (Page::Client(i), n.as_slice())))
        .chain(by_capability.map(|(i, n)| (Page::Capability(i), n.as_slice())));
    for (page, notes) in feeds {
        makers.push(Box::new(move || {
            let mut context = tera::Context::new();
            context.insert_value("site", pages.site());
            context.insert("feed", &feeds::feed_view(ctx, page, notes));
            let xml = pages.template("feed.xml", &context)?;
            let route = feeds::feed_route(ctx, page).unwrap_or_default();
            one(route.trim_start_matches('/'), xml)
        }));
    }
    makers.push(Box::new(|| {
        let mut context = tera::Context::new();
        context.insert_value("site", pages.site());
        context.insert("sitemap", &sitemap::sitemap_view(ctx, written));
        let xml = pages.template("sitemap.xml", &context)?;
        let robots = pages.template("robots.txt", &context)?;
        Ok(vec![file("sitemap.xml", xml), file("robots.txt", robots)])
    }));
    makers.push(Box::new(|| {
        let (json, made) = api::notes_json(ctx, records.0, records.1)?;
        *made_records.lock().unwrap_or_else(|e| e.into_inner()) = made;
        Ok(vec![(api::NOTES_JSON.to_string(), Arc::new(json))])
    }));
    makers.push(Box::new(|| {
        json("api/clients.json", &api::clients_doc(ctx))
    }));
    makers.push(Box::new(|| json("api/matrix.json", &api::matrix_doc(ctx))));
    makers.push(Box::new(|| {
        Ok(api::SCHEMAS
            .iter()
            .map(|(name, schema)| (format!("api/{name}.schema.json"), Arc::new(schema.to_vec())))
            .collect())
    }));
    let made: Vec<Result<Vec<File>>> = makers.par_iter().map(|make| make()).collect();
    let mut files = Vec::new();
    for batch in made {
        files.extend(batch?);
    }
    drop(makers);
    let records = made_records.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok((files, records))
}

/// `/404.html`: served by hosts for any missing route, so it has no canonical URL, and links
/// the theme's files by absolute path.
fn not_found(pages: &Pages<'_, '_>) -> Result<Vec<File>> {
    let meta = utility_page(pages, "Page not found", "/404", pages.ctx().href_route("/"));
    let mut context = tera::Context::new();
    context.insert_value("site", pages.site());
    context.insert("page", &meta);
    one("404.html", pages.template("404.html", &context)?)
}

/// `/search`: every result of `?q=`, paged, listed by the theme's script (not indexed).
fn search_page(pages: &Pages<'_, '_>) -> Result<Vec<File>> {
    let route = super::search::SEARCH_PAGE;
    let urls = pages.ctx().index.config.urls;
    let assets = super::views::relative_root(route, urls);
    let mut meta = utility_page(pages, "Search", route, assets);
    meta.url = pages.ctx().href_page_route(route);
    let mut context = tera::Context::new();
    context.insert_value("site", pages.site());
    context.insert("page", &meta);
    let file = crate::index::routes::html_file(route, urls);
    one(&file, pages.template("search.html", &context)?)
}

/// The page view of a page that is no content's: no canonical URL, no Markdown rendition.
fn utility_page<'a>(
    pages: &Pages<'_, 'a>,
    title: &'static str,
    route: &str,
    assets: String,
) -> PageView<'a> {
    PageView {
        title: Cow::Borrowed(title),
        description: Cow::Borrowed(""),
        route: route.to_string(),
        url: pages.ctx().href_route(route),
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
