//! The bad-input corpus. Each folder of `tests/fixtures/bad/` (but `_base`) is copied over
//! `_base/`, a clean site; some also get files the test makes at run time (too large to keep,
//! or symlinks and FIFOs git cannot hold: see [`GENERATED`]). Its `expected.txt` lists every
//! finding the case must give, one `CODE file:line:column` a line (`#` starts a comment), and
//! nothing else may be found. Every finding must say what to do, every output format must
//! print them, lint must finish in bounded time, and a build must write nothing at all. A case
//! whose `site.yaml` is refused lists the refusal as `CONFIG site.yaml:line:column`.

use super::super::support::{copy_dir, fixtures, today, TestSite};
use fieldnotes::cli::Format;
use fieldnotes::lint::format::{self, Report};
use fieldnotes::{Diagnostic, Severity, Summary};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long lint may take on any one case (a debug build, on a 2-core machine, with other
/// tests running beside it).
const TIME_BOUND: Duration = Duration::from_secs(20);

/// What writes a generated case's files into the site at the given root.
type Generator = fn(&Path);

/// Cases whose files the test makes: the name of their folder and what writes the files.
const GENERATED: &[(&str, Generator)] = &[
    ("gen-body-10mb", body_10mb),
    ("gen-file-over-16mib", file_over_16mib),
    ("gen-front-matter-1mb", front_matter_1mb),
    ("gen-many-keys", many_keys),
    ("gen-alias-text-bomb", alias_text_bomb),
    ("gen-deep-markdown", deep_markdown),
    ("gen-long-id", long_id),
    ("gen-symlink-outside", symlink_outside),
    ("gen-symlink-loop", symlink_loop),
    ("gen-symlink-folder-loop", symlink_folder_loop),
    ("gen-symlink-dangling", symlink_dangling),
    ("gen-fifo", fifo),
    ("gen-id-252-bytes", id_252_bytes),
    ("gen-id-windows-device", id_windows_device),
    ("gen-id-case-clash", id_case_clash),
];

/// The folder of the corpus.
fn corpus() -> std::path::PathBuf {
    fixtures().join("bad")
}

/// The case folders, sorted.
fn cases() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(corpus())
        .expect("tests/fixtures/bad")
        .map(|e| e.expect("entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('_'))
        .collect();
    names.sort();
    names
}

/// `_base` with the case copied over it and its generated files made.
fn case_site(name: &str) -> TestSite {
    let site = TestSite::fixture("bad/_base");
    copy_dir(&corpus().join(name), site.root());
    fs::remove_file(site.root().join("expected.txt")).expect("expected.txt");
    if let Some((_, generate)) = GENERATED.iter().find(|(n, _)| *n == name) {
        generate(site.root());
    }
    site
}

/// The findings `expected.txt` lists, as `CODE file:line:column`, sorted.
fn expected(name: &str) -> Vec<String> {
    let text = fs::read_to_string(corpus().join(name).join("expected.txt"))
        .unwrap_or_else(|e| panic!("{name}/expected.txt: {e}"));
    let mut lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

fn position(d: &Diagnostic) -> String {
    format!("{} {}:{}:{}", d.code, d.file, d.line, d.column)
}

#[test]
fn the_base_is_clean_and_builds() {
    let site = TestSite::fixture("bad/_base");
    let report = site.build();
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert!(report.written);
}

#[test]
fn the_corpus_has_forty_cases_and_every_generated_one_a_folder() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    for (name, _) in GENERATED {
        assert!(cases.iter().any(|c| c == name), "{name} has no folder");
    }
}

#[test]
fn every_bad_input_gets_its_findings_and_writes_nothing() {
    let mut failures = Vec::new();
    for name in cases() {
        if let Err(why) = check_case(&name) {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// Lints and builds one case; what went wrong, if anything.
fn check_case(name: &str) -> Result<(), String> {
    let site = case_site(name);
    let started = Instant::now();
    let findings = match fieldnotes::check(site.root(), today()) {
        Ok((_, findings)) => findings,
        Err(error) => return check_refusal(name, &site, &error),
    };
    let elapsed = started.elapsed();
    if elapsed > TIME_BOUND {
        return Err(format!("lint took {elapsed:?}"));
    }
    let mut found: Vec<String> = findings.iter().map(position).collect();
    found.sort();
    let expected = expected(name);
    if found != expected {
        let listing: Vec<String> = findings
            .iter()
            .map(|d| format!("{}  {}", position(d), d.message))
            .collect();
        return Err(format!(
            "expected {expected:#?}\nfound:\n{}",
            listing.join("\n")
        ));
    }
    if let Some(d) = findings
        .iter()
        .find(|d| d.help.as_deref().is_none_or(str::is_empty))
    {
        return Err(format!("{} says nothing about what to do", position(d)));
    }
    let report = site.build();
    print_every_format(&report.diagnostics, &report.files);
    let has_errors = findings.iter().any(|d| d.severity == Severity::Error);
    if has_errors && (report.written || site.out().exists()) {
        return Err("a build with errors wrote output".to_string());
    }
    let leftovers: Vec<_> = fs::read_dir(site.root())
        .expect("site root")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect();
    if !leftovers.is_empty() {
        return Err(format!("the build left {leftovers:?} behind"));
    }
    Ok(())
}

/// A case the site's settings refuse: the refusal is where `expected.txt` says, and a build is
/// refused the same way and writes nothing.
fn check_refusal(name: &str, site: &TestSite, error: &fieldnotes::Error) -> Result<(), String> {
    let fieldnotes::Error::Config {
        path, line, column, ..
    } = error
    else {
        return Err(format!("the site does not open: {error}"));
    };
    let file = path.strip_prefix(site.root()).unwrap_or(path).display();
    let found = vec![format!("CONFIG {file}:{line}:{column}")];
    if found != expected(name) {
        return Err(format!("expected {:#?}\nfound: {error}", expected(name)));
    }
    let options = fieldnotes::BuildOptions {
        today: today(),
        ..fieldnotes::BuildOptions::new(site.root().to_path_buf(), site.out())
    };
    match fieldnotes::build(&options) {
        Err(fieldnotes::Error::Config { .. }) if !site.out().exists() => Ok(()),
        Err(fieldnotes::Error::Config { .. }) => Err("a refused build wrote output".to_string()),
        other => Err(format!("the build was not refused: {other:?}")),
    }
}

/// Every output format prints the findings without panicking, each naming every one.
fn print_every_format(diagnostics: &[Diagnostic], files: &[fieldnotes::source::SourceFile]) {
    let report = Report {
        diagnostics,
        files,
        summary: Summary::of(diagnostics, files.len()),
    };
    for format in [
        Format::Human,
        Format::Json,
        Format::Github,
        Format::Sarif,
        Format::Junit,
    ] {
        let printed = format::render(&report, format, false);
        for d in diagnostics {
            assert!(printed.contains(d.code), "{format:?} lost {}", d.code);
        }
    }
}

// ---- Generated cases -------------------------------------------------------------------

/// The base site's valid note with `id`, `extra` front matter lines and `body`.
fn note(id: &str, extra: &str, body: &str) -> String {
    let base =
        fs::read_to_string(corpus().join("_base/content/research/a-note.md")).expect("base note");
    let fields_end = base[3..].find("\n---\n").expect("closing fence") + 4;
    let fields = base[..fields_end].replace("a-note", id);
    format!("{fields}{extra}---\n\n{body}")
}

fn write(root: &Path, path: &str, contents: impl AsRef<[u8]>) {
    let target = root.join(path);
    fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
    fs::write(target, contents).expect("write");
}

/// 10 MB of body (under the 16 MiB cap), with a broken link on its last line.
fn body_10mb(root: &Path) {
    let line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n";
    let mut body = line.repeat(10 * 1024 * 1024 / line.len());
    body.push_str("\nSee [gone](/research/no-such-note.md).\n");
    write(root, "content/research/big.md", note("big", "", &body));
}

/// A file over the default 16 MiB cap: not read at all.
fn file_over_16mib(root: &Path) {
    let body = "x".repeat(17 * 1024 * 1024);
    write(root, "content/research/huge.md", note("huge", "", &body));
}

/// 1 MB of front matter: over the default 256 KiB cap, so not parsed.
fn front_matter_1mb(root: &Path) {
    let extra = format!("padding: \"{}\"\n", "y".repeat(1024 * 1024));
    write(
        root,
        "content/research/fat.md",
        note("fat", &extra, "Body.\n"),
    );
}

/// 20,000 keys (a repeat at the end): repeats are found in linear time.
fn many_keys(root: &Path) {
    let mut extra: String = (0..20_000).map(|i| format!("k{i}: {i}\n")).collect();
    extra.push_str("k7: again\n");
    write(root, "content/research/keys.md", note("keys", &extra, ""));
}

/// A 100 KB string aliased 1,000 times: 100 MB of text if expanded.
fn alias_text_bomb(root: &Path) {
    let extra = format!(
        "text: &t \"{}\"\nmany: [{}]\n",
        "z".repeat(100 * 1024),
        vec!["*t"; 1000].join(", ")
    );
    write(root, "content/research/bomb.md", note("bomb", &extra, ""));
}

/// 50,000 nested block quotes and a broken link at the bottom.
fn deep_markdown(root: &Path) {
    let body = format!("{} [gone](/research/nowhere.md)\n", "> ".repeat(50_000));
    write(root, "content/research/deep.md", note("deep", "", &body));
}

/// An id of 100,000 characters, in a file whose name is short.
fn long_id(root: &Path) {
    let id = "a".repeat(100_000);
    let text = note(&id, "", "").replacen(&format!("title: A note called {id}"), "title: Long", 1);
    write(root, "content/research/long.md", text);
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// A note that is a symlink to a file outside the site: the machine's password file.
fn symlink_outside(root: &Path) {
    symlink("/etc/passwd", &root.join("content/research/leak.md"));
}

/// A note that is a symlink to itself.
fn symlink_loop(root: &Path) {
    symlink("loop.md", &root.join("content/research/loop.md"));
}

/// A folder that is a symlink to the folder above it.
fn symlink_folder_loop(root: &Path) {
    symlink("..", &root.join("content/research/again"));
}

/// A note that is a symlink to a file that does not exist.
fn symlink_dangling(root: &Path) {
    symlink("gone.md", &root.join("content/research/dangling.md"));
}

/// A note that is a FIFO: reading it would wait forever (and root reads any file, so this is
/// how an unreadable entry is made in CI).
fn fifo(root: &Path) {
    let path = root.join("content/research/pipe.md");
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo");
    assert!(status.success(), "mkfifo failed");
}

// Ids that are no file name on some system: made here, so the repository checks out anywhere.

/// A note whose id and file name are 252 bytes: `<id>.md` is a file name, `<id>.html` too long.
fn id_252_bytes(root: &Path) {
    let id = "a".repeat(252);
    write(
        root,
        &format!("content/research/{id}.md"),
        note(&id, "", ""),
    );
}

/// The base site's capability, as `id` with `title`.
fn capability(id: &str, title: &str) -> String {
    let base = corpus().join("_base/content/capabilities/transports.sse.md");
    let text = fs::read_to_string(base).expect("base capability");
    text.replace("transports.sse", id).replace("SSE", title)
}

/// Names Windows keeps for devices: a note `con`, a guide `PRN.md`, a capability `com1.sse`.
fn id_windows_device(root: &Path) {
    write(root, "content/research/con.md", note("con", "", ""));
    let guide = "---\ntitle: Printers\nsummary: One.\nlast-updated: 2026-11-02\n---\n\nText.\n";
    write(root, "content/guides/PRN.md", guide);
    write(
        root,
        "content/capabilities/com1.sse.md",
        capability("com1.sse", "COM1"),
    );
}

/// Two capabilities whose ids differ only in case: one file on macOS and Windows.
fn id_case_clash(root: &Path) {
    for (id, title) in [
        ("transports.streamableHttp", "One"),
        ("transports.streamablehttp", "Two"),
    ] {
        write(
            root,
            &format!("content/capabilities/{id}.md"),
            capability(id, title),
        );
    }
}
