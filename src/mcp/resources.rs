//! Resources: every note, client, capability and guide as its `.md` rendition (the page
//! render writes beside the HTML one), named by the URL the site publishes it at
//! (`<baseUrl>/research/<id>.md`), with one URI template per kind.

use super::site::{base_url, pages, Snapshot};
use crate::index::SiteIndex;
use crate::text_file::Section;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};
use std::collections::BTreeMap;

/// The MIME type of every resource.
pub const MARKDOWN: &str = "text/markdown";

/// Every page, listed: from the opened site alone, or with each page's size once `rendered`
/// (the render's files) is at hand.
pub fn list(index: &SiteIndex, rendered: Option<&BTreeMap<String, Vec<u8>>>) -> Vec<Resource> {
    let words = &index.config.vocabulary;
    pages(index)
        .into_iter()
        .filter(|page| rendered.is_none_or(|files| files.contains_key(&page.path)))
        .map(|page| {
            let uri = format!("{}/{}", base_url(index), page.path);
            let name = format!("{}/{}", page.section.dir(), page.id);
            let mut resource = Resource::new(uri, name)
                .with_description(words.reword(kind(page.section)))
                .with_mime_type(MARKDOWN);
            if let Some(bytes) = rendered.and_then(|files| files.get(&page.path)) {
                resource = resource.with_size(bytes.len() as u64);
            }
            if !page.title.is_empty() {
                resource = resource.with_title(page.title);
            }
            resource
        })
        .collect()
}

/// One template per kind of page: `<baseUrl>/research/{id}.md`, … (observations' only when
/// the site has some, as their pages).
pub fn templates(index: &SiteIndex) -> Vec<ResourceTemplate> {
    let words = &index.config.vocabulary;
    Section::ALL
        .into_iter()
        .filter(|&s| s != Section::Observations || !index.content.observations.is_empty())
        .map(|section| {
            let dir = section.dir();
            ResourceTemplate::new(format!("{}/{dir}/{{id}}.md", base_url(index)), dir)
                .with_title(words.reword(kind(section)))
                .with_description(format!(
                    "A {} page as Markdown, by id",
                    words.reword(&kind(section).to_lowercase())
                ))
                .with_mime_type(MARKDOWN)
        })
        .collect()
}

/// The page at `uri`: its `.md` URL, or its canonical URL without the extension; else a
/// message saying what the URIs look like.
pub fn read(site: &Snapshot, uri: &str) -> Result<ResourceContents, String> {
    let base = site.base_url();
    let path = uri
        .strip_prefix(base)
        .and_then(|rest| rest.strip_prefix('/'))
        .map(|rest| rest.split(['#', '?']).next().unwrap_or(rest))
        .map(|rest| match rest.ends_with(".md") {
            true => rest.to_string(),
            false => format!("{rest}.md"),
        });
    let page = path.filter(|path| is_page(site, path));
    let Some(path) = page else {
        let pages = site.pages();
        let known = pages.iter().map(|p| p.path.as_str());
        let wanted = uri.rsplit_once(base).map_or(uri, |(_, rest)| rest);
        let wanted = wanted.trim_start_matches('/');
        let help = crate::lint::suggest::did_you_mean(wanted, known, || {
            "`resources/list` lists them".to_string()
        });
        return Err(format!(
            "no page at `{uri}`; pages are {base}/research/<id>.md, /clients/<id>.md, \
             /capabilities/<id>.md and /guides/<slug>.md; {help}"
        ));
    };
    let text = site.text(&path).unwrap_or_default().to_string();
    Ok(ResourceContents::TextResourceContents {
        uri: format!("{base}/{path}"),
        mime_type: Some(MARKDOWN.to_string()),
        text,
        meta: None,
    })
}

/// Whether `path` (`research/x.md`) is the `.md` of a note, client, capability or guide:
/// one of those folders, one file, rendered.
fn is_page(site: &Snapshot, path: &str) -> bool {
    let Some((dir, file)) = path.split_once('/') else {
        return false;
    };
    Section::from_dir(dir).is_some()
        && !file.contains('/')
        && file.ends_with(".md")
        && site.files.contains_key(path)
}

fn kind(section: Section) -> &'static str {
    match section {
        Section::Research => "Research note",
        Section::Clients => "Client",
        Section::Capabilities => "Capability",
        Section::Guides => "Guide",
        Section::Observations => "Observation",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Before the render is in, the opened site lists the same pages at the same URIs (only
    /// without sizes), so a client that lists resources first is not kept waiting.
    #[test]
    fn the_opened_site_lists_the_pages_the_render_makes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
        let today = chrono::NaiveDate::from_ymd_opt(2026, 12, 6).expect("day");
        let site = Snapshot::load(&root, today).expect("site");
        let uris = |list: &[Resource]| list.iter().map(|r| r.uri.clone()).collect::<Vec<_>>();
        let early = list(&site.index, None);
        let rendered = list(&site.index, Some(&site.files));
        assert!(!early.is_empty());
        assert_eq!(uris(&early), uris(&rendered));
        assert!(early.iter().all(|r| r.size.is_none()));
        assert!(rendered
            .iter()
            .all(|r| r.size.is_some_and(|bytes| bytes > 0)));
        let read = read(&site, &early[0].uri).expect("the first listed page reads");
        let ResourceContents::TextResourceContents { text, .. } = read else {
            panic!("a text page");
        };
        assert_eq!(Some(text.len() as u64), rendered[0].size);
    }
}
