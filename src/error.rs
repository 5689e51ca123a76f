//! Errors that stop a command before or outside the linter: unreadable files, a bad
//! `site.yaml`, a broken template, a failed write. Problems in content are lint findings.

use std::fmt;
use std::path::PathBuf;

/// Why a command could not run. Each names its file, and its line and column where known.
#[derive(Debug)]
pub enum Error {
    /// A file or folder could not be read or written.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// `site.yaml` is missing, unparsable or incomplete.
    Config {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A template does not compile or does not render.
    Template { name: String, message: String },
    /// A command-line value is not usable.
    Usage { message: String },
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, action: &'static str, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            action,
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io {
                path,
                action,
                source,
            } => write!(f, "{}: could not {action}: {source}", path.display()),
            Error::Config {
                path,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: {message}", path.display()),
            Error::Template { name, message } => write!(f, "template {name}: {message}"),
            Error::Usage { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The published manual (`docs/`, built by fieldnotes), which errors point to: a user of the
/// binary has no `docs/` folder to open.
pub const MANUAL_URL: &str = "https://fieldnotes-dev.github.io/fieldnotes";

/// The URL of the manual's page `slug` (`content-format`), with `#anchor` when given.
pub fn manual(slug: &str, anchor: Option<&str>) -> String {
    match anchor {
        Some(anchor) => format!("{MANUAL_URL}/guides/{slug}#{anchor}"),
        None => format!("{MANUAL_URL}/guides/{slug}"),
    }
}

impl Error {
    /// The error as one line for a terminal (`error: …`), text from content or a repository
    /// escaped as every printer for people escapes it.
    pub fn terminal_line(&self) -> String {
        format!("error: {}", crate::terminal::escape(&self.to_string()))
    }
}
