//! One function per CLI command: apply the flags, call the library, print, return the exit
//! status (0 clean, 1 findings, 2 could not run). Every command gets the [`Invocation`]: the
//! site, colour and how much to say.

mod build;
mod color;
mod diff;
mod generated;
mod init;
mod lint;
mod lsp;
mod mcp;
mod new;
mod probe;
mod report;
mod schema;
mod serve;
pub(crate) mod site_root;
mod sources;
mod submit;
mod workflows;

pub use build::build;
pub use diff::diff;
pub use generated::{completions, man};
pub use init::init;
pub use lint::lint;
pub use lsp::lsp;
pub use mcp::mcp;
pub use new::new;
pub use probe::probe;
pub use schema::schema;
pub use serve::serve;
pub use sources::sources;
pub use submit::submit;
pub use workflows::workflows;

use crate::cli::{Cli, ColorChoice};
use crate::error::{Error, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// What every command is given besides its own flags: the global flags, resolved.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// `--root`, or the folder above where `site.yaml` was found; `None`: not found.
    root: Option<PathBuf>,
    /// Whether the root was found by looking upward (rather than given).
    found: bool,
    /// The current folder (where the search for `site.yaml` started).
    cwd: PathBuf,
    pub color: ColorChoice,
    pub verbosity: Verbosity,
}

/// How much a command says beside its results (`-q`, `-v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// Errors only: no warnings, summary or status lines.
    Quiet,
    Normal,
    /// Also where the site is, what was checked and how long it took.
    Verbose,
}

impl Invocation {
    /// The global flags of `cli`; without `--root`, the site is looked for from the current
    /// folder up.
    pub fn from_cli(cli: &Cli) -> Invocation {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let (root, found) = match &cli.root {
            Some(root) => (Some(root.clone()), false),
            None => (site_root::find_upward(&cwd), true),
        };
        Invocation {
            root,
            found,
            cwd,
            color: cli.color,
            verbosity: match (cli.quiet, cli.verbose) {
                (true, _) => Verbosity::Quiet,
                (false, true) => Verbosity::Verbose,
                (false, false) => Verbosity::Normal,
            },
        }
    }

    /// The site's root folder, or why there is none.
    pub fn root(&self) -> Result<&Path> {
        let root = self.root.as_deref().ok_or_else(|| Error::Usage {
            message: format!(
                "no {} in {} or any folder above it: run fieldnotes in a site's folder, or \
                 pass --root DIR",
                crate::config::CONFIG_FILE,
                self.cwd.display()
            ),
        })?;
        site_root::refuse_git_dir(root)?;
        if self.found && root != Path::new(".") {
            self.detail(&format!(
                "site: {} ({} found above the current folder)",
                root.display(),
                crate::config::CONFIG_FILE
            ));
        }
        Ok(root)
    }

    pub fn quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// Whether standard output is coloured.
    pub fn stdout_color(&self) -> bool {
        color::enabled(self.color, std::io::stdout().is_terminal(), |name| {
            std::env::var_os(name)
        })
    }

    /// Whether standard error is coloured.
    pub fn stderr_color(&self) -> bool {
        color::enabled(self.color, std::io::stderr().is_terminal(), |name| {
            std::env::var_os(name)
        })
    }

    /// Prints a status line on standard error, unless `-q`.
    pub fn say(&self, text: &str) {
        if !self.quiet() {
            eprintln!("{text}");
        }
    }

    /// Prints a line on standard error with `-v` only.
    pub fn detail(&self, text: &str) {
        if self.verbosity == Verbosity::Verbose {
            eprintln!("{text}");
        }
    }
}
