//! The bad-input corpus. Each folder of `tests/fixtures/bad/` (but `_base`) is copied over
//! `_base/`, a clean site; some also get files the test makes at run time (too large to keep,
//! or symlinks and FIFOs git cannot hold: see [`GENERATED`]). Its `expected.txt` lists every
//! finding the case must give, one `CODE file:line:column` a line (`#` starts a comment), and
//! nothing else may be found; or, for a `site.yaml` that stops the site from opening at all,
//! the one line `ERROR file:line:column`. Every finding must say what to do, every output
//! format must print them, lint must finish in bounded time, and a build must write nothing
//! at all. Every case's site also holds a secret beside its content (a `.env` and a
//! `.git/config` with a token, as CI checkouts do), which no output may ever show.

use super::super::support::{copy_dir, fixtures, TestSite};
use fieldnotes::cli::Format;
use fieldnotes::lint::format::{self, Report};
use fieldnotes::{Diagnostic, Error, Severity, Summary};
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
    ("gen-content-symlink-env", content_symlink_env),
    ("gen-static-symlink-outside", static_symlink_outside),
    ("gen-static-symlink-git", static_symlink_git),
    ("gen-static-file-symlink-env", static_file_symlink_env),
    ("gen-templates-symlink-outside", templates_symlink_outside),
    ("gen-theme-symlink-outside", theme_symlink_outside),
    ("gen-site-yaml-symlink-env", site_yaml_symlink_env),
    ("gen-id-252-bytes", id_252_bytes),
    ("gen-id-windows-device", id_windows_device),
    ("gen-id-case-clash", id_case_clash),
];

/// The secret every case's site holds beside its content, in `.env` and `.git/config`.
const SECRET: &str = "ghp_FieldnotesTestSecret0123456789";

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
    write(site.root(), ".env", format!("API_TOKEN={SECRET}\n"));
    write(
        site.root(),
        ".git/config",
        format!("[http]\n\textraheader = AUTHORIZATION: bearer {SECRET}\n"),
    );
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
    let expected = expected(name);
    if expected.iter().any(|line| line.starts_with("ERROR ")) {
        return check_refused_site(&site, &expected);
    }
    let started = Instant::now();
    let findings = site.lint();
    let elapsed = started.elapsed();
    if elapsed > TIME_BOUND {
        return Err(format!("lint took {elapsed:?}"));
    }
    let mut found: Vec<String> = findings.iter().map(position).collect();
    found.sort();
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
    if print_every_format(&report.diagnostics, &report.files).contains(SECRET) {
        return Err("a finding shows the secret".to_string());
    }
    let has_errors = findings.iter().any(|d| d.severity == Severity::Error);
    if has_errors && (report.written || site.out().exists()) {
        return Err("a build with errors wrote output".to_string());
    }
    if site.out().exists()
        && super::super::support::files_under(&site.out())
            .values()
            .any(|bytes| String::from_utf8_lossy(bytes).contains(SECRET))
    {
        return Err("the build published the secret".to_string());
    }
    no_leftovers(&site)
}

/// A case whose `site.yaml` keeps the site from opening: lint and build both fail with the
/// one error `expected` names (`ERROR file:line:column`), and nothing is written.
fn check_refused_site(site: &TestSite, expected: &[String]) -> Result<(), String> {
    let located = |result: Result<(), Error>| match result {
        Err(Error::Config {
            path,
            line,
            column,
            message,
        }) => {
            let file = path.strip_prefix(site.root()).unwrap_or(&path);
            if message.contains(SECRET) {
                return Err("the error shows the secret".to_string());
            }
            Ok(format!("ERROR {}:{line}:{column}", file.display()))
        }
        other => Err(format!("expected a site.yaml error, got {other:?}")),
    };
    let today = super::super::support::today();
    let linted = located(fieldnotes::check(site.root(), today).map(|_| ()))?;
    let mut options = fieldnotes::BuildOptions::new(site.root().to_path_buf(), site.out());
    options.today = today;
    let built = located(fieldnotes::build(&options).map(|_| ()))?;
    for found in [linted, built] {
        if [found.clone()] != expected {
            return Err(format!("expected {expected:?}, found {found}"));
        }
    }
    if site.out().exists() {
        return Err("a site that does not open was built".to_string());
    }
    no_leftovers(site)
}

/// Fails when a build left its staging or swap folders behind.
fn no_leftovers(site: &TestSite) -> Result<(), String> {
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

/// Every output format prints the findings without panicking, each naming every one; what
/// they printed, all formats one after another.
fn print_every_format(
    diagnostics: &[Diagnostic],
    files: &[fieldnotes::text_file::TextFile],
) -> String {
    let report = Report {
        diagnostics,
        files,
        summary: Summary::of(diagnostics, files.len()),
    };
    let mut all = String::new();
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
        all.push_str(&printed);
    }
    all
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

/// A note that is a symlink to the `.env` at the site's root: inside the site, but out of
/// `content/`; never read, so its secret line shows in no code frame.
fn content_symlink_env(root: &Path) {
    symlink("../../.env", &root.join("content/research/leak.md"));
}

/// `static/` a symlink to a folder outside the site.
fn static_symlink_outside(root: &Path) {
    symlink("/etc", &root.join("static"));
}

/// `static/` a symlink to the repository's `.git` (whose `config` holds a token).
fn static_symlink_git(root: &Path) {
    symlink(".git", &root.join("static"));
}

/// A static file that is a symlink to the `.env` beside `static/`.
fn static_file_symlink_env(root: &Path) {
    write(root, "static/style.css", "body {}\n");
    symlink("../.env", &root.join("static/env.txt"));
}

/// `templates/` a symlink to a folder outside the site.
fn templates_symlink_outside(root: &Path) {
    symlink("/etc", &root.join("templates"));
}

/// The theme `site.yaml` names is a symlink to a folder outside the site.
fn theme_symlink_outside(root: &Path) {
    symlink("/etc", &root.join("themes/outside"));
}

/// `site.yaml` a symlink to the `.env` beside it: an error quoting it would show the secret.
fn site_yaml_symlink_env(root: &Path) {
    fs::remove_file(root.join("site.yaml")).expect("remove site.yaml");
    symlink(".env", &root.join("site.yaml"));
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
