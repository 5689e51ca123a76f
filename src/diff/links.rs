//! Links to the pull request's preview (`--base-url`): the site's own routes
//! (`/clients/<id>`, …, written as `urls:` in `site.yaml` says), under the preview's address,
//! each id percent-encoded so that nothing in it can end a Markdown link.

use crate::config::UrlStyle;
use crate::error::{Error, Result};
use crate::index::routes::{page_href, route};
use crate::text_file::Section;

/// The preview's address and how its pages are linked.
#[derive(Debug, Clone)]
pub(crate) struct Preview {
    base: String,
    urls: UrlStyle,
}

impl Preview {
    /// `--base-url URL`: an http(s) address with no query, fragment, whitespace or
    /// character that would end a Markdown link.
    pub(crate) fn new(url: &str, urls: UrlStyle) -> Result<Preview> {
        let plain = |c: char| {
            c.is_ascii_graphic() && !matches!(c, '(' | ')' | '<' | '>' | '"' | '\\' | '`' | '|')
        };
        let scheme = url.starts_with("https://") || url.starts_with("http://");
        let host = url.split_once("://").map_or("", |(_, rest)| rest);
        if !scheme
            || host.is_empty()
            || host.starts_with('/')
            || !url.chars().all(plain)
            || url.contains(['?', '#'])
        {
            return Err(Error::Usage {
                message: format!(
                    "--base-url {}: not a plain http(s) address; give where the pull \
                     request's preview is served, such as `https://pr-12.preview.example.org`",
                    crate::terminal::escape(url)
                ),
            });
        }
        Ok(Preview {
            base: url.trim_end_matches('/').to_string(),
            urls,
        })
    }

    /// The page of the document `id` in `section`.
    pub(crate) fn page(&self, section: Section, id: &str) -> String {
        let href = page_href(&route(section.dir(), &encode(id)), self.urls);
        format!("{}{href}", self.base)
    }

    /// The panel of one support cell on the home page (`#cell-<client>--<capability>`).
    pub(crate) fn cell(&self, client: &str, capability: &str) -> String {
        format!(
            "{}{}#cell-{}--{}",
            self.base,
            page_href("/", self.urls),
            encode(client),
            encode(capability)
        )
    }
}

/// `id` with every byte but ASCII letters, digits and `-._~` percent-encoded.
fn encode(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_follow_the_sites_url_scheme() {
        let clean = Preview::new("https://pr-3.example.org/", UrlStyle::Clean).expect("url");
        assert_eq!(
            clean.page(Section::Clients, "cline"),
            "https://pr-3.example.org/clients/cline"
        );
        assert_eq!(
            clean.cell("cline", "transports.sse"),
            "https://pr-3.example.org/#cell-cline--transports.sse"
        );
        let dir = Preview::new("https://x.io/docs", UrlStyle::Directory).expect("url");
        assert_eq!(
            dir.page(Section::Research, "a)](javascript:x"),
            "https://x.io/docs/research/a%29%5D%28javascript%3Ax/"
        );
        for bad in [
            "ftp://x",
            "https://x.io/a b",
            "https://x.io/?q",
            "https://",
            "x.io",
            "https://x.io/(a)",
        ] {
            assert!(Preview::new(bad, UrlStyle::Clean).is_err(), "{bad}");
        }
    }
}
