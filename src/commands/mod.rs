//! One function per CLI command: apply the flags, call the library, print, return the exit
//! status (0 clean, 1 findings, 2 could not run).

mod build;
mod lint;
mod schema;

pub use build::build;
pub use lint::lint;
pub use schema::schema;

use std::io::IsTerminal;

/// Whether standard error is a terminal that shows colour.
fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}
