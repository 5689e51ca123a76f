//! Highlighting stays linear under its cap: 120 KB of `<` in a bash block (one line, or
//! lines of 79) took over 200 s each on a debug build (tree-sitter-bash's heredoc scanner
//! reads to the end of the block at every `<<`); now the parse is stopped at a budget of bytes
//! read and the block goes to the other engine (syntect, linear on it) or plain text.

use super::{build, guide, text};
use crate::support::TestSite;

#[test]
fn pathological_blocks_under_the_cap_build_in_linear_time() {
    let line = "<".repeat(120_000);
    let lines = vec!["<".repeat(79); 1500].join("\n");
    let plain = vec!["echo hello world, a plain line of shell"; 3000].join("\n");
    let site = TestSite::fixture("basic");
    guide(
        &site,
        &format!(
            "```bash\n{line}\n```\n\n```sh\n{lines}\n```\n\n```bash\n{lines}\n```\n\n\
             ```bash\n{plain}\n```\n"
        ),
    );
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("guides/big.html");
    // Every `<` is shown (escaped), whichever engine took the block.
    assert!(page.matches("&lt;").count() >= 120_000 + 2 * 1500 * 79);
    assert!(page.contains("<pre class=\"highlight\"><code class=\"language-bash\">"));
    assert!(page.contains("hl-"), "the plain block is highlighted");
}
