//! Rename: the research note id under the cursor (a note's `id:` line, a `related`,
//! `supersededBy` or support cell `research` entry, the id in a link to the note), renamed
//! everywhere it is named, its file with it where the editor can rename files.
//!
//! `textDocument/prepareRename` answers the exact range of that id, so the editor shows what
//! will be renamed; anywhere else there is nothing to rename. A new id is checked by FN101's
//! own test before any edit is made: it becomes a file name and a URL.

use super::cursor::{self, Place};
use super::hover::link_page;
use super::navigation::{declaration_of, id_in_dest, mentions, unquoted, Mention};
use super::text::{uri_of, LineIndex};
use crate::index::routes::Page;
use crate::index::SiteIndex;
use crate::lint::vocab::Vocab;
use crate::text_file::{FileId, Section};
use lsp_types::{
    ClientCapabilities, DocumentChangeOperation, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Range, RenameFile, ResourceOp, ResourceOperationKind,
    TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// What the editor can apply, from the capabilities it declared.
#[derive(Debug, Clone, Copy, Default)]
pub struct EditSupport {
    /// `workspace.workspaceEdit.documentChanges`: edits as a list of operations.
    pub document_changes: bool,
    /// `resourceOperations` holds `rename`: files are renamed.
    pub rename_files: bool,
}

impl EditSupport {
    pub fn of(capabilities: &ClientCapabilities) -> EditSupport {
        let edit = (capabilities.workspace.as_ref()).and_then(|w| w.workspace_edit.as_ref());
        let rename = (edit.and_then(|e| e.resource_operations.as_ref()))
            .is_some_and(|ops| ops.contains(&ResourceOperationKind::Rename));
        // Resource operations go only in document changes: an editor that takes them takes
        // those (Neovim 0.7 declares `resourceOperations` and not `documentChanges`).
        let document_changes = edit.and_then(|e| e.document_changes).unwrap_or(false) || rename;
        EditSupport {
            document_changes,
            rename_files: rename,
        }
    }
}

/// The research note whose id is under the cursor, and where that id is (a byte range of the
/// document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdAt {
    pub note: usize,
    pub start: usize,
    pub end: usize,
}

/// The note id under position `offset` of document `file` (of `section`): a value naming a
/// note, the note's id in a link to it, or anywhere on the note's own `id:` line.
pub fn id_at(index: &SiteIndex, file: FileId, section: Section, offset: usize) -> Option<IdAt> {
    let text = &index.files.get(file)?.text;
    match cursor::place(text, offset, section) {
        Place::Value {
            vocab: Vocab::Notes,
            token,
        } => Some(IdAt {
            note: index.ids.note(&token.text)?,
            start: token.start,
            end: token.end,
        }),
        Place::Link { token } => {
            let Some(Page::Note(note)) = link_page(index, section, &token.text) else {
                return None;
            };
            let id = note_id(index, note);
            let start = token.start + id_in_dest(&token.text, id)?;
            Some(IdAt {
                note,
                start,
                end: start + id.len(),
            })
        }
        _ => {
            let note = (index.content.notes.iter()).position(|n| n.doc.file == file)?;
            let declared = declaration_of(index, note)?;
            let line_of = |at: usize| text[..at.min(text.len())].matches('\n').count();
            (line_of(declared.start) == line_of(offset)).then_some(IdAt {
                note,
                start: declared.start,
                end: declared.end,
            })
        }
    }
}

fn note_id(index: &SiteIndex, n: usize) -> &str {
    let note = &index.content.notes[n];
    crate::model::doc_id(&note.id, &note.doc)
}

/// What a rename does: the edit, and the file the editor could not rename (old and new path),
/// which the person must rename.
pub struct Renamed {
    pub edit: WorkspaceEdit,
    pub file_left: Option<(PathBuf, PathBuf)>,
}

/// Renames the note whose id is at `at` to `new_id`: its `id`, every `related`,
/// `supersededBy`, support cell `research` entry and body link naming it, its `canonical` URL
/// when that ends in the id, and its file (when named after the id and the editor can rename
/// files). Why not, when it cannot be done.
pub fn rename(
    index: &SiteIndex,
    at: IdAt,
    new_id: &str,
    support: EditSupport,
) -> Result<Renamed, String> {
    let n = at.note;
    let note = &index.content.notes[n];
    let old_id = note_id(index, n);
    if new_id == old_id {
        return Ok(Renamed {
            edit: WorkspaceEdit::default(),
            file_left: None,
        });
    }
    if let Some(why) = crate::lint::rules::kebab_id_problem(new_id) {
        return Err(format!("cannot rename `{old_id}`: {why}"));
    }
    if index.ids.note(new_id).is_some() {
        return Err(format!("a note with id `{new_id}` exists already"));
    }
    let mut found = mentions(index, n);
    found.extend(declaration_of(index, n));
    if let Some(canonical) = &note.canonical {
        let suffix = format!("/research/{old_id}");
        if canonical.value.ends_with(&suffix) {
            let text = &index.files[canonical.span.file].text;
            let (_, end) = unquoted(text, canonical.span.start, canonical.span.end);
            found.push(Mention {
                file: canonical.span.file,
                start: end - old_id.len(),
                end,
            });
        }
    }
    let by_file = text_edits(index, &found, old_id, new_id);
    let old_path = index.root.join(&index.files[note.doc.file].path);
    let new_path = old_path.with_file_name(format!("{new_id}.md"));
    let file_renamed = note.doc.stem == old_id;
    let file_left = (file_renamed && !support.rename_files).then(|| {
        let relative = |p: &std::path::Path| p.strip_prefix(&index.root).unwrap_or(p).to_owned();
        (relative(&old_path), relative(&new_path))
    });
    let uri = |file: FileId| uri_of(&index.root.join(&index.files[file].path));
    if !support.document_changes {
        let changes: HashMap<Uri, Vec<TextEdit>> =
            by_file.into_iter().map(|(f, e)| (uri(f), e)).collect();
        return Ok(Renamed {
            edit: WorkspaceEdit::new(changes),
            file_left,
        });
    }
    let mut operations: Vec<DocumentChangeOperation> = (by_file.into_iter())
        .map(|(file, edits)| {
            DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: uri(file),
                    version: None,
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            })
        })
        .collect();
    if file_renamed && support.rename_files {
        operations.push(DocumentChangeOperation::Op(ResourceOp::Rename(
            RenameFile {
                old_uri: uri_of(&old_path),
                new_uri: uri_of(&new_path),
                options: None,
                annotation_id: None,
            },
        )));
    }
    Ok(Renamed {
        edit: WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(operations)),
            ..WorkspaceEdit::default()
        },
        file_left,
    })
}

/// One edit per place that says `old_id`, by file, each place once.
fn text_edits(
    index: &SiteIndex,
    found: &[Mention],
    old_id: &str,
    new_id: &str,
) -> BTreeMap<FileId, Vec<TextEdit>> {
    let mut by_file: BTreeMap<FileId, Vec<TextEdit>> = BTreeMap::new();
    for m in found {
        let Some(source) = index.files.get(m.file) else {
            continue;
        };
        if source.text.get(m.start..m.end) != Some(old_id) {
            continue;
        }
        let range: Range = LineIndex::new(&source.text).range(m.start, m.end);
        let edits = by_file.entry(m.file).or_default();
        if !edits.iter().any(|e| e.range == range) {
            edits.push(TextEdit::new(range, new_id.to_string()));
        }
    }
    by_file
}
