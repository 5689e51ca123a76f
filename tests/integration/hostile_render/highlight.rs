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

/// The shapes that kept highlighting super-linear under its cap, each 120 KB (issue 40): one
/// that only opens, in the languages tree-sitter parses (Python `(`, YAML `[`, TypeScript
/// `` `${ ``, JSON `[`, bash `<`) and in syntect's (TSX, a line past its length): each block
/// is rendered plain (no `highlight` class), every character of it escaped and shown.
#[test]
fn blocks_that_only_open_are_rendered_plain() {
    let shapes = [
        ("python", "(".repeat(120_000)),
        ("yaml", "[".repeat(120_000)),
        ("ts", "`${".repeat(40_000)),
        ("json", "[".repeat(120_000)),
        ("bash", "<".repeat(120_000)),
        ("tsx", "`${".repeat(40_000)),
        ("rust", format!("let s = \"{}\";", "a".repeat(120_000))),
    ];
    let body: String = (shapes.iter())
        .map(|(lang, code)| format!("```{lang}\n{code}\n```\n\n"))
        .collect();
    let site = TestSite::fixture("basic");
    guide(&site, &format!("{body}```python\nprint('fine')\n```\n"));
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("guides/big.html");
    for (lang, code) in &shapes {
        let plain = format!("<pre><code class=\"language-{lang}\">");
        let start = page
            .find(&plain)
            .unwrap_or_else(|| panic!("{lang} is not plain"));
        let shown = &page[start + plain.len()..];
        let shown = &shown[..shown.find("</code>").expect("the block ends")];
        let escaped = code.replace('<', "&lt;").replace('"', "&quot;");
        assert_eq!(shown.trim_end(), escaped, "{lang} is shown whole");
    }
    assert!(
        page.contains("<pre class=\"highlight\"><code class=\"language-python\">"),
        "a block of real code is still highlighted"
    );
}

/// Generated nasty blocks: for each language, 20 KB drawn from the openers, closers, quotes
/// and escapes its grammar nests on (a fixed seed, so a failure repeats). Whatever each block
/// holds, the build ends and shows all of its text, highlighted or plain.
#[test]
fn generated_nasty_blocks_build_and_show_whole() {
    let pieces = [
        "(", "[", "{", "`${", "${", "<<", "<", "\"", "'", "/*", "*/", "\\", "\n", "> ", "#", "$(",
        "x", " ", "]", ")", "}", "`", ":", "- ", "<a>", "```",
    ];
    let mut seed: u64 = 0x005e_ed40;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as usize
    };
    let languages = [
        "python", "yaml", "ts", "json", "bash", "rust", "markdown", "js", "tsx", "html", "toml",
    ];
    let mut blocks = Vec::new();
    for (i, lang) in languages.iter().enumerate() {
        let mut code = format!("marker{i} ");
        while code.len() < 20_000 {
            // Mostly one piece repeated in runs, as a hostile block nests.
            let piece = pieces[next() % pieces.len()];
            code.push_str(&piece.repeat(1 + next() % 400));
        }
        blocks.push((lang, code.replace("```", "``")));
    }
    let body: String = (blocks.iter())
        .map(|(lang, code)| format!("~~~~{lang}\n{code}\n~~~~\n\n"))
        .collect();
    let site = TestSite::fixture("basic");
    guide(&site, &body);
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("guides/big.html");
    for (i, (lang, code)) in blocks.iter().enumerate() {
        assert!(
            page.contains(&format!("marker{i}")),
            "{lang}: its text is shown"
        );
        let count = code.matches('<').count();
        assert!(
            count == 0 || page.matches("&lt;").count() >= count,
            "{lang}"
        );
    }
}
