//! `fieldnotes lsp`: a language server (LSP 3.17, over stdio) that lints, completes and
//! navigates the site around the files an editor opens.
//!
//! The server loads the site once ([`documents::Workspace`]) and overlays the editor's text of
//! each open document on it: an edit re-parses that one file, indexes again and lints
//! incrementally, as `fieldnotes serve` does after a save. Every module has one job:
//!
//! - [`server`]: the message loop (requests, notifications, shutdown);
//! - [`stdio`]: standard input and output as the connection, a bad message skipped, not fatal;
//! - [`documents`]: the loaded site with the open documents laid over it;
//! - [`text`]: LSP positions (UTF-16 columns) to and from byte offsets, paths to and from URIs;
//! - [`cursor`]: what the text at a position is (a front matter key or value, a link);
//! - [`diagnostics`]: lint findings as LSP diagnostics, published per file as they change;
//! - [`completion`], [`hover`], [`navigation`] (definition, references), [`rename`] (of the
//!   note id under the cursor), [`actions`] (quick fixes).

pub(crate) mod actions;
pub(crate) mod completion;
pub(crate) mod cursor;
pub(crate) mod diagnostics;
pub(crate) mod documents;
pub(crate) mod hover;
pub(crate) mod navigation;
pub(crate) mod rename;
pub(crate) mod server;
pub(crate) mod stdio;
pub mod text;

pub use server::{run, serve};
