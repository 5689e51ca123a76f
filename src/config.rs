//! `site.yaml`: the site's settings and vocabularies (spec revisions, capability groups, kinds).

mod base_url;
pub mod trust;
mod vocabulary;

pub use vocabulary::{capitalize, Vocabulary, WORDS};

use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of a site's settings, at the site root.
pub const CONFIG_FILE: &str = "site.yaml";

/// A site's settings, as `site.yaml` gives them.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SiteConfig {
    pub title: String,
    pub base_url: String,
    #[serde(default)]
    pub description: String,
    /// The site's repository, for "edit this page" links.
    #[serde(default)]
    pub repository: Option<String>,
    /// The branch "edit this page" links point at.
    #[serde(default = "default_branch")]
    pub branch: String,
    #[serde(default = "default_theme")]
    pub theme: String,
    /// Spec revisions, oldest first.
    pub spec_versions: Vec<SpecVersion>,
    /// Capability groups, in matrix order.
    pub capability_groups: Vec<CapabilityGroup>,
    pub kinds: Vec<Kind>,
    /// Why a cell can be unknown (`not-researched`, `docs-silent`, …); the first is what a
    /// cell with no `reason`, of a client with no `unknownReason`, is unknown for.
    #[serde(default)]
    pub unknown_reasons: Vec<UnknownReason>,
    #[serde(default)]
    pub lint: LintConfig,
    #[serde(default)]
    pub markdown: MarkdownConfig,
    #[serde(default)]
    pub limits: Limits,
    /// When a "last verified" date shows as aging or stale on pages.
    #[serde(default)]
    pub staleness: Staleness,
    /// How pages are written and linked: `clean` (`x.html`, linked as `x`) or `directory`
    /// (`x/index.html`, linked as `x/`).
    #[serde(default)]
    pub urls: UrlStyle,
    /// What the site calls its protocol, a client, a capability and a revision.
    #[serde(default)]
    pub vocabulary: Vocabulary,
    /// The site's own settings for its templates, as written (`extra` in every template).
    #[serde(default)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Where a revision stands: `current` is the released one pages and `new` default to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RevisionStatus {
    Draft,
    Upcoming,
    Current,
    Superseded,
}

impl RevisionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RevisionStatus::Draft => "draft",
            RevisionStatus::Upcoming => "upcoming",
            RevisionStatus::Current => "current",
            RevisionStatus::Superseded => "superseded",
        }
    }
}

/// How pages are written and linked (`site.yaml`'s `urls`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlStyle {
    /// `research/x.html`, linked as `/research/x`: hosts that serve `x.html` at `/x` (GitHub
    /// Pages, Netlify, Cloudflare Pages, Vercel with `cleanUrls`, `fieldnotes serve`).
    #[default]
    Clean,
    /// `research/x/index.html`, linked as `/research/x/`: any static server that serves a
    /// folder's `index.html`.
    Directory,
}

/// The `staleness` section of `site.yaml`: the badge a page shows beside a `lastVerified`
/// date. Both thresholds are in days; unset, `staleAfterDays` is lint's and `agingAfterDays`
/// half of it.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Staleness {
    #[serde(default)]
    pub aging_after_days: Option<u32>,
    #[serde(default)]
    pub stale_after_days: Option<u32>,
}

/// The `markdown` section of `site.yaml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarkdownConfig {
    /// Pass raw HTML in bodies through to pages. Off by default: bodies come from pull
    /// requests, and raw HTML is shown as text.
    #[serde(default)]
    pub unsafe_html: bool,
}

/// The `limits` section of `site.yaml`: caps that keep a hostile input from exhausting
/// memory or time. A file over a cap is a finding, not a crash.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Limits {
    /// Largest content file read, in bytes.
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Largest front matter block, in bytes.
    #[serde(default = "default_max_front_matter_bytes")]
    pub max_front_matter_bytes: usize,
    /// Most content files in a site.
    #[serde(default = "default_max_files")]
    pub max_files: usize,
    /// Most template instructions one page (one form of it) runs: each loop iteration costs a
    /// few, so a loop that runs away, printing or not, stops here with an error naming the
    /// template.
    #[serde(default = "default_max_render_steps")]
    pub max_render_steps: u64,
    /// Most bytes of text one page (one form of it) makes while it renders: what it writes
    /// and the strings its template builds.
    #[serde(default = "default_max_page_bytes")]
    pub max_page_bytes: u64,
    /// Largest fenced code block that is highlighted, in bytes; a larger one is shown as
    /// escaped plain text (highlighters take time and memory out of proportion on some).
    #[serde(default = "default_max_highlight_bytes")]
    pub max_highlight_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: default_max_file_bytes(),
            max_front_matter_bytes: default_max_front_matter_bytes(),
            max_files: default_max_files(),
            max_render_steps: default_max_render_steps(),
            max_page_bytes: default_max_page_bytes(),
            max_highlight_bytes: default_max_highlight_bytes(),
        }
    }
}

fn default_max_file_bytes() -> u64 {
    16 * 1024 * 1024
}

fn default_max_front_matter_bytes() -> usize {
    256 * 1024
}

fn default_max_files() -> usize {
    200_000
}

/// The bundled site's largest page runs under 100,000 (its build passes with a cap of 100,000,
/// fails with 30,000); a site of 10,000 notes lists some hundred times more. Lower it where
/// renders must stop sooner (a billion took 163 s on a debug build on a loaded machine).
fn default_max_render_steps() -> u64 {
    1_000_000_000
}

/// Eight times the largest content file a site may hold (`maxFileBytes`), as escaping can
/// make it several times longer.
fn default_max_page_bytes() -> u64 {
    128 * 1024 * 1024
}

fn default_max_highlight_bytes() -> usize {
    128 * 1024
}

/// One revision of the specification.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpecVersion {
    pub id: String,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    /// What changed in this revision, in a few sentences of the site's own (its page opens
    /// with them). Not in the data API.
    #[serde(default, skip_serializing)]
    pub summary: Option<String>,
    /// Where the summary comes from: the revision's changelog, pinned at a commit.
    #[serde(default, skip_serializing)]
    pub changelog: Option<String>,
    /// `draft`, `upcoming`, `current` or `superseded`; unset, derived from the current one
    /// (see [`SiteConfig::current_revision`]). Not in the data API.
    #[serde(default, skip_serializing)]
    pub status: Option<RevisionStatus>,
}

/// A group of capabilities: one band of rows in the matrix.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityGroup {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
}

/// A kind of research note.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
}

impl Kind {
    /// The title the kind goes by on pages and in hovers: its `title`, else its id.
    pub fn display_title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.id)
    }
}

/// Why a cell is unknown: one entry of `site.yaml`'s `unknownReasons`.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnknownReason {
    pub id: String,
    /// How a page says it ("Not researched yet").
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
}

impl UnknownReason {
    /// The title pages show: its `title`, else its id.
    pub fn display_title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.id)
    }
}

/// The `lint` section of `site.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LintConfig {
    /// A note whose `lastVerified` is older than this many days is stale.
    #[serde(default = "default_stale_after_days")]
    pub stale_after_days: u32,
    /// Severity overrides: rule code or name to `error`, `warning`, `info` or `off`.
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
}

impl Default for LintConfig {
    fn default() -> Self {
        LintConfig {
            stale_after_days: default_stale_after_days(),
            rules: BTreeMap::new(),
        }
    }
}

/// Whether `name` is one plain, visible folder name: not empty, not absolute, no separator,
/// no `..`, not hidden.
fn is_folder_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0', ':'])
}

fn default_theme() -> String {
    "default".to_string()
}

fn default_branch() -> String {
    "main".to_string()
}

fn default_stale_after_days() -> u32 {
    180
}

impl SiteConfig {
    /// Reads and checks `site.yaml` in `root`. A `site.yaml` that is a symlink is not read:
    /// it could lead to a secret (`.env`, `.git/config`) that an error would quote.
    pub fn load(root: &Path) -> Result<SiteConfig> {
        let path = root.join(CONFIG_FILE);
        if path.is_symlink() {
            return Err(Error::Config {
                path,
                line: 1,
                column: 1,
                message: "site.yaml is a symlink; fieldnotes reads the settings only from the \
                          site's own site.yaml file, never through a link (which could lead to \
                          a secret): put the file itself here"
                    .to_string(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::Usage {
                message: format!(
                    "{}: no such file; is {} a fieldnotes site? Run fieldnotes in the site's \
                     folder, or pass --root DIR",
                    path.display(),
                    root.display()
                ),
            },
            _ => Error::io(&path, "read", e),
        })?;
        let mut config = SiteConfig::parse(&text, &path)?;
        trust::apply(&mut config, &text);
        Ok(config)
    }

    /// Reads `site.yaml` in `root` as [`SiteConfig::load`] does, without holding it to the
    /// trusted settings: its text and what it says.
    pub fn load_untrusted(root: &Path) -> Result<(String, SiteConfig)> {
        let path = root.join(CONFIG_FILE);
        if path.is_symlink() {
            return SiteConfig::load(root).map(|c| (String::new(), c));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, "read", e))?;
        let config = SiteConfig::parse(&text, &path)?;
        Ok((text, config))
    }

    /// Parses `site.yaml` text; `path` is only used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<SiteConfig> {
        let mut config: SiteConfig = serde_yaml::from_str(text).map_err(|e| {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            Error::Config {
                path: path.to_path_buf(),
                line,
                column,
                message: format!(
                    "{e}; every key of site.yaml is described in the manual: {}",
                    crate::error::manual("content-format", Some("siteyaml"))
                ),
            }
        })?;
        config.base_url = config.base_url.trim_end_matches('/').to_string();
        base_url::check(&config.base_url, path, text)?;
        config.check(path, text)?;
        Ok(config)
    }

    fn check(&self, path: &Path, text: &str) -> Result<()> {
        let problem = if self.spec_versions.is_empty() {
            Some((
                "specVersions",
                "specVersions must list at least one revision",
            ))
        } else if self.capability_groups.is_empty() {
            Some((
                "capabilityGroups",
                "capabilityGroups must list at least one group",
            ))
        } else if self.kinds.is_empty() {
            Some(("kinds", "kinds must list at least one kind of note"))
        } else if !is_folder_name(&self.theme) {
            Some((
                "theme",
                "theme must name a folder of themes/ (like `default`), not a path: \
                     fieldnotes reads no theme outside the site's themes/ folder",
            ))
        } else {
            None
        };
        match problem {
            None => Ok(()),
            Some((key, message)) => {
                let line = text
                    .lines()
                    .position(|l| l.starts_with(&format!("{key}:")))
                    .map_or(1, |i| i + 1);
                Err(Error::Config {
                    path: path.to_path_buf(),
                    line,
                    column: 1,
                    message: message.to_string(),
                })
            }
        }
    }

    /// The (aging, stale) thresholds in days of the staleness badge.
    pub fn staleness_days(&self) -> (u32, u32) {
        let stale = self
            .staleness
            .stale_after_days
            .unwrap_or(self.lint.stale_after_days);
        let aging = self.staleness.aging_after_days.unwrap_or(stale / 2);
        (aging.min(stale), stale)
    }

    /// The released revision pages call current and `new` defaults to: the newest marked
    /// `current`, else the newest not marked `draft` or `upcoming`.
    pub fn current_revision(&self) -> Option<&SpecVersion> {
        let newest =
            |keep: &dyn Fn(&SpecVersion) -> bool| self.spec_versions.iter().rev().find(|v| keep(v));
        newest(&|v| v.status == Some(RevisionStatus::Current)).or_else(|| {
            newest(&|v| {
                !matches!(
                    v.status,
                    Some(RevisionStatus::Draft | RevisionStatus::Upcoming)
                )
            })
        })
    }

    /// Where revision `version` stands: its own `status`, else `current` for the current
    /// one, `superseded` before it and `upcoming` after it.
    pub fn revision_status(&self, version: &SpecVersion) -> RevisionStatus {
        if let Some(status) = version.status {
            return status;
        }
        let current = self
            .current_revision()
            .and_then(|c| self.spec_version_rank(&c.id));
        match (current, self.spec_version_rank(&version.id)) {
            (Some(c), Some(v)) if v == c => RevisionStatus::Current,
            (Some(c), Some(v)) if v < c => RevisionStatus::Superseded,
            _ => RevisionStatus::Upcoming,
        }
    }

    /// Position of a revision in the ordered list, for "out of order" checks.
    pub fn spec_version_rank(&self, id: &str) -> Option<usize> {
        self.spec_versions.iter().position(|v| v.id == id)
    }

    pub fn group(&self, id: &str) -> Option<&CapabilityGroup> {
        self.capability_groups.iter().find(|g| g.id == id)
    }

    pub fn unknown_reason(&self, id: &str) -> Option<&UnknownReason> {
        self.unknown_reasons.iter().find(|r| r.id == id)
    }

    pub fn kind(&self, id: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.id == id)
    }

    /// The canonical URL of a route (`/research/x` → `https://site/research/x`).
    pub fn url_for(&self, route: &str) -> String {
        format!("{}{}", self.base_url, route)
    }

    /// `baseUrl`'s path (`/docs` of `https://x.io/docs`, empty for `https://x.io/`), which
    /// every link on the site starts with.
    pub fn base_path(&self) -> &str {
        let base = self.base_url.as_str();
        let after_scheme = base.split_once("://").map_or(base, |(_, rest)| rest);
        after_scheme
            .find('/')
            .map_or("", |i| &after_scheme[i..])
            .trim_end_matches('/')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_reported_with_its_line() {
        let text = "title: T\nbaseUrl: https://x.io\nspecVersions: [{id: a}]\ncapabilityGroups: [{id: g, title: G}]\nkinds: [{id: k}]\nbogus: 1\n";
        match SiteConfig::parse(text, Path::new("site.yaml")) {
            Err(Error::Config { line, .. }) => assert_eq!(line, 6),
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn current_is_the_newest_released_revision() {
        let base = "title: T\nbaseUrl: https://x.io\ncapabilityGroups: [{id: g, title: G}]\n\
                    kinds: [{id: k}]\n";
        let text =
            format!("{base}specVersions: [{{id: a}}, {{id: b}}, {{id: c, status: upcoming}}]\n");
        let config = SiteConfig::parse(&text, Path::new("site.yaml")).expect("valid");
        assert_eq!(config.current_revision().map(|v| v.id.as_str()), Some("b"));
        let statuses: Vec<_> = (config.spec_versions.iter())
            .map(|v| config.revision_status(v).as_str())
            .collect();
        assert_eq!(statuses, ["superseded", "current", "upcoming"]);
        let text =
            format!("{base}specVersions: [{{id: a}}, {{id: b}}]\nextra: {{any: [1, {{x: y}}]}}\n");
        let config = SiteConfig::parse(&text, Path::new("site.yaml")).expect("valid");
        assert_eq!(config.current_revision().map(|v| v.id.as_str()), Some("b"));
        assert!(config.extra.contains_key("any"));
        let text = format!("{base}specVersions: [{{id: a, status: released}}]\n");
        assert!(SiteConfig::parse(&text, Path::new("site.yaml")).is_err());
        let text = format!(
            "{base}specVersions: [{{id: a}}]\nvocabulary: {{clients: editors, plural: x}}\n"
        );
        match SiteConfig::parse(&text, Path::new("site.yaml")) {
            Err(Error::Config { line, .. }) => assert_eq!(line, 6),
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn a_theme_is_a_folder_name_not_a_path() {
        let base = "title: T\nbaseUrl: https://x.io\nspecVersions: [{id: a}]\n\
                    capabilityGroups: [{id: g, title: G}]\nkinds: [{id: k}]\n";
        for bad in ["/etc", "../../x", "a/b", "..", ".git", "C:x", "a\\b", "''"] {
            let text = format!("{base}theme: {bad}\n");
            match SiteConfig::parse(&text, Path::new("site.yaml")) {
                Err(Error::Config { line, column, .. }) => assert_eq!((line, column), (6, 1)),
                other => panic!("{bad}: expected a config error, got {other:?}"),
            }
        }
        let text = format!("{base}theme: my-theme_2\n");
        assert!(SiteConfig::parse(&text, Path::new("site.yaml")).is_ok());
    }
}
