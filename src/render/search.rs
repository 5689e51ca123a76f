//! Search: a small inverted index of every note, client, capability, guide and spec revision,
//! written as JSON under `/search/` in chunks the browser fetches on demand.
//!
//! Layout (read by the theme's `site.js`):
//! - `search/meta.json`: `{"version", "docs", "chunk", "shards"}`, the number of pages, how
//!   many page records each `docs` file holds, and the term shards that exist.
//! - `search/terms/<shard>.json`: `{"term": [page, weight, page, weight, …], …}` for every
//!   term whose first two characters give `<shard>` (see [`shard_of`]), terms sorted.
//! - `search/docs/<n>.json`: `[[url, title, kind, summary], …]`, pages `n·chunk ..`.
//!
//! A query fetches `meta.json`, one shard per word and one docs file per eight results: a few
//! hundred kilobytes at 10,000 notes. Terms are lowercased runs of letters and digits, the
//! same split in Rust ([`terms`]) and JavaScript (`/[\p{L}\p{N}]+/gu`). A word in a title
//! weighs more than one in the text.

use super::ctx::Site;
use super::markdown;
use super::support::texts;
use super::views::Ctx;
use crate::error::{Error, Result};
use crate::index::routes::Page;
use crate::model::text;
use crate::text_file::Section;
use ahash::AHashMap;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;

/// The folder the index is written to, under the output root.
pub const SEARCH_DIR: &str = "search";

/// The route of the search page (`search.html`), where `?q=` lists every result, paged.
pub const SEARCH_PAGE: &str = "/search";

/// The search index's files: (path under the output root, contents), in a fixed order.
pub type SearchFiles = Vec<(String, Vec<u8>)>;

/// Page records per `docs/<n>.json` file.
const DOC_CHUNK: usize = 256;

/// Terms longer than this are not indexed (hashes, long identifiers).
const MAX_TERM_CHARS: usize = 40;

/// A word in a page's title counts this many times a word in its text.
const TITLE_WEIGHT: u32 = 8;

/// One searchable page, before indexing: its record in `docs/`, and where its words are.
struct Record {
    page: Page,
    url: String,
    title: String,
    /// What kind of page it is (`Research note`, `Client`, …), shown beside each result.
    kind: &'static str,
    summary: String,
    /// Words from front matter searched beside the title and body.
    fields: String,
    /// Whether the page's Markdown body is searched too.
    body: bool,
}

#[derive(Serialize)]
struct Meta {
    version: u32,
    docs: usize,
    chunk: usize,
    shards: Vec<String>,
}

/// Every term's postings: `[page, weight, page, weight, …]`, by term. Terms are hashed with
/// aHash: folding 10,000 pages' terms into the map runs on one core, and SipHash made it a
/// third of the index's time at 260,000 distinct words (BENCHMARKS.md, issue 33).
#[derive(Default)]
struct Postings {
    ids: AHashMap<String, usize>,
    lists: Vec<Vec<u32>>,
}

/// One shard's terms, sorted, with their postings: written as one JSON object.
struct Shard<'p> {
    name: Cow<'p, str>,
    terms: &'p [(Cow<'p, str>, &'p str, &'p [u32])],
}

impl Serialize for Shard<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_map(self.terms.iter().map(|&(_, term, list)| (term, list)))
    }
}

impl Postings {
    /// Adds a page's terms; a term is copied only the first time any page has it.
    fn add(&mut self, page: usize, terms: Vec<(Cow<'_, str>, u32)>) {
        for (term, weight) in terms {
            let id = match self.ids.get(term.as_ref()) {
                Some(&id) => id,
                None => {
                    self.lists.push(Vec::new());
                    self.ids.insert(term.into_owned(), self.lists.len() - 1);
                    self.lists.len() - 1
                }
            };
            self.lists[id].extend([page as u32, weight]);
        }
    }

    /// Every term with its shard and postings, sorted by shard, then term: each shard's
    /// terms in one run, in the order its JSON object lists them.
    fn by_shard(&self) -> Vec<(Cow<'_, str>, &str, &[u32])> {
        let mut terms: Vec<(Cow<'_, str>, &str, &[u32])> = (self.ids.iter())
            .map(|(term, &id)| (shard_of(term), term.as_str(), self.lists[id].as_slice()))
            .collect();
        terms.par_sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        terms
    }
}

/// The runs of `sorted` (from [`Postings::by_shard`]) that share a shard.
fn shards<'p>(sorted: &'p [(Cow<'p, str>, &'p str, &'p [u32])]) -> Vec<Shard<'p>> {
    sorted
        .chunk_by(|a, b| a.0 == b.0)
        .map(|terms| Shard {
            name: terms[0].0.clone(),
            terms,
        })
        .collect()
}

/// The index files, as (path under the output root, contents), in a fixed order; `None` when
/// `stop` says to give up (it is asked before each chunk of pages: `fieldnotes serve` gives
/// way to the next save).
///
/// Pages are read [`DOC_CHUNK`] at a time in parallel and their terms folded into the
/// postings while the next chunk is read, so no more than two chunks' words are held at once.
pub fn index_files(site: &Site<'_>, stop: &dyn Fn() -> bool) -> Result<Option<SearchFiles>> {
    let records = records(&site.ctx());
    let mut postings = Postings::default();
    // One chunk's terms are folded into the postings (on one core) while the next chunk's
    // are read (on the others).
    let mut chunks = records.chunks(DOC_CHUNK).enumerate();
    let mut ready = chunks
        .next()
        .map(|(n, chunk)| (n, chunk_terms(site, chunk)));
    while let Some((n, terms)) = ready.take() {
        if stop() {
            return Ok(None);
        }
        let next = chunks.next();
        let ((), read) = rayon::join(
            || {
                for (offset, terms) in terms.into_iter().enumerate() {
                    postings.add(n * DOC_CHUNK + offset, terms);
                }
            },
            || next.map(|(n, chunk)| (n, chunk_terms(site, chunk))),
        );
        ready = read;
    }
    let sorted = postings.by_shard();
    let shards = shards(&sorted);
    let mut files = Vec::with_capacity(shards.len() + records.len() / DOC_CHUNK + 2);
    let meta = Meta {
        version: 1,
        docs: records.len(),
        chunk: DOC_CHUNK,
        shards: shards.iter().map(|s| s.name.to_string()).collect(),
    };
    files.push((format!("{SEARCH_DIR}/meta.json"), json(&meta)?));
    let terms: Vec<Result<(String, Vec<u8>)>> = (shards.par_iter())
        .map(|shard| {
            Ok((
                format!("{SEARCH_DIR}/terms/{}.json", shard.name),
                json(shard)?,
            ))
        })
        .collect();
    for file in terms {
        files.push(file?);
    }
    for (n, chunk) in records.chunks(DOC_CHUNK).enumerate() {
        let docs: Vec<[&str; 4]> = chunk
            .iter()
            .map(|r| [r.url.as_str(), r.title.as_str(), r.kind, r.summary.as_str()])
            .collect();
        files.push((format!("{SEARCH_DIR}/docs/{n}.json"), json(&docs)?));
    }
    Ok(Some(files))
}

/// The terms of a chunk of pages ([`page_terms`]), read in parallel.
fn chunk_terms<'r>(site: &'r Site<'r>, chunk: &'r [Record]) -> Vec<Vec<(Cow<'r, str>, u32)>> {
    chunk
        .par_iter()
        .map(|r| page_terms(&site.ctx(), r))
        .collect()
}

/// A page's distinct terms with their weights, in no particular order: occurrences in its
/// fields and body, plus [`TITLE_WEIGHT`] per occurrence in the title. Terms borrow from
/// the page where they can: the postings copy each distinct term once, not once per page.
fn page_terms<'r>(ctx: &Ctx<'r>, record: &'r Record) -> Vec<(Cow<'r, str>, u32)> {
    let body = match record.body {
        true => ctx.markdown(record.page),
        false => "",
    };
    let title = terms(&record.title).map(|t| (t, TITLE_WEIGHT));
    let words = terms(&record.fields)
        .chain(without_link_targets(body).flat_map(terms))
        .map(|t| (t, 1));
    let mut weights: AHashMap<Cow<'_, str>, u32> = AHashMap::with_capacity(body.len() / 16);
    for (term, weight) in title.chain(words) {
        *weights.entry(term).or_default() += weight;
    }
    weights.into_iter().collect()
}

/// The Markdown of a body in pieces, without the targets of links and images
/// (`[text](target)`): their words are paths and hosts, not what the page says. Markup
/// characters need no stripping: [`terms`] splits on them.
fn without_link_targets(markdown: &str) -> impl Iterator<Item = &str> {
    let mut rest = markdown;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find("](") {
            Some(at) => {
                let piece = &rest[..at];
                let after = &rest[at + 2..];
                rest = after.find(')').map_or("", |end| &after[end + 1..]);
                Some(piece)
            }
            None => Some(std::mem::take(&mut rest)),
        }
    })
}

/// The terms of `text`: lowercased runs of letters and digits of two characters or more, at
/// most [`MAX_TERM_CHARS`] long.
fn terms(text: &str) -> impl Iterator<Item = Cow<'_, str>> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| match word.is_ascii() {
            true => (2..=MAX_TERM_CHARS).contains(&word.len()),
            false => (2..=MAX_TERM_CHARS).contains(&word.chars().count()),
        })
        .map(
            |word| match word.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
                true => Cow::Owned(word.to_lowercase()),
                false => Cow::Borrowed(word),
            },
        )
}

/// The shard a term lives in: its first two characters when they are ASCII letters or
/// digits, else `u` and their code points in hex (`u4e2d6587`), so file names stay plain.
/// `site.js` computes the same.
fn shard_of(term: &str) -> Cow<'_, str> {
    let head = term
        .char_indices()
        .nth(2)
        .map_or(term, |(at, _)| &term[..at]);
    if head.chars().all(|c| c.is_ascii_alphanumeric()) {
        Cow::Borrowed(head)
    } else {
        let mut key = String::from("u");
        for c in head.chars() {
            key.push_str(&format!("{:x}", c as u32));
        }
        Cow::Owned(key)
    }
}

fn json<V: Serialize + ?Sized>(value: &V) -> Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(value).map_err(|e| {
        Error::io(
            SEARCH_DIR,
            "build the search index",
            std::io::Error::other(e.to_string()),
        )
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Every page worth finding, in page order.
fn records(ctx: &Ctx<'_>) -> Vec<Record> {
    let record =
        |page: Page, kind: &'static str, summary: &str, fields: &[&str], body: bool| Record {
            page,
            url: ctx.href(page),
            // Shown as the result's title: plain text, a code span's backticks gone.
            title: markdown::plain_text(&ctx.title(page)),
            kind,
            // Shown as the result's excerpt: plain text, no Markdown markers.
            summary: markdown::plain_text(summary),
            fields: fields.join(" "),
            body,
        };
    let notes = ctx.count(Section::Research);
    let mut records: Vec<Record> = Vec::with_capacity(notes + 100);
    for (i, n) in (0..notes).map(|i| (i, ctx.note(i))) {
        let summary = text(&n.summary);
        records.push(record(
            Page::Note(i),
            "Research note",
            summary,
            &[summary],
            true,
        ));
    }
    for (i, c) in (0..ctx.count(Section::Clients)).map(|i| (i, ctx.client(i))) {
        let mut parts = vec![text(&c.vendor)];
        parts.extend(texts(&c.client_info_names));
        parts.extend(texts(&c.platforms));
        parts.extend(c.support.iter().map(|cell| text(&cell.notes)));
        let summary = format!("{} client", text(&c.vendor));
        records.push(record(
            Page::Client(i),
            "Client",
            summary.trim(),
            &parts,
            true,
        ));
    }
    for (i, c) in (0..ctx.count(Section::Capabilities)).map(|i| (i, ctx.capability(i))) {
        let mut parts = vec![text(&c.id)];
        parts.extend(texts(&c.aliases));
        let summary = match text(&c.introduced) {
            "" => format!("Group {}", text(&c.group)),
            since => format!("Group {}, since {since}", text(&c.group)),
        };
        records.push(record(
            Page::Capability(i),
            "Capability",
            &summary,
            &parts,
            true,
        ));
    }
    for (i, g) in (0..ctx.count(Section::Guides)).map(|i| (i, ctx.guide(i))) {
        let summary = text(&g.summary);
        records.push(record(Page::Guide(i), "Guide", summary, &[summary], true));
    }
    for (i, v) in ctx.config().spec_versions.iter().enumerate() {
        let title = v.title.as_deref().unwrap_or("");
        records.push(record(
            Page::Spec(i),
            "Spec revision",
            title,
            &[&v.id, title],
            false,
        ));
    }
    records
}

#[cfg(test)]
mod tests {
    use super::{shard_of, terms, without_link_targets};

    #[test]
    fn terms_are_lowercased_words_of_two_chars_or_more() {
        let found: Vec<_> =
            terms("Streamable HTTP, a SSE-only client; 2025-03-26 é Ünïcode").collect();
        assert_eq!(
            found,
            [
                "streamable",
                "http",
                "sse",
                "only",
                "client",
                "2025",
                "03",
                "26",
                "ünïcode"
            ]
        );
    }

    #[test]
    fn link_targets_are_not_searched() {
        let text = "See [the spec](https://modelcontextprotocol.io/x) and ![a](img.png) here.";
        let pieces: String = without_link_targets(text).collect();
        assert_eq!(pieces, "See [the spec and ![a here.");
    }

    #[test]
    fn shards_are_plain_file_names() {
        assert_eq!(shard_of("streamable"), "st");
        assert_eq!(shard_of("ünïcode"), "ufc6e");
        assert_eq!(shard_of("中文"), "u4e2d6587");
    }
}
