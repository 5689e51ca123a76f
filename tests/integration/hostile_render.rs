//! Tests: what a pull request puts in templates, bodies, static files and cited repositories
//! cannot exhaust a build or reach a page raw (SECURITY.md, "Bounded work" and "No script,
//! link or structure"). Each runs the binary with a deadline, so a build that would spin
//! fails the test instead of hanging it. `FIELDNOTES_BIN` runs them against another build of
//! fieldnotes (the one before a fix, to see them fail).

mod budgets;
mod highlight;
mod outside_text;
mod twins;
mod writes;

use crate::support::TestSite;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Generous on a loaded two-core machine: each input here took over 150 s before its fix.
const DEADLINE: Duration = Duration::from_secs(60);

/// The binary under test.
fn fieldnotes() -> Command {
    let bin = std::env::var_os("FIELDNOTES_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_fieldnotes").into());
    let mut command = Command::new(bin);
    command.env("FIELDNOTES_CACHE_DIR", "").env("NO_COLOR", "1");
    command
}

/// Runs `command` in `root`, killed (and the test failed) past [`DEADLINE`].
fn run_within(mut command: Command, root: &Path) -> Output {
    let started = Instant::now();
    let mut child = command
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fieldnotes starts");
    // Drain both pipes on threads: a chatty child must not block on a full pipe.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).ok();
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut buf).ok();
        buf
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fieldnotes ran past {DEADLINE:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().expect("stdout read"),
        stderr: err.join().expect("stderr read"),
    }
}

fn build(site: &TestSite) -> Output {
    let mut command = fieldnotes();
    command.args(["build", "--today", "2026-11-30", "--root", "."]);
    run_within(command, site.root())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The basic fixture with `limits` added to its `site.yaml`.
fn with_limits(limits: &str) -> TestSite {
    let site = TestSite::fixture("basic");
    let config = std::fs::read_to_string(site.root().join("site.yaml")).expect("site.yaml");
    site.write("site.yaml", &format!("{config}limits:\n{limits}"));
    site
}

/// A guide whose body is `body`.
fn guide(site: &TestSite, body: &str) {
    site.write(
        "content/guides/big.md",
        &format!("---\ntitle: Big\nsummary: Big.\nlast-updated: 2026-11-21\n---\n\n{body}"),
    );
}

/// Two nested loops of 100,000 in `robots.txt`: ten billion iterations. Printing nothing,
/// they stop at the step limit; printing, at the page's byte limit; either way the build
/// fails naming the template and the limit.
#[test]
fn runaway_template_loops_stop_with_an_error_naming_the_template() {
    for (body, key) in [
        ("", "maxRenderSteps"),
        (
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
            "maxPageBytes",
        ),
    ] {
        // Limits a hundredth of the defaults keep the test quick on a debug build.
        let site = with_limits("  maxRenderSteps: 10000000\n  maxPageBytes: 1000000\n");
        site.write(
            "templates/robots.txt",
            &format!(
                "{{% for i in range(end=100000) %}}{{% for j in range(end=100000) %}}{body}\
                 {{% endfor %}}{{% endfor %}}\n"
            ),
        );
        let out = build(&site);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{key}: {stderr}");
        assert!(stderr.contains("robots.txt"), "{key}: {stderr}");
        assert!(stderr.contains(&format!("limits.{key}")), "{key}: {stderr}");
        assert!(!site.out().join("robots.txt").exists());
    }
}

/// 80,000 broken links on one line: each finding's column used to be counted from the
/// line's start (quadratic: over 150 s); now each costs a bounded scan.
#[test]
fn eighty_thousand_findings_on_one_line_lint_in_linear_time() {
    let site = TestSite::fixture("basic");
    let links: Vec<String> = (0..80_000)
        .map(|i| format!("[x](/research/nope-{i}.md)"))
        .collect();
    guide(&site, &format!("{}\n", links.join(" ")));
    let mut command = fieldnotes();
    command.args([
        "lint",
        "--root",
        ".",
        "--format",
        "json",
        "--today",
        "2026-11-30",
    ]);
    let out = run_within(command, site.root());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = report["diagnostics"].as_array().expect("a list");
    let broken: Vec<&serde_json::Value> =
        findings.iter().filter(|f| f["code"] == "FN601").collect();
    assert_eq!(broken.len(), 80_000);
    // The last finding is at the last link's destination, after 79,999 links of 25 to 29
    // characters and their spaces, and its `[x](`.
    let last = broken
        .iter()
        .map(|f| f["column"].as_u64().expect("column"))
        .max();
    let expected = links[..79_999].iter().map(|l| l.len() + 1).sum::<usize>() + 1 + 4;
    assert_eq!(last, Some(expected as u64));
}

/// A block past `limits.maxHighlightBytes` is never handed to a highlighter: nested brackets
/// in Python used to take 450 times their size in memory, 10 MB of TypeScript over 150 s.
#[test]
fn code_blocks_past_the_highlight_cap_are_escaped_plain_text() {
    // Past the default cap (128 KiB): 200 KB of nested brackets.
    let site = TestSite::fixture("basic");
    let brackets = format!("x = {}{}", "[".repeat(100_000), "]".repeat(100_000));
    guide(
        &site,
        &format!("```python\n{brackets}\n```\n\n```python\nif a:\n    b\n```\n"),
    );
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("guides/big.html");
    let plain = format!("<pre><code class=\"language-python\">{brackets}");
    assert!(page.contains(&plain), "the big block is plain");
    // The small block beside it is still highlighted.
    assert!(page.contains("<pre class=\"highlight\"><code class=\"language-python\">"));
    // The cap is the site's to set.
    let site = with_limits("  maxHighlightBytes: 10\n");
    guide(&site, "```html\n<b class=\"x\">bold</b>\n```\n");
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("guides/big.html");
    assert!(
        page.contains("<code class=\"language-html\">&lt;b class=&quot;x&quot;&gt;bold"),
        "{page}"
    );
}

/// `static/INDEX.html` is `index.html` on macOS and Windows: FN012 as an exact match is, and
/// the build refuses it even with FN012 off.
#[test]
fn a_static_file_equal_to_a_generated_path_but_for_case_is_refused() {
    let site = TestSite::fixture("basic");
    site.write("static/INDEX.html", "<h1>not the matrix</h1>")
        .write("static/API/notes.json", "[]")
        .write("static/Research/Alpha-Defaults-To-SSE.md", "x");
    let findings = site.lint();
    let fn012: Vec<String> = (findings.iter())
        .filter(|f| f.code == "FN012")
        .map(|f| f.message.clone())
        .collect();
    assert_eq!(fn012.len(), 3, "{fn012:#?}");
    assert!(fn012
        .iter()
        .any(|m| m.contains("static/INDEX.html") && m.contains("index.html")));
    assert!(fn012.iter().any(|m| m.contains("api/")));
    let config = std::fs::read_to_string(site.root().join("site.yaml")).expect("site.yaml");
    site.write(
        "site.yaml",
        &config.replace("lint:\n", "lint:\n  rules:\n    FN012: off\n"),
    );
    site.remove("static/API/notes.json")
        .remove("static/Research/Alpha-Defaults-To-SSE.md");
    let out = build(&site);
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let index = std::fs::read_to_string(site.out().join("index.html")).unwrap_or_default();
    assert!(!index.contains("not the matrix"));
}

/// `new note --client 'x\nlastVerified: …'` writes one client, not a second key.
#[test]
fn new_note_values_cannot_add_front_matter_keys() {
    let site = TestSite::fixture("basic");
    let mut command = fieldnotes();
    command.args([
        "new",
        "note",
        "an-injected-note",
        "--root",
        ".",
        "--today",
        "2026-11-30",
        "--client",
        "x\nlastVerified: 2000-01-01\n# c",
        "--capability",
        "a: b",
    ]);
    let out = run_within(command, site.root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let note = std::fs::read_to_string(site.root().join("content/research/an-injected-note.md"))
        .expect("written");
    let front = note.split("---\n").nth(1).expect("front matter");
    let yaml: serde_json::Value = serde_yaml::from_str(front).expect("parses");
    assert_eq!(yaml["lastVerified"], "2026-11-30", "{front}");
    assert_eq!(
        yaml["clients"],
        serde_json::json!(["x\nlastVerified: 2000-01-01\n# c"])
    );
    assert_eq!(yaml["capabilities"], serde_json::json!(["a: b"]));
    let keys = front.lines().filter(|l| l.starts_with("lastVerified:"));
    assert_eq!(keys.count(), 1, "{front}");
}

/// The highlight cache on disk keeps to its cap (`FIELDNOTES_CACHE_MAX_BYTES`).
#[test]
fn the_highlight_cache_keeps_to_its_cap() {
    let site = TestSite::fixture("basic");
    let blocks: String = (0..200)
        .map(|i| format!("```python\ndef f{i}(x):\n    return x * {i}\n```\n\n"))
        .collect();
    guide(&site, &blocks);
    let cache = tempfile::tempdir().expect("temp dir");
    let mut command = fieldnotes();
    command
        .args(["build", "--today", "2026-11-30", "--root", "."])
        .env("FIELDNOTES_CACHE_DIR", cache.path())
        .env("FIELDNOTES_CACHE_MAX_BYTES", "20000");
    let out = run_within(command, site.root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let size: u64 = walkdir::WalkDir::new(cache.path().join("highlight"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()))
        .sum();
    assert!(size > 0 && size <= 20_000, "the cache holds {size} bytes");
}

/// A git repository of `files`, committed once (`repo.commit`).
struct Repo {
    dir: tempfile::TempDir,
    commit: String,
}

fn git_repo(files: &[(&str, &str)]) -> Repo {
    let dir = tempfile::tempdir().expect("temp dir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_DATE", "2026-09-01T10:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-09-01T10:00:00Z")
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    git(&["init", "--quiet", "-b", "main"]);
    for (path, contents) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, contents).expect("write");
    }
    git(&["add", "--all"]);
    git(&["commit", "--quiet", "-m", "evil"]);
    let commit = git(&["rev-parse", "HEAD"]).trim().to_string();
    Repo { dir, commit }
}

/// The basic site built with `--excerpts` from a repository whose cited files hold `line_10`
/// and `line_11` among plain lines: the site, and the note's HTML page and `.md` with their
/// text (each shows the excerpt: its line 12 is there).
fn excerpt_pages(line_10: &str, line_11: &str) -> (TestSite, Vec<(&'static str, String)>) {
    let mut lines: Vec<String> = (1..=40).map(|i| format!("line_{i} = {i}")).collect();
    lines[9] = line_10.into();
    lines[10] = line_11.into();
    let file = lines.join("\n") + "\n";
    let repo = git_repo(&[("src/config.py", &file), ("src/main.py", &file)]);
    let site = TestSite::fixture("basic");
    let out = build_with_excerpts(&site, &repo, |c| c);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pages = [
        "research/alpha-defaults-to-sse.html",
        "research/alpha-defaults-to-sse.md",
    ]
    .map(|page| {
        let shown = site.output(page);
        assert!(shown.contains("line_12"), "{page} shows the excerpt");
        (page, shown)
    });
    (site, pages.into())
}

/// `build --excerpts` of `site` with `https://github.com/example/client-a` read from `repo`,
/// the basic fixture's note pinned to its commit; `wrap` may change the command.
fn build_with_excerpts(
    site: &TestSite,
    repo: &Repo,
    wrap: impl FnOnce(Command) -> Command,
) -> Output {
    let note = "content/research/alpha-defaults-to-sse.md";
    let text_of = std::fs::read_to_string(site.root().join(note)).expect("note");
    site.write(
        note,
        &text_of.replace("commit: 0123abc", &format!("commit: {}", repo.commit)),
    );
    let cache = tempfile::tempdir().expect("temp dir");
    let mut command = fieldnotes();
    let mapping = format!(
        "https://github.com/example/client-a={}",
        repo.dir.path().display()
    );
    command.args([
        "build",
        "--today",
        "2026-11-30",
        "--root",
        ".",
        "--excerpts",
        "--offline",
    ]);
    command
        .args(["--repo", &mapping, "--cache"])
        .arg(cache.path());
    run_within(wrap(command), site.root())
}

/// A cited repository's lines with NUL, an escape sequence and bidi controls ("Trojan
/// Source"): shown under the source link, none of them reaches the page or its `.md` raw.
#[test]
fn excerpt_controls_reach_no_page_raw() {
    let line_10 = "access = \"user\" # \u{202e} \u{2066}if admin\u{2069} \u{2066} begin";
    let (_site, pages) = excerpt_pages(line_10, "nul = \"a\0b\" \u{1b}[2J");
    for (page, shown) in pages {
        for raw in ['\0', '\u{1b}', '\u{202e}', '\u{2066}', '\u{2069}'] {
            assert!(!shown.contains(raw), "{page} holds {raw:?} raw");
        }
        assert!(
            shown.contains("U+202E"),
            "{page} names the control it hides"
        );
    }
}
