//! `fieldnotes new`: write a new note, client or capability file from a template, with
//! today's date, and mark with `TODO` what the author must still fill in.

use crate::beneath::{Mode, Root};
use crate::config::SiteConfig;
use crate::error::{Error, Result};
use crate::text_file::Section;
use chrono::NaiveDate;
use std::path::{Path, PathBuf};

pub use crate::model::PLACEHOLDER;

/// What to create.
#[derive(Debug, Clone)]
pub enum NewFile {
    Note {
        id: String,
        clients: Vec<String>,
        capabilities: Vec<String>,
    },
    Client {
        id: String,
    },
    Capability {
        id: String,
    },
}

impl NewFile {
    fn id(&self) -> &str {
        match self {
            NewFile::Note { id, .. } | NewFile::Client { id } | NewFile::Capability { id } => id,
        }
    }

    fn section(&self) -> Section {
        match self {
            NewFile::Note { .. } => Section::Research,
            NewFile::Client { .. } => Section::Clients,
            NewFile::Capability { .. } => Section::Capabilities,
        }
    }

    /// The file's path relative to the site root.
    pub fn path(&self) -> PathBuf {
        Path::new(crate::load::CONTENT_DIR)
            .join(self.section().dir())
            .join(format!("{}.md", self.id()))
    }

    /// The file's text, for a site with settings `config`.
    pub fn text(&self, config: &SiteConfig, today: NaiveDate) -> String {
        match self {
            NewFile::Note {
                id,
                clients,
                capabilities,
            } => note(id, clients, capabilities, config, today),
            NewFile::Client { id } => client(id, config),
            NewFile::Capability { id } => capability(id, config),
        }
    }
}

/// Writes `file` into the site at `root`; never overwrites. Returns the path written.
pub fn create(
    root: &Path,
    file: &NewFile,
    config: &SiteConfig,
    today: NaiveDate,
) -> Result<PathBuf> {
    check_id(file, config)?;
    let relative = file.path();
    let path = root.join(&relative);
    // Through the write layer: a symlinked `content/research` is refused, not written into.
    let text = file.text(config, today);
    let written = Root::create(root)?.write(&relative, text.as_bytes(), Mode::New);
    written.map_err(|e| match e {
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
            Error::Usage {
                message: format!(
                    "{} exists already; fieldnotes new never overwrites a file: edit it, or \
                     choose another id",
                    path.display()
                ),
            }
        }
        e => e,
    })?;
    Ok(relative)
}

/// What a new note names that the site has no file for: one sentence each, with the fix (the
/// note is written all the same; lint reports each as FN203 or FN204 until it is resolved).
pub fn unknown_ids(root: &Path, file: &NewFile, config: &SiteConfig) -> Vec<String> {
    let NewFile::Note {
        clients,
        capabilities,
        ..
    } = file
    else {
        return Vec::new();
    };
    let words = &config.vocabulary;
    let missing = |section: Section, id: &String| {
        let path = Path::new(crate::load::CONTENT_DIR)
            .join(section.dir())
            .join(format!("{id}.md"));
        (!root.join(&path).is_file()).then_some(path)
    };
    let mut warnings = Vec::new();
    for id in clients {
        if let Some(path) = missing(Section::Clients, id) {
            warnings.push(format!(
                "the note names {} `{id}`, which has no file {}: lint reports FN203 until it \
                 has one (`fieldnotes new client {id}`) or the id is corrected",
                words.client,
                path.display()
            ));
        }
    }
    for id in capabilities {
        if let Some(path) = missing(Section::Capabilities, id) {
            warnings.push(format!(
                "the note names {} `{id}`, which has no file {}: unless it is an alias of \
                 one, lint reports FN204 until it has one (`fieldnotes new capability {id}`) or \
                 the id is corrected",
                words.capability,
                path.display()
            ));
        }
    }
    warnings
}

/// Refuses ids that would not lint: notes and clients are kebab-case, capabilities group.name.
fn check_id(file: &NewFile, config: &SiteConfig) -> Result<()> {
    let id = file.id();
    let kebab = |s: &str| {
        !s.is_empty()
            && !s.starts_with('-')
            && !s.ends_with('-')
            && !s.contains("--")
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    let ok = match file {
        NewFile::Capability { .. } => id.split_once('.').is_some_and(|(group, name)| {
            kebab(group)
                && !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric())
                && name.as_bytes()[0].is_ascii_lowercase()
        }),
        _ => kebab(id),
    };
    if ok {
        Ok(())
    } else {
        // The examples are in the site's own words: its first group, its word for a client.
        let group = config.capability_groups.first().map_or("group", |g| &g.id);
        let client = config
            .vocabulary
            .client
            .to_ascii_lowercase()
            .replace(' ', "-");
        let expected = match file {
            NewFile::Capability { .. } => format!("group.name, e.g. {group}.someName"),
            NewFile::Client { .. } => format!("kebab-case, e.g. my-{client}"),
            NewFile::Note { .. } => format!("kebab-case, e.g. a-{client}-does-one-thing"),
        };
        Err(Error::Usage {
            message: format!("`{id}` is not a valid id: write it as {expected}"),
        })
    }
}

fn yaml_list(items: &[String], placeholder: &str) -> String {
    if items.is_empty() {
        return format!("  - {placeholder}\n");
    }
    items
        .iter()
        .map(|i| format!("  - {}\n", scalar(i)))
        .collect()
}

/// `value` as one YAML scalar, whatever it holds: plain when it is an id-like word YAML reads
/// back as that same string (`cline`, `transports.sse`, `2025-11-25`,
/// `https://x.io/research/a`), else double-quoted with JSON's escapes (which YAML reads the
/// same), so a line break, `#`, `: ` or quote in a value from the command line or `site.yaml`
/// can never add a key or end the front matter.
fn scalar(value: &str) -> std::borrow::Cow<'_, str> {
    let word = value.starts_with(|c: char| c.is_ascii_alphabetic())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'/' | b':'))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "nan" | "inf"
        );
    let dated = value.len() == 10
        && value.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if word || dated {
        std::borrow::Cow::Borrowed(value)
    } else {
        std::borrow::Cow::Owned(serde_json::to_string(value).unwrap_or_else(|_| "\"\"".into()))
    }
}

fn note(
    id: &str,
    clients: &[String],
    capabilities: &[String],
    config: &SiteConfig,
    today: NaiveDate,
) -> String {
    let t = PLACEHOLDER;
    let canonical = scalar(&format!("{}/research/{id}", config.base_url)).into_owned();
    let kind = scalar(config.kinds.first().map_or(t, |k| k.id.as_str()));
    // The released revision, not an upcoming one.
    let revision = scalar(config.current_revision().map_or(t, |v| v.id.as_str()));
    format!(
        "---
id: {id}
title: \"{t}: the claim, as one sentence\"
kind: {kind}
summary: \"{t}: the finding in at most 300 characters\"
capabilities:
{capabilities}clients:
{clients}specVersions:
  - {revision}
sources:
  - url: https://github.com/{t}/{t}
    title: \"{t}: the file and what it shows\"
    commit: {t}
    path: {t}
    date: {today}
status: draft
lastVerified: {today}
related: []
canonical: {canonical}
last-updated: {today}
---

# {t}: the claim, as one sentence

{t}: what the sources show, in your own words. Link clients as `[name](/clients/ID.md)` and
capabilities as `[name](/capabilities/ID.md)`.

## Sources

- {t}
",
        capabilities = yaml_list(capabilities, t),
        clients = yaml_list(clients, t),
    )
}

fn client(id: &str, config: &SiteConfig) -> String {
    let t = PLACEHOLDER;
    let (client, capability) = (&config.vocabulary.client, &config.vocabulary.capability);
    format!(
        "---
id: {id}
title: \"{t}: the {client}'s name\"
vendor: \"{t}\"
homepage: https://{t}
repository: https://github.com/{t}/{t}
clientInfoNames:
  - \"{t}: the clientInfo.name it announces\"
platforms:
  - \"{t}\"
support: {{}}
---

{t}: what the {client} is, in a few sentences. Add support cells under `support:` as
{capability} id → {{status, notes, sources or research, lastVerified}}.
"
    )
}

fn capability(id: &str, config: &SiteConfig) -> String {
    let t = PLACEHOLDER;
    let group = id.split_once('.').map_or(id, |(g, _)| g);
    let words = &config.vocabulary;
    let (capability, revision) = (&words.capability, &words.revision);
    // The site's spec URL pattern at the current revision, else a placeholder to fill in.
    let current = config.current_revision().map(|v| v.id.as_str());
    let spec_url = match current.and_then(|v| words.spec_url_of(v)) {
        Some(url) => scalar(&url).into_owned(),
        None => format!("https://{t}"),
    };
    format!(
        "---
id: {id}
title: \"{t}: the {capability}'s name\"
group: {group}
specUrl: {spec_url}
introduced: {t}
aliases: []
---

{t}: what the {capability} is, and which {revision} brought it.
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 30).expect("date")
    }

    fn config() -> SiteConfig {
        let text = "title: T\nbaseUrl: https://x.io\nspecVersions: [{id: '2025-11-25'}]\n\
                    capabilityGroups: [{id: g, title: G}]\nkinds: [{id: finding}]\n";
        SiteConfig::parse(text, Path::new("site.yaml")).expect("valid config")
    }

    #[test]
    fn never_overwrites() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = NewFile::Client {
            id: "new-client".into(),
        };
        create(dir.path(), &file, &config(), day()).expect("first write");
        let again = create(dir.path(), &file, &config(), day());
        assert!(matches!(again, Err(Error::Usage { .. })));
    }

    #[test]
    fn refuses_bad_ids() {
        let dir = tempfile::tempdir().expect("temp dir");
        for file in [
            NewFile::Client {
                id: "Bad Id".into(),
            },
            NewFile::Capability { id: "nodot".into() },
            NewFile::Note {
                id: "../escape".into(),
                clients: vec![],
                capabilities: vec![],
            },
        ] {
            assert!(create(dir.path(), &file, &config(), day()).is_err());
        }
    }

    #[test]
    fn note_carries_today_and_the_given_ids() {
        let file = NewFile::Note {
            id: "a-note".into(),
            clients: vec!["cline".into()],
            capabilities: vec!["transports.sse".into()],
        };
        let text = file.text(&config(), day());
        assert!(text.contains("lastVerified: 2026-11-30"));
        assert!(text.contains("clients:\n  - cline\n"));
        assert!(text.contains("canonical: https://x.io/research/a-note"));
        assert!(text.contains("kind: finding") && text.contains("  - 2025-11-25\n"));
    }

    #[test]
    fn scaffolds_speak_the_site_words_and_default_to_the_current_revision() {
        let text = "title: T\nbaseUrl: https://x.io\nspecVersions: [{id: '1.0'}, {id: '2.0', \
                    status: upcoming}]\ncapabilityGroups: [{id: g, title: G}]\nkinds: [{id: k}]\n\
                    vocabulary: {capability: property, specUrl: 'https://spec.example/{revision}'}\n";
        let config = SiteConfig::parse(text, Path::new("site.yaml")).expect("valid config");
        let capability = NewFile::Capability { id: "g.one".into() }.text(&config, day());
        assert!(
            capability.contains("specUrl: https://spec.example/1.0\n"),
            "{capability}"
        );
        assert!(capability.contains("the property's name"), "{capability}");
        let note = NewFile::Note {
            id: "a-note".into(),
            clients: vec![],
            capabilities: vec![],
        };
        assert!(note
            .text(&config, day())
            .contains("specVersions:\n  - \"1.0\"\n"));
        let no_pattern = NewFile::Capability { id: "g.one".into() }.text(&self::config(), day());
        assert!(
            no_pattern.contains("specUrl: https://TODO\n"),
            "{no_pattern}"
        );
    }

    #[test]
    fn a_note_naming_an_unknown_id_is_warned_about() {
        let dir = tempfile::tempdir().expect("temp dir");
        create(
            dir.path(),
            &NewFile::Client { id: "known".into() },
            &config(),
            day(),
        )
        .expect("client");
        let note = NewFile::Note {
            id: "a-note".into(),
            clients: vec!["known".into(), "unknwon".into()],
            capabilities: vec!["g.missing".into()],
        };
        let warnings = unknown_ids(dir.path(), &note, &config());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("`unknwon`") && warnings[0].contains("FN203"));
        assert!(warnings[1].contains("`g.missing`") && warnings[1].contains("FN204"));
    }

    #[test]
    fn values_are_one_scalar_each() {
        for (value, written) in [
            ("cline", "cline"),
            ("transports.sse", "transports.sse"),
            ("2025-11-25", "2025-11-25"),
            ("true", "\"true\""),
            (
                "x\nlastVerified: 2000-01-01",
                "\"x\\nlastVerified: 2000-01-01\"",
            ),
            ("a #b", "\"a #b\""),
            ("---", "\"---\""),
            ("12", "\"12\""),
        ] {
            assert_eq!(scalar(value), written, "{value:?}");
        }
    }
}
