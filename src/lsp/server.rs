//! The message loop: initialize, then requests and notifications until `shutdown` and
//! `exit`. Edits are applied to the open documents at once and linted when no message waits
//! (a burst of keystrokes lints once), or before a request that reads the site.

use super::diagnostics::Published;
use super::documents::Workspace;
use super::navigation::section_of;
use super::rename::EditSupport;
use super::text::{path_of, LineIndex};
use crate::error::{Error, Result};
use crate::text_file::{FileId, Section};
use chrono::NaiveDate;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, PrepareRenameRequest, References,
    Rename, Request as _,
};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, InitializeParams,
    MessageType, OneOf, Position, RenameOptions, SaveOptions, ServerCapabilities, ServerInfo,
    ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Where the site is, given the editor's workspace folder (`None` when it names none):
/// `fieldnotes lsp` prefers `--root`, then the folder holding `site.yaml` from the workspace
/// folder up, then from the current folder up.
pub type Locate<'a> = &'a dyn Fn(Option<&Path>) -> Option<PathBuf>;

/// Serves the site `locate` finds over standard input and output until the editor says
/// `exit`.
pub fn run(locate: Locate<'_>, today: NaiveDate) -> Result<()> {
    let (connection, threads) = super::stdio::connect();
    serve(&connection, locate, today)?;
    drop(connection);
    threads.join().map_err(|e| protocol("stdio", e))
}

/// Serves one editor on `connection` (see [`run`]; benchmarks pass an in-memory connection).
pub fn serve<'c>(connection: &'c Connection, locate: Locate<'c>, today: NaiveDate) -> Result<()> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| protocol("initialize", e))?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let initialized = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "fieldnotes".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    connection
        .initialize_finish(id, initialized)
        .map_err(|e| protocol("initialize", e))?;
    let root = locate(workspace_folder(&params).as_deref());
    watch_files(connection, &params);
    let mut server = Server {
        connection,
        locate,
        root,
        today,
        workspace: None,
        published: Published::default(),
        edits: EditSupport::of(&params.capabilities),
    };
    // No site around the workspace folder: the first document opened in one says where it is.
    if server.root.is_some() {
        server.load();
    }
    server.run()
}

/// Asks the editor to report files created, changed or deleted outside it (a checkout, a
/// `fieldnotes new`), when it can: the site is loaded again after them.
fn watch_files(connection: &Connection, params: &InitializeParams) {
    let can = (params.capabilities.workspace.as_ref())
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    if !can {
        return;
    }
    let watchers: Vec<Value> = ["**/*.md", "**/site.yaml", "**/templates/**", "**/static/**"]
        .iter()
        .map(|glob| serde_json::json!({ "globPattern": glob }))
        .collect();
    let registration = lsp_types::Registration {
        id: "fieldnotes-files".to_string(),
        method: DidChangeWatchedFiles::METHOD.to_string(),
        register_options: Some(serde_json::json!({ "watchers": watchers })),
    };
    let params = lsp_types::RegistrationParams {
        registrations: vec![registration],
    };
    let request = Request::new(
        lsp_server::RequestId::from("fieldnotes-watch".to_string()),
        lsp_types::request::RegisterCapability::METHOD.to_string(),
        params,
    );
    // The editor went away: the loop ends when the channel closes.
    let _ = connection.sender.send(Message::Request(request));
}

/// What the server offers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(["/", "#", "-"].map(String::from).to_vec()),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        })),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The editor's first workspace folder (or root URI).
#[allow(deprecated)] // `root_uri`: older editors send only that.
fn workspace_folder(params: &InitializeParams) -> Option<PathBuf> {
    (params.workspace_folders.iter().flatten())
        .map(|f| &f.uri)
        .chain(params.root_uri.as_ref())
        .find_map(path_of)
}

fn protocol(what: &str, error: impl std::fmt::Display) -> Error {
    Error::Io {
        path: PathBuf::from("<stdio>"),
        action: "speak the language server protocol over",
        source: std::io::Error::other(format!("{what}: {error}")),
    }
}

struct Server<'c> {
    connection: &'c Connection,
    locate: Locate<'c>,
    /// The site's root: `None` until one is found (around the workspace folder, else around
    /// the first document opened in a site, as when the site is a folder below the
    /// workspace's).
    root: Option<PathBuf>,
    today: NaiveDate,
    /// `None` until the site loads (no site found, or `site.yaml` broken: loaded again after
    /// a save).
    workspace: Option<Workspace>,
    published: Published,
    /// What the editor can apply of a rename.
    edits: EditSupport,
}

impl Server<'_> {
    fn run(&mut self) -> Result<()> {
        loop {
            let dirty = self.workspace.as_ref().is_some_and(Workspace::is_dirty);
            if dirty && self.connection.receiver.is_empty() {
                self.flush();
                continue;
            }
            let Ok(message) = self.connection.receiver.recv() else {
                return Ok(());
            };
            match message {
                Message::Request(request) => {
                    let shutdown = self.connection.handle_shutdown(&request);
                    if shutdown.map_err(|e| protocol("shutdown", e))? {
                        return Ok(());
                    }
                    let response = self.request(request);
                    self.send(Message::Response(response));
                }
                Message::Notification(notification) => {
                    if notification.method == "exit" {
                        return Ok(());
                    }
                    self.notification(notification);
                }
                Message::Response(_) => {}
            }
        }
    }

    fn send(&self, message: Message) {
        // The editor went away: the loop ends when the channel closes.
        let _ = self.connection.sender.send(message);
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Message::Notification(Notification::new(
            N::METHOD.to_string(),
            params,
        )));
    }

    fn show_error(&self, message: String) {
        self.notify::<ShowMessage>(ShowMessageParams {
            typ: MessageType::ERROR,
            message,
        });
    }

    /// Loads the site (again), and publishes its findings.
    fn load(&mut self) {
        let Some(root) = &self.root else {
            self.show_error(format!(
                "fieldnotes: no {} in the workspace folder or above it; open a file of the site, \
                 or start the server with --root DIR",
                crate::config::CONFIG_FILE
            ));
            return;
        };
        let open = self.workspace.take().map(Workspace::into_open);
        match Workspace::load(root, self.today) {
            Ok(mut workspace) => {
                for (relative, text) in open.into_iter().flatten() {
                    workspace.set_text(relative, text);
                }
                self.workspace = Some(workspace);
                self.flush();
            }
            Err(error) => self.show_error(format!("fieldnotes: {}", error.terminal_line())),
        }
    }

    /// Lints the edits waiting, and publishes what changed.
    fn flush(&mut self) {
        let Some(workspace) = &mut self.workspace else {
            return;
        };
        if let Err(error) = workspace.flush() {
            let message = format!("fieldnotes: {}", error.terminal_line());
            self.show_error(message);
            return;
        }
        for publication in self.published.update(workspace) {
            self.notify::<PublishDiagnostics>(publication);
        }
    }

    fn notification(&mut self, notification: Notification) {
        let method = notification.method.as_str();
        if self.root.is_none() && method == DidOpenTextDocument::METHOD {
            self.root = site_of_document(self.locate, &notification.params);
            if self.root.is_some() {
                self.load();
            }
        }
        let Some(workspace) = &mut self.workspace else {
            if matches!(
                method,
                DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD
            ) {
                self.load();
            }
            return;
        };
        if edit(workspace, notification) == Reload::Yes {
            self.load();
        }
    }

    fn request(&mut self, request: Request) -> Response {
        let Request { id, method, params } = request;
        let Some(dirty) = self.workspace.as_ref().map(Workspace::is_dirty) else {
            return Response::new_ok(id, Value::Null);
        };
        // Completion reads the editor's text as it is; the rest read the linted site.
        if method != Completion::METHOD && dirty {
            self.flush();
        }
        let Some(workspace) = &self.workspace else {
            return Response::new_ok(id, Value::Null);
        };
        let result = match method.as_str() {
            Completion::METHOD => with_document::<Completion>(workspace, params, |doc, p| {
                let pos = p.text_document_position.position;
                let text = workspace.text(&doc.relative).unwrap_or(doc.text(workspace));
                let offset = LineIndex::new(text).offset(pos);
                let list =
                    super::completion::complete(workspace.index(), doc.section, text, offset);
                Some(lsp_types::CompletionResponse::List(list))
            }),
            HoverRequest::METHOD => with_document::<HoverRequest>(workspace, params, |doc, p| {
                let offset = doc.offset(workspace, p.text_document_position_params.position);
                let index = workspace.index();
                super::hover::hover(index, doc.section, doc.text(workspace), offset)
            }),
            GotoDefinition::METHOD => {
                with_document::<GotoDefinition>(workspace, params, |doc, p| {
                    let offset = doc.offset(workspace, p.text_document_position_params.position);
                    super::navigation::definition(workspace.index(), doc.file, doc.section, offset)
                        .map(lsp_types::GotoDefinitionResponse::Scalar)
                })
            }
            References::METHOD => with_document::<References>(workspace, params, |doc, p| {
                let offset = doc.offset(workspace, p.text_document_position.position);
                let declaration = p.context.include_declaration;
                let index = workspace.index();
                let found = super::navigation::references(
                    index,
                    doc.file,
                    doc.section,
                    offset,
                    declaration,
                );
                Some(found)
            }),
            PrepareRenameRequest::METHOD => {
                with_document::<PrepareRenameRequest>(workspace, params, |doc, p| {
                    let offset = doc.offset(workspace, p.position);
                    let index = workspace.index();
                    let at = super::rename::id_at(index, doc.file, doc.section, offset)?;
                    let range = LineIndex::new(doc.text(workspace)).range(at.start, at.end);
                    Some(lsp_types::PrepareRenameResponse::Range(range))
                })
            }
            Rename::METHOD => {
                let (mut refused, mut file_left) = (None, None);
                let support = self.edits;
                let result = with_document::<Rename>(workspace, params, |doc, p| {
                    let offset = doc.offset(workspace, p.text_document_position.position);
                    let index = workspace.index();
                    let Some(at) = super::rename::id_at(index, doc.file, doc.section, offset)
                    else {
                        refused = Some(NOT_AN_ID.to_string());
                        return None;
                    };
                    match super::rename::rename(index, at, &p.new_name, support) {
                        Ok(renamed) => {
                            file_left = renamed.file_left;
                            Some(renamed.edit)
                        }
                        Err(why) => {
                            refused = Some(why);
                            None
                        }
                    }
                });
                if let Some(why) = refused {
                    return Response::new_err(id, ErrorCode::RequestFailed as i32, why);
                }
                if let Some((old, new)) = file_left {
                    self.notify::<ShowMessage>(ShowMessageParams {
                        typ: MessageType::WARNING,
                        message: format!(
                            "fieldnotes: this editor does not rename files: rename {} to {} \
                             (its id and every mention of it are renamed)",
                            old.display(),
                            new.display()
                        ),
                    });
                }
                result
            }
            CodeActionRequest::METHOD => {
                with_document::<CodeActionRequest>(workspace, params, |doc, p| {
                    let (index, findings) = (workspace.index(), workspace.findings());
                    Some(super::actions::code_actions(
                        index, findings, doc.file, p.range,
                    ))
                })
            }
            _ => {
                let message = format!("fieldnotes lsp does not answer {method}");
                return Response::new_err(id, ErrorCode::MethodNotFound as i32, message);
            }
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
        }
    }
}

/// The site around the document a `didOpen` notification opens, if it is in one.
fn site_of_document(locate: Locate<'_>, params: &Value) -> Option<PathBuf> {
    let p = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params.clone()).ok()?;
    let path = path_of(&p.text_document.uri)?;
    locate(Some(path.parent()?))
}

/// Why a rename was refused where the cursor is on no note id.
const NOT_AN_ID: &str = "nothing to rename here: put the cursor on a research note's id (its \
    `id:` line, a `related`, `supersededBy` or support cell `research` entry, or a link to it)";

/// Whether a notification calls for loading the site again.
#[derive(PartialEq, Eq)]
enum Reload {
    Yes,
    No,
}

/// Applies a notification about documents to the workspace.
fn edit(workspace: &mut Workspace, notification: Notification) -> Reload {
    match notification.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let Some(p) = params::<DidOpenTextDocument>(notification.params) else {
                return Reload::No;
            };
            if let Some(relative) = relative(workspace, &p.text_document.uri) {
                workspace.set_text(relative, p.text_document.text);
            }
        }
        DidChangeTextDocument::METHOD => {
            let Some(p) = params::<DidChangeTextDocument>(notification.params) else {
                return Reload::No;
            };
            let Some(relative) = relative(workspace, &p.text_document.uri) else {
                return Reload::No;
            };
            let Some(mut text) = workspace.text(&relative).map(str::to_string) else {
                return Reload::No;
            };
            for change in p.content_changes {
                match change.range {
                    Some(range) => {
                        let lines = LineIndex::new(&text);
                        let (start, end) = (lines.offset(range.start), lines.offset(range.end));
                        text.replace_range(start..end.max(start), &change.text);
                    }
                    None => text = change.text,
                }
            }
            workspace.set_text(relative, text);
        }
        DidCloseTextDocument::METHOD => {
            let Some(p) = params::<DidCloseTextDocument>(notification.params) else {
                return Reload::No;
            };
            if let Some(relative) = relative(workspace, &p.text_document.uri) {
                workspace.close(&relative);
            }
        }
        DidSaveTextDocument::METHOD => {
            let Some(p) = params::<DidSaveTextDocument>(notification.params) else {
                return Reload::No;
            };
            // A new content file, site.yaml, a template: what the site is made of changed.
            let Some(relative) = relative(workspace, &p.text_document.uri) else {
                return Reload::No;
            };
            let first = relative.components().next().map(|c| c.as_os_str());
            let first = first.and_then(|c| c.to_str()).unwrap_or("");
            let new_content =
                first == crate::load::CONTENT_DIR && workspace.file_id(&relative).is_none();
            if new_content || crate::serve::rebuild::WATCHED.contains(&first) {
                return Reload::Yes;
            }
        }
        DidChangeWatchedFiles::METHOD => workspace.files_changed(),
        _ => {}
    }
    Reload::No
}

/// A document of the site a request is about.
struct Document {
    relative: PathBuf,
    file: FileId,
    section: Section,
}

impl Document {
    fn text<'w>(&self, workspace: &'w Workspace) -> &'w str {
        (workspace.index().files.get(self.file)).map_or("", |f| f.text.as_str())
    }

    fn offset(&self, workspace: &Workspace, position: Position) -> usize {
        LineIndex::new(self.text(workspace)).offset(position)
    }
}

/// Answers request `R` about a document of the site: `null` when the document is not one.
fn with_document<R>(
    workspace: &Workspace,
    params: Value,
    answer: impl FnOnce(&Document, R::Params) -> R::Result,
) -> std::result::Result<Value, String>
where
    R: lsp_types::request::Request,
    R::Params: DeserializeOwned + HasDocument,
{
    let params: R::Params =
        serde_json::from_value(params).map_err(|e| format!("{}: {e}", R::METHOD))?;
    let document = relative(workspace, params.uri()).and_then(|relative| {
        let file = workspace.file_id(&relative)?;
        let section = section_of(&relative)?;
        Some(Document {
            relative,
            file,
            section,
        })
    });
    let Some(document) = document else {
        return Ok(Value::Null);
    };
    Ok(serde_json::to_value(answer(&document, params)).unwrap_or(Value::Null))
}

/// Request parameters that name a document.
trait HasDocument {
    fn uri(&self) -> &Uri;
}

macro_rules! has_document {
    ($($params:ty => |$p:ident| $uri:expr;)*) => {$(
        impl HasDocument for $params {
            fn uri(&self) -> &Uri {
                let $p = self;
                &$uri
            }
        }
    )*};
}

has_document! {
    lsp_types::CompletionParams => |p| p.text_document_position.text_document.uri;
    lsp_types::HoverParams => |p| p.text_document_position_params.text_document.uri;
    lsp_types::GotoDefinitionParams => |p| p.text_document_position_params.text_document.uri;
    lsp_types::ReferenceParams => |p| p.text_document_position.text_document.uri;
    lsp_types::RenameParams => |p| p.text_document_position.text_document.uri;
    lsp_types::TextDocumentPositionParams => |p| p.text_document.uri;
    lsp_types::CodeActionParams => |p| p.text_document.uri;
}

fn params<N: lsp_types::notification::Notification>(params: Value) -> Option<N::Params> {
    serde_json::from_value(params).ok()
}

/// The path of a `file://` URI relative to the site root, if it is in the site.
fn relative(workspace: &Workspace, uri: &Uri) -> Option<PathBuf> {
    workspace.relative(Path::new(&path_of(uri)?))
}
