//! The `search` tool: the site's own search index (`search/*.json`, see
//! `src/render/search.rs`) queried as the theme's `site.js` queries it, so an agent finds
//! what a reader's search box finds, in the same order.

use super::site::Snapshot;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Words longer than this are not in the index (as `render::search`).
const MAX_TERM_CHARS: usize = 40;

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    pub title: String,
    /// `Research note`, `Client`, `Capability`, `Guide` or `Spec revision`.
    pub kind: String,
    pub summary: String,
    pub url: String,
    /// The page's Markdown rendition (what `resources/read` returns for it).
    pub markdown_url: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchAnswer {
    pub query: String,
    /// Pages that hold every word of the query (a word matches the terms it begins), best
    /// first.
    pub results: Vec<Hit>,
    /// How many pages matched, before `limit`.
    pub total: usize,
}

/// The pages matching `query`, best first, at most `limit`.
pub fn search(site: &Snapshot, query: &str, limit: usize) -> Result<SearchAnswer, String> {
    let words: BTreeSet<String> = terms(query).collect();
    if words.is_empty() {
        return Err(format!(
            "error: the query `{query}` has no word of 2 to {MAX_TERM_CHARS} letters or digits \
             to search for; try a client, a capability or a word from a note"
        ));
    }
    let meta = json(site, "meta.json").unwrap_or_default();
    let shards: BTreeSet<&str> = meta["shards"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut scores: Option<HashMap<u64, u64>> = None;
    for word in &words {
        let shard = shard_of(word);
        let table = match shards.contains(shard.as_str()) {
            true => json(site, &format!("terms/{shard}.json")).unwrap_or_default(),
            false => Value::Null,
        };
        let mut found: HashMap<u64, u64> = HashMap::new();
        for (term, postings) in table.as_object().into_iter().flatten() {
            if !term.starts_with(word.as_str()) {
                continue;
            }
            let exact = if term == word { 2 } else { 1 };
            let postings: Vec<u64> = postings
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .collect();
            for pair in postings.chunks_exact(2) {
                *found.entry(pair[0]).or_default() += pair[1] * exact;
            }
        }
        scores = Some(match scores {
            None => found,
            Some(mut scores) => {
                scores.retain(|page, score| match found.get(page) {
                    Some(more) => {
                        *score += more;
                        true
                    }
                    None => false,
                });
                scores
            }
        });
    }
    let mut ranked: Vec<(u64, u64)> = scores.unwrap_or_default().into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let chunk = meta["chunk"].as_u64().unwrap_or(1).max(1);
    let results = ranked
        .iter()
        .take(limit)
        .filter_map(|&(page, _)| hit(site, page, chunk))
        .collect();
    Ok(SearchAnswer {
        query: query.to_string(),
        results,
        total: ranked.len(),
    })
}

/// Page `page`'s record in `docs/<n>.json`: `[url, title, kind, summary]`.
fn hit(site: &Snapshot, page: u64, chunk: u64) -> Option<Hit> {
    let docs = json(site, &format!("docs/{}.json", page / chunk))?;
    let record = docs.get(usize::try_from(page % chunk).ok()?)?;
    let field = |i: usize| record.get(i).and_then(Value::as_str).unwrap_or_default();
    let url = absolute(site, field(0));
    Some(Hit {
        title: field(1).to_string(),
        kind: field(2).to_string(),
        summary: field(3).to_string(),
        markdown_url: markdown_url(&url),
        url,
    })
}

/// The index's URLs are root-relative: made absolute under the site's base URL (whose path
/// they already hold).
fn absolute(site: &Snapshot, url: &str) -> String {
    if url.contains("://") {
        return url.to_string();
    }
    let base = site.base_url();
    let origin = match base.find("://").map(|i| i + 3) {
        Some(start) => match base[start..].find('/') {
            Some(slash) => &base[..start + slash],
            None => base,
        },
        None => "",
    };
    format!("{origin}{url}")
}

/// `…/x.md` for `…/x` (`…/index.md` for the home page).
fn markdown_url(url: &str) -> String {
    let url = url.split('#').next().unwrap_or(url);
    match url.strip_suffix(".html") {
        Some(stem) => format!("{stem}.md"),
        None if url.ends_with('/') => format!("{url}index.md"),
        None => format!("{url}.md"),
    }
}

fn json(site: &Snapshot, name: &str) -> Option<Value> {
    let bytes = site
        .files
        .get(&format!("{}/{name}", crate::render::SEARCH_DIR))?;
    serde_json::from_slice(bytes).ok()
}

/// The query's words: lowercased runs of letters and digits, 2 to 40 long (the split of
/// `render::search` and `site.js`).
fn terms(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| (2..=MAX_TERM_CHARS).contains(&w.chars().count()))
        .map(str::to_lowercase)
}

/// The terms file of a word: its first two characters, or `u` and their code points in hex.
fn shard_of(term: &str) -> String {
    let head: Vec<char> = term.chars().take(2).collect();
    if head.iter().all(|c| c.is_ascii_alphanumeric()) {
        head.into_iter().collect()
    } else {
        head.iter().fold(String::from("u"), |mut key, c| {
            key.push_str(&format!("{:x}", *c as u32));
            key
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_urls_follow_the_page_url() {
        assert_eq!(
            markdown_url("https://x.io/research/a"),
            "https://x.io/research/a.md"
        );
        assert_eq!(markdown_url("https://x.io/"), "https://x.io/index.md");
        assert_eq!(markdown_url("https://x.io/a.html#b"), "https://x.io/a.md");
    }

    #[test]
    fn query_words_split_as_the_index_does() {
        let words: Vec<String> = terms("Cline, SSE-first a Ünïcode").collect();
        assert_eq!(words, ["cline", "sse", "first", "ünïcode"]);
        assert_eq!(shard_of("cline"), "cl");
        assert_eq!(shard_of("ünïcode"), "ufc6e");
    }
}
