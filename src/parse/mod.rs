//! Parse: split each file into front matter and body, read the front matter into the typed
//! model (keeping every position; each source's `path` read into its file and lines by
//! [`source_path`]), and scan the body for links and headings (and, in research notes, what
//! it restates of the front matter: [`restated`]).

mod decode;
pub(crate) mod fields;
pub mod frontmatter;
pub(crate) mod lists;
pub(crate) mod markdown;
pub(crate) mod restated;
pub(crate) mod source_path;
pub(crate) mod url_pin;
pub(crate) mod yaml;

use crate::config::SiteConfig;
use crate::load::{Assets, LoadedSite, Unreadable};
use crate::model::{
    Capability, Client, Content, Document, FrontMatterError, Guide, Note, ObjectKind, Observation,
};
use crate::text_file::{FileId, Section, Span, TextFile};
use fields::{Collected, Reader};
use frontmatter::Split;
use rayon::prelude::*;
use std::path::PathBuf;
use yaml::Node;

/// What parse hands to the index: the settings, the files, and the typed content.
#[derive(Debug)]
pub struct ParsedSite {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub files: Vec<TextFile>,
    pub content: Content,
    pub unreadable: Vec<Unreadable>,
    pub assets: Assets,
}

/// One parsed content file, typed by its section.
#[derive(Debug)]
pub enum Parsed {
    Note(Note),
    Client(Client),
    Capability(Capability),
    Guide(Guide),
    Observation(Observation),
}

/// Parses every loaded file, in parallel, keeping path order. Never fails: what cannot be
/// read is recorded for the linter.
pub fn parse(site: LoadedSite) -> ParsedSite {
    let max_front_matter = site.config.limits.max_front_matter_bytes;
    let parsed: Vec<Parsed> = site
        .sections
        .par_iter()
        .map(|&(file, section)| parse_file(&site.files[file], file, section, max_front_matter))
        .collect();
    let mut content = Content::default();
    // Exactly as many as there are: a note is about 1 KB, and growing by doubling would
    // leave room for 6,000 more at 10,000 notes.
    let count = |section: Section| site.sections.iter().filter(|s| s.1 == section).count();
    content.notes.reserve_exact(count(Section::Research));
    content.clients.reserve_exact(count(Section::Clients));
    content
        .capabilities
        .reserve_exact(count(Section::Capabilities));
    content.guides.reserve_exact(count(Section::Guides));
    content
        .observations
        .reserve_exact(count(Section::Observations));
    for item in parsed {
        match item {
            Parsed::Note(n) => content.notes.push(n),
            Parsed::Client(c) => content.clients.push(c),
            Parsed::Capability(c) => content.capabilities.push(c),
            Parsed::Guide(g) => content.guides.push(g),
            Parsed::Observation(o) => content.observations.push(o),
        }
    }
    content.transcripts = site.transcripts;
    for (position, &file) in site.lists.iter().enumerate() {
        let list = lists::read(&site.files[file], file, position, &mut content.reports);
        content.lists.push(list);
    }
    ParsedSite {
        root: site.root,
        config: site.config,
        files: site.files,
        content,
        unreadable: site.unreadable,
        assets: site.assets,
    }
}

/// Parses one file, as content of the section its folder names. Front matter larger than
/// `max_front_matter` bytes is not parsed (and is a finding).
pub fn parse_file(
    source: &TextFile,
    file: FileId,
    section: Section,
    max_front_matter: usize,
) -> Parsed {
    let stem = source
        .path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let (front, body_range) = front_matter(source, file, max_front_matter);
    let mut doc = Document {
        file,
        section,
        stem,
        front_matter: front.block,
        front_matter_error: front.error,
        keys: Vec::new(),
        type_errors: Vec::new(),
        comment_cuts: Vec::new(),
        extra: Vec::new(),
        body: markdown::scan(&source.text, file, body_range),
    };
    let object = object_kind(section);
    let mut collected = Collected::default();
    let map = front.map.unwrap_or(Node {
        span: front.block,
        kind: yaml::NodeKind::Null,
    });
    let mut reader = Reader::new(object, map, String::new(), &source.text, &mut collected);
    doc.extra = reader.unknown(|key| crate::field_table::find(object, key).is_some());
    match section {
        Section::Research => {
            doc.body.restated = restated::find(&source.text, file, &doc.body);
            let mut note = decode::note(doc, &mut reader);
            attach(&mut note.doc, collected);
            Parsed::Note(note)
        }
        Section::Clients => {
            let mut client = decode::client(doc, &mut reader);
            attach(&mut client.doc, collected);
            Parsed::Client(client)
        }
        Section::Capabilities => {
            let mut capability = decode::capability(doc, &mut reader);
            attach(&mut capability.doc, collected);
            Parsed::Capability(capability)
        }
        Section::Guides => {
            let mut guide = decode::guide(doc, &mut reader);
            attach(&mut guide.doc, collected);
            Parsed::Guide(guide)
        }
        Section::Observations => {
            let mut observation = decode::observation(doc, &mut reader);
            attach(&mut observation.doc, collected);
            Parsed::Observation(observation)
        }
    }
}

fn attach(doc: &mut Document, collected: Collected) {
    doc.keys = collected.keys;
    doc.type_errors = collected.type_errors;
    doc.comment_cuts = collected.comment_cuts;
}

/// The object kind of a section's front matter.
pub fn object_kind(section: Section) -> ObjectKind {
    match section {
        Section::Research => ObjectKind::Note,
        Section::Clients => ObjectKind::Client,
        Section::Capabilities => ObjectKind::Capability,
        Section::Guides => ObjectKind::Guide,
        Section::Observations => ObjectKind::Observation,
    }
}

/// The front matter of a file, read as far as it can be.
struct FrontMatter {
    block: Span,
    /// The mapping node (absent when the block is empty or could not be read).
    map: Option<Node>,
    error: Option<FrontMatterError>,
}

fn front_matter(
    source: &TextFile,
    file: FileId,
    limit: usize,
) -> (FrontMatter, std::ops::Range<usize>) {
    let failed = |block: Span, error| FrontMatter {
        block,
        map: None,
        error: Some(error),
    };
    match frontmatter::split(&source.text) {
        Split::Missing { body } => {
            let span = Span::new(file, body.start, body.start);
            (failed(span, FrontMatterError::Missing { span }), body)
        }
        Split::Unterminated { fence } => {
            let span = Span::new(file, fence.start, fence.end);
            let body = source.text.len()..source.text.len();
            (failed(span, FrontMatterError::Unterminated { span }), body)
        }
        Split::Found { block, yaml, body } if yaml.len() > limit => {
            // Only the opening fence: a code frame of the whole block would be as large.
            let fence = source.text[block.start..].find('\n').unwrap_or(0);
            let span = Span::new(file, block.start, block.start + fence);
            let error = FrontMatterError::TooLarge {
                span,
                bytes: yaml.len(),
                limit,
            };
            (failed(Span::new(file, block.start, block.end), error), body)
        }
        Split::Found { block, yaml, body } => {
            let block_span = Span::new(file, block.start, block.end);
            let front = match yaml::parse(source, file, yaml.start, yaml.end) {
                Err(e) => failed(
                    block_span,
                    FrontMatterError::Syntax {
                        message: e.message,
                        span: e.span,
                    },
                ),
                Ok(node) => match node.kind {
                    yaml::NodeKind::Map(_) => FrontMatter {
                        block: block_span,
                        map: Some(node),
                        error: None,
                    },
                    yaml::NodeKind::Null => FrontMatter {
                        block: block_span,
                        map: None,
                        error: None,
                    },
                    _ => failed(
                        block_span,
                        FrontMatterError::NotAMapping { span: node.span },
                    ),
                },
            };
            (front, body)
        }
    }
}
