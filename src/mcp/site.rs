//! The site as the MCP server answers from it: the index, every page rendered in memory, and
//! the data API (`api/*.json`) read back, swapped whole when a file changes.
//!
//! Answers come from what the site publishes (the `.md` pages, the data API, the search
//! index), so an agent reads the same facts, in the same words, as a person on the site.

use crate::config::Vocabulary;
use crate::error::{Error, Result};
use crate::index::SiteIndex;
use crate::model::doc_id;
use crate::render::output::MemoryOutput;
use crate::text_file::Section;
use chrono::NaiveDate;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::thread::JoinHandle;

/// One build of the site, held in memory.
pub struct Snapshot {
    /// The opened site (shared with what answers before the render is in).
    pub index: Arc<SiteIndex>,
    /// Every rendered file by output path (`research/x.md`, `api/matrix.json`, `search/…`).
    pub files: BTreeMap<String, Vec<u8>>,
    /// `api/matrix.json`: capabilities, clients and every support cell with its evidence.
    pub matrix: Value,
    /// `api/notes.json`'s `notes`, by id.
    pub notes: BTreeMap<String, Value>,
    /// `api/clients.json`'s `clients`.
    pub clients: Vec<Value>,
    /// The day ages count to.
    pub today: NaiveDate,
}

impl Snapshot {
    /// Opens, indexes and renders the site in `root` in memory.
    pub fn load(root: &Path, today: NaiveDate) -> Result<Snapshot> {
        Snapshot::render(Arc::new(crate::open(root)?), today)
    }

    /// Renders an opened site in memory.
    pub fn render(index: Arc<SiteIndex>, today: NaiveDate) -> Result<Snapshot> {
        let mut out = MemoryOutput::default();
        crate::render::render(&index, None, &mut out)?;
        let files = out.files;
        let api = |name: &str| -> Result<Value> {
            let path = format!("api/{name}.json");
            let bytes = files.get(&path).ok_or_else(|| missing(&path))?;
            serde_json::from_slice(bytes)
                .map_err(|e| Error::io(path.clone(), "read", std::io::Error::other(e.to_string())))
        };
        let matrix = api("matrix")?;
        let notes = match api("notes")?.get_mut("notes").map(Value::take) {
            Some(Value::Array(notes)) => notes
                .into_iter()
                .filter_map(|n| Some((n.get("id")?.as_str()?.to_string(), n)))
                .collect(),
            _ => BTreeMap::new(),
        };
        let clients = match api("clients")?.get_mut("clients").map(Value::take) {
            Some(Value::Array(clients)) => clients,
            _ => Vec::new(),
        };
        Ok(Snapshot {
            index,
            files,
            matrix,
            notes,
            clients,
            today,
        })
    }

    /// The site's base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        base_url(&self.index)
    }

    /// A rendered file as text.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.files
            .get(path)
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The client `name` stands for: its id, its title or a `clientInfoNames` entry, in any
    /// case; else a lint-style message with the closest id.
    pub fn client(&self, name: &str) -> std::result::Result<usize, String> {
        let content = &self.index.content;
        let wanted = name.trim().to_lowercase();
        let found = content.clients.iter().position(|c| {
            let names = [doc_id(&c.id, &c.doc), crate::model::text(&c.title)];
            names
                .into_iter()
                .chain(c.client_info_names.iter().map(|n| n.value.as_str()))
                .any(|n| !n.is_empty() && n.to_lowercase() == wanted)
        });
        found.ok_or_else(|| {
            let ids = content.clients.iter().map(|c| doc_id(&c.id, &c.doc));
            unknown("client", name, ids, "the `clients` tool lists them")
        })
    }

    /// The capability `name` stands for: its id or one of its aliases (exact, then in any
    /// case), or its title in any case; else a lint-style message with the closest id.
    pub fn capability(&self, name: &str) -> std::result::Result<usize, String> {
        let content = &self.index.content;
        let name = name.trim();
        if let Some((i, _)) = self.index.ids.capability(name) {
            return Ok(i);
        }
        let wanted = name.to_lowercase();
        let found = content.capabilities.iter().position(|c| {
            let names = [doc_id(&c.id, &c.doc), crate::model::text(&c.title)];
            names
                .into_iter()
                .chain(c.aliases.iter().map(|a| a.value.as_str()))
                .any(|n| !n.is_empty() && n.to_lowercase() == wanted)
        });
        found.ok_or_else(|| {
            let ids = content.capabilities.iter().map(|c| doc_id(&c.id, &c.doc));
            unknown(
                "capability",
                name,
                ids,
                "the `capabilities` tool lists them",
            )
        })
    }

    /// The note with id `id`; else a lint-style message with the closest id.
    pub fn note(&self, id: &str) -> std::result::Result<usize, String> {
        let id = id.trim();
        self.index.ids.note(id).ok_or_else(|| {
            let ids = self
                .index
                .content
                .notes
                .iter()
                .map(|n| doc_id(&n.id, &n.doc));
            unknown("note", id, ids, "the `search` tool finds notes")
        })
    }

    pub fn client_id(&self, i: usize) -> &str {
        let c = &self.index.content.clients[i];
        doc_id(&c.id, &c.doc)
    }

    pub fn capability_id(&self, i: usize) -> &str {
        let c = &self.index.content.capabilities[i];
        doc_id(&c.id, &c.doc)
    }

    pub fn note_id(&self, i: usize) -> &str {
        let n = &self.index.content.notes[i];
        doc_id(&n.id, &n.doc)
    }

    /// Days from `date` (YYYY-MM-DD) to today; `None` when it is not a date.
    pub fn age_days(&self, date: Option<&str>) -> Option<i64> {
        let date = NaiveDate::parse_from_str(date?, "%Y-%m-%d").ok()?;
        Some((self.today - date).num_days())
    }

    /// Every page an agent may read as a resource that the render made (see [`pages`]).
    pub fn pages(&self) -> Vec<Page<'_>> {
        let mut pages = pages(&self.index);
        pages.retain(|page| self.files.contains_key(&page.path));
        pages
    }
}

/// The site's base URL, without a trailing `/`.
pub fn base_url(index: &SiteIndex) -> &str {
    index.config.base_url.trim_end_matches('/')
}

/// Every page an agent may read as a resource: (section, id, title, output path of its
/// `.md` rendition), for notes, clients, capabilities and guides, in section order. Known
/// from the opened site alone, before the render.
pub fn pages(index: &SiteIndex) -> Vec<Page<'_>> {
    let content = &index.content;
    let notes = (content.notes.iter())
        .map(|n| (Section::Research, doc_id(&n.id, &n.doc), n.display_title()));
    let clients = (content.clients.iter())
        .map(|c| (Section::Clients, doc_id(&c.id, &c.doc), c.display_title()));
    let capabilities = (content.capabilities.iter()).map(|c| {
        (
            Section::Capabilities,
            doc_id(&c.id, &c.doc),
            c.display_title(),
        )
    });
    let guides =
        (content.guides.iter()).map(|g| (Section::Guides, g.doc.stem.as_str(), g.display_title()));
    notes
        .chain(clients)
        .chain(capabilities)
        .chain(guides)
        .map(|(section, id, title)| Page {
            section,
            id,
            title,
            path: format!("{}/{id}.md", section.dir()),
        })
        .collect()
}

/// A page of the site as a resource.
pub struct Page<'s> {
    pub section: Section,
    pub id: &'s str,
    pub title: &'s str,
    /// Its `.md` rendition's output path (`research/x.md`).
    pub path: String,
}

/// "no client `clinee`; did you mean `cline`?" (or where to find the ids).
fn unknown<'a>(kind: &str, name: &str, ids: impl Iterator<Item = &'a str>, list: &str) -> String {
    let help = crate::lint::suggest::did_you_mean(name, ids, || list.to_string());
    format!("error: no {kind} `{name}` in this site; {help}")
}

fn missing(path: &str) -> Error {
    Error::io(
        path,
        "read",
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "the render made no such file; the theme's data API is needed",
        ),
    )
}

/// The first render, running beside the handshake.
type FirstRender = Arc<Mutex<Option<JoinHandle<Snapshot>>>>;

/// The site being served: the latest good snapshot, replaced when files change.
///
/// The site is opened (read, parsed, indexed) and rendered on a thread of its own while the
/// client's handshake (`initialize`, `server/discover`, `tools/list`) is answered, which needs
/// no snapshot. Clients give a server little time: Claude Code 2.1.332 sends
/// `server/discover` and falls back after about 2.5 s, and Codex 0.171.0 asks its model
/// without the server's tools if they are not listed about a second after it starts; opening
/// and rendering a large site takes longer than that. What the opened site alone answers
/// (the resources and their templates, which Claude Code lists before its model sees any
/// tool) is answered as soon as the site is open, before the render.
#[derive(Clone)]
pub struct Knowledge {
    pub root: PathBuf,
    pub today: NaiveDate,
    current: Arc<RwLock<Option<Arc<Snapshot>>>>,
    /// The site as first opened, set before its first render starts.
    opened: Arc<OnceLock<Arc<SiteIndex>>>,
    first: FirstRender,
    /// The site's words as `site.yaml` gave them at start (read at once: the handshake's
    /// instructions and tool descriptions use them before the first render is in).
    words: Arc<Vocabulary>,
}

impl Knowledge {
    /// Starts opening and rendering the site in `root`. A site that cannot be opened or
    /// rendered ends the process with the error (status 2) as soon as that is known, as a site
    /// that cannot be served.
    pub fn open(root: &Path, today: NaiveDate) -> Knowledge {
        // A site.yaml that cannot be read is reported by the render below; meanwhile the
        // default words serve.
        let words = crate::config::SiteConfig::load(root)
            .map(|c| c.vocabulary)
            .unwrap_or_default();
        let site = root.to_path_buf();
        let opened = Arc::new(OnceLock::new());
        let publish = Arc::clone(&opened);
        let render = std::thread::spawn(move || {
            // Whatever ends the opening, the process must not wait on `opened` for ever.
            let index = match std::panic::catch_unwind(|| crate::open(&site)) {
                Ok(Ok(index)) => Arc::new(index),
                Ok(Err(e)) => give_up(&e.terminal_line()),
                Err(_) => give_up("error: opening the site stopped unexpectedly"),
            };
            publish.get_or_init(|| Arc::clone(&index));
            match Snapshot::render(index, today) {
                Ok(snapshot) => snapshot,
                Err(e) => give_up(&e.terminal_line()),
            }
        });
        Knowledge {
            root: root.to_path_buf(),
            today,
            current: Arc::new(RwLock::new(None)),
            opened,
            first: Arc::new(Mutex::new(Some(render))),
            words: Arc::new(words),
        }
    }

    /// The snapshot answers are taken from now (waiting for the first render if it runs).
    pub fn now(&self) -> Arc<Snapshot> {
        if let Some(snapshot) = self.latest() {
            return snapshot;
        }
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(render) = first.take() {
            let snapshot = match render.join() {
                Ok(snapshot) => Arc::new(snapshot),
                Err(_) => give_up("error: the site's first render stopped unexpectedly"),
            };
            let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
            current.get_or_insert(snapshot);
        }
        drop(first);
        self.latest()
            .unwrap_or_else(|| give_up("error: the site's first render stopped unexpectedly"))
    }

    /// The site's words: the latest snapshot's, or `site.yaml`'s at start before the first
    /// render is in.
    pub fn words(&self) -> Vocabulary {
        match self.latest() {
            Some(snapshot) => snapshot.index.config.vocabulary.clone(),
            None => (*self.words).clone(),
        }
    }

    /// The opened site: the latest snapshot's, or (before the first render is in) the site
    /// as first opened, waiting for that if need be.
    pub fn index(&self) -> Arc<SiteIndex> {
        match self.latest() {
            Some(snapshot) => Arc::clone(&snapshot.index),
            None => Arc::clone(self.opened.wait()),
        }
    }

    /// The snapshot, once the first render is in.
    pub fn latest(&self) -> Option<Arc<Snapshot>> {
        let current = self.current.read().unwrap_or_else(|e| e.into_inner());
        current.clone()
    }

    /// Loads the site again and returns the snapshots before and after; on failure the
    /// last good snapshot stays and the error is returned.
    pub fn reload(&self) -> Result<(Arc<Snapshot>, Arc<Snapshot>)> {
        let old = self.now();
        let snapshot = Arc::new(Snapshot::load(&self.root, self.today)?);
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        *current = Some(snapshot.clone());
        Ok((old, snapshot))
    }
}

/// A site whose first render failed cannot be served: the error line, then exit status 2
/// (as every command that fails to run).
fn give_up(line: &str) -> ! {
    eprintln!("{line}");
    std::process::exit(2)
}
