//! The concise format: one line per finding, `path:line:col: severity CODE message`, then the
//! summary line. Editors read it as a compiler's output (Vim's `errorformat`, VS Code's
//! problem matchers); `grep` and `sort` read it too. Paths and messages come from content:
//! their control characters are shown escaped ([`terminal`]), line breaks included, so that a
//! finding stays on its line.

use super::{closing_summary, Options, Printed};
use crate::terminal;

pub fn render(report: &Printed<'_>, options: &Options) -> String {
    let mut out = String::new();
    for d in report.diagnostics {
        out.push_str(&format!(
            "{}:{}:{}: {} {} {}\n",
            terminal::escape(&options.path(d)),
            d.line,
            d.column,
            d.severity.as_str(),
            d.code,
            terminal::escape(&d.message)
        ));
    }
    out.push_str(&closing_summary(report, options));
    out
}
