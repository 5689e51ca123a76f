//! `site.yaml`'s `vocabulary`: what the site calls its protocol, a client, a capability and a
//! revision, and where a revision's specification is, so that pages, badges, schemas,
//! scaffolds and messages speak the site's words rather than those of one protocol.

use serde::{Deserialize, Serialize};

/// The site's words. Unset, they are neutral (`client`, `capability`, `revision`, no protocol
/// named); the bundled site sets MCP's.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Vocabulary {
    /// The protocol or standard the site is about (`MCP`, `LSP`); empty: none is named.
    #[serde(default)]
    pub protocol: String,
    #[serde(default = "client")]
    pub client: String,
    #[serde(default = "clients")]
    pub clients: String,
    #[serde(default = "capability")]
    pub capability: String,
    #[serde(default = "capabilities")]
    pub capabilities: String,
    #[serde(default = "revision")]
    pub revision: String,
    #[serde(default = "revisions")]
    pub revisions: String,
    /// The URL of a revision's specification, `{revision}` standing for its id
    /// (`https://modelcontextprotocol.io/specification/{revision}`): what `fieldnotes new
    /// capability` writes as `specUrl`.
    #[serde(default)]
    pub spec_url: Option<String>,
}

fn client() -> String {
    "client".into()
}
fn clients() -> String {
    "clients".into()
}
fn capability() -> String {
    "capability".into()
}
fn capabilities() -> String {
    "capabilities".into()
}
fn revision() -> String {
    "revision".into()
}
fn revisions() -> String {
    "revisions".into()
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary {
            protocol: String::new(),
            client: client(),
            clients: clients(),
            capability: capability(),
            capabilities: capabilities(),
            revision: revision(),
            revisions: revisions(),
            spec_url: None,
        }
    }
}

/// The words [`Vocabulary::reword`] replaces, as written in fieldnotes' own texts (a site
/// that names them otherwise shows none of them in its theme's text).
pub const WORDS: [&str; 6] = [
    "client",
    "clients",
    "capability",
    "capabilities",
    "revision",
    "revisions",
];

impl Vocabulary {
    /// A client with the protocol named before it (`MCP client`), or the word alone.
    pub fn protocol_client(&self) -> String {
        match self.protocol.as_str() {
            "" => self.client.clone(),
            protocol => format!("{protocol} {}", self.client),
        }
    }

    /// The spec URL of `revision`, from `specUrl`'s pattern.
    pub fn spec_url_of(&self, revision: &str) -> Option<String> {
        (self.spec_url.as_ref()).map(|pattern| pattern.replace("{revision}", revision))
    }

    fn word(&self, word: &str) -> Option<&str> {
        Some(match word {
            "client" => &self.client,
            "clients" => &self.clients,
            "capability" => &self.capability,
            "capabilities" => &self.capabilities,
            "revision" => &self.revision,
            "revisions" => &self.revisions,
            _ => return None,
        })
    }

    /// `text` (fieldnotes' own prose, written in MCP's words) in the site's words: `MCP` and
    /// `the Model Context Protocol` become the protocol (`MCP ` is dropped where none is
    /// named), and the words client, capability and revision (singular or plural, lower case
    /// or capitalized) the site's. Identity for the bundled site's vocabulary.
    pub fn reword(&self, text: &str) -> String {
        let protocol = |spaced: bool| match (self.protocol.as_str(), spaced) {
            ("", true) => String::new(),
            ("", false) => "the protocol".to_string(),
            (p, true) => format!("{p} "),
            (p, false) => p.to_string(),
        };
        let text = text
            .replace("the Model Context Protocol", &protocol(false))
            .replace("Model Context Protocol", &protocol(false))
            .replace("MCP ", &protocol(true))
            .replace("MCP", &protocol(false));
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic()) {
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len());
            let (word, after) = rest.split_at(end);
            // A path (`content/clients/`) is a name, not prose.
            let in_path = out.ends_with('/') || after.starts_with('/');
            let reworded = match in_path {
                true => word.to_string(),
                false => self.reword_one(word),
            };
            if reworded != word && reworded.starts_with(['a', 'e', 'i', 'o', 'u']) {
                article_before_vowel(&mut out);
            }
            out.push_str(&reworded);
            rest = after;
        }
        out.push_str(rest);
        out
    }

    fn reword_one(&self, word: &str) -> String {
        let lower = word.to_ascii_lowercase();
        if !WORDS.contains(&lower.as_str()) {
            return word.to_string();
        }
        let Some(site) = self.word(&lower) else {
            return word.to_string();
        };
        if word == lower {
            site.to_string()
        } else if word[1..] == lower[1..] {
            capitalize(site)
        } else {
            word.to_string()
        }
    }

    /// Markdown in the site's words ([`Vocabulary::reword`]), code spans and fenced blocks
    /// left as written (they hold field names and examples of the format).
    pub fn reword_markdown(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut fenced = false;
        for line in text.split_inclusive('\n') {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                out.push_str(line);
            } else if fenced {
                out.push_str(line);
            } else {
                for (i, part) in line.split('`').enumerate() {
                    if i > 0 {
                        out.push('`');
                    }
                    if i % 2 == 0 {
                        out.push_str(&self.reword(part));
                    } else {
                        out.push_str(part);
                    }
                }
            }
        }
        out
    }
}

/// `a ` or `A ` at the end of `out` (a word of its own) becomes `an `, `An `: the word after
/// it now starts with a vowel.
fn article_before_vowel(out: &mut String) {
    for article in ["a ", "A "] {
        if let Some(before) = out.strip_suffix(article) {
            if before.is_empty() || before.ends_with([' ', '\n', '(', '`']) {
                out.insert(out.len() - 1, 'n');
                return;
            }
        }
    }
}

/// `word` with its first letter in upper case.
pub fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editors() -> Vocabulary {
        Vocabulary {
            protocol: "EditorConfig".into(),
            client: "editor".into(),
            clients: "editors".into(),
            capability: "property".into(),
            capabilities: "properties".into(),
            revision: "version".into(),
            revisions: "versions".into(),
            spec_url: Some("https://spec.example/{revision}".into()),
        }
    }

    #[test]
    fn rewords_prose_and_keeps_code() {
        let v = editors();
        assert_eq!(
            v.reword("Every MCP client of the site, by Capability"),
            "Every EditorConfig editor of the site, by Property"
        );
        assert_eq!(
            v.reword_markdown("a client's `clients` list\n```yaml\nclients:\n```\nrevisions"),
            "an editor's `clients` list\n```yaml\nclients:\n```\nversions"
        );
        assert_eq!(
            v.reword("clientInfo and subclients"),
            "clientInfo and subclients"
        );
        assert_eq!(
            v.reword("A client in content/clients/, a capability"),
            "An editor in content/clients/, a property"
        );
        assert_eq!(
            v.spec_url_of("0.16").as_deref(),
            Some("https://spec.example/0.16")
        );
    }

    #[test]
    fn the_neutral_vocabulary_names_no_protocol() {
        let v = Vocabulary::default();
        assert_eq!(
            v.reword("the MCP client speaks MCP"),
            "the client speaks the protocol"
        );
        assert_eq!(v.protocol_client(), "client");
    }

    #[test]
    fn the_bundled_words_change_nothing() {
        let v = Vocabulary {
            protocol: "MCP".into(),
            ..Vocabulary::default()
        };
        let text = "Every MCP client of the site; Clients, capabilities, revisions.";
        assert_eq!(v.reword(text), text);
    }
}
