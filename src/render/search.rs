//! Search: a Pagefind index of every note, client, capability, guide and spec revision,
//! built in memory and written under `/pagefind/`; the browser loads it on first use, one
//! chunk at a time, so a query at 10,000 notes fetches a few hundred kilobytes.

use super::markdown::plain_text;
use super::support::texts;
use super::views::Ctx;
use crate::error::{Error, Result};
use crate::index::routes::Page;
use crate::model::text;
use std::collections::BTreeMap;

/// The folder the index is written to, under the output root.
pub const SEARCH_DIR: &str = "pagefind";

/// One searchable page: where it is, what it is called, the words it holds.
struct Record {
    url: String,
    title: String,
    /// What kind of page it is (`Research note`, `Client`, …), shown beside each result.
    kind: &'static str,
    content: String,
}

/// The index files, as (path under the output root, contents), in Pagefind's order.
pub fn index_files(ctx: &Ctx<'_>) -> Result<Vec<(String, Vec<u8>)>> {
    let records = records(ctx);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| search_error(&e))?;
    let files = runtime.block_on(async {
        let options = pagefind::options::PagefindServiceConfig::builder()
            .keep_index_url(true)
            .force_language("en".to_string())
            .build();
        let mut index = pagefind::api::PagefindIndex::new(Some(options))?;
        for r in records {
            let meta = BTreeMap::from([
                ("title".to_string(), r.title),
                ("kind".to_string(), r.kind.to_string()),
            ]);
            index
                .add_custom_record(r.url, r.content, "en".into(), Some(meta), None, None)
                .await?;
        }
        index.get_files().await
    });
    let files = files.map_err(|e| search_error(&*e))?;
    Ok(files
        .into_iter()
        .filter_map(|f| {
            let name = f.filename.to_string_lossy().replace('\\', "/");
            is_needed(&name).then(|| (format!("{SEARCH_DIR}/{name}"), f.contents))
        })
        .collect())
}

/// Pagefind also writes its own search interfaces; the theme has one, so only the index,
/// the search library and its WebAssembly are kept.
fn is_needed(name: &str) -> bool {
    ![
        "pagefind-ui",
        "pagefind-component-ui",
        "pagefind-modular-ui",
        "pagefind-highlight",
    ]
    .iter()
    .any(|ui| name.starts_with(ui))
}

fn search_error(e: &dyn std::fmt::Display) -> Error {
    Error::io(
        SEARCH_DIR,
        "build the search index",
        std::io::Error::other(e.to_string()),
    )
}

/// Every page worth finding, in page order.
fn records(ctx: &Ctx<'_>) -> Vec<Record> {
    let index = ctx.index;
    let content = &index.content;
    let mut records = Vec::new();
    let mut record = |page: Page, kind: &'static str, parts: &[&str], body: bool| {
        let mut words = parts.join(" ");
        if let Some(doc) = body.then(|| index.document(page)).flatten() {
            let markdown = index
                .files
                .get(doc.file)
                .and_then(|f| f.text.get(doc.body.range.clone()))
                .unwrap_or("");
            words.push(' ');
            plain_text(markdown, &mut words);
        }
        records.push(Record {
            url: ctx.href(page),
            title: ctx.title(page).into_owned(),
            kind,
            content: words,
        });
    };
    for (i, n) in content.notes.iter().enumerate() {
        let summary = text(&n.summary);
        record(Page::Note(i), "Research note", &[summary], true);
    }
    for (i, c) in content.clients.iter().enumerate() {
        let mut parts = vec![text(&c.vendor)];
        parts.extend(texts(&c.client_info_names));
        parts.extend(texts(&c.platforms));
        parts.extend(c.support.iter().map(|cell| text(&cell.notes)));
        record(Page::Client(i), "Client", &parts, true);
    }
    for (i, c) in content.capabilities.iter().enumerate() {
        let mut parts = vec![text(&c.id)];
        parts.extend(texts(&c.aliases));
        record(Page::Capability(i), "Capability", &parts, true);
    }
    for (i, g) in content.guides.iter().enumerate() {
        record(Page::Guide(i), "Guide", &[text(&g.summary)], true);
    }
    for (i, v) in index.config.spec_versions.iter().enumerate() {
        let title = v.title.as_deref().unwrap_or("");
        record(Page::Spec(i), "Spec revision", &[&v.id, title], false);
    }
    records
}
