//! One function per CLI command: apply the flags, call the library, print, return the exit
//! status (0 clean, 1 findings, 2 could not run).

mod build;
mod generated;
mod lint;
mod new;
mod schema;
mod serve;
mod sources;

pub use build::build;
pub use generated::{completions, man};
pub use lint::lint;
pub use new::new;
pub use schema::schema;
pub use serve::serve;
pub use sources::sources;

use std::io::IsTerminal;

/// Whether standard error is a terminal that shows colour.
fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}
