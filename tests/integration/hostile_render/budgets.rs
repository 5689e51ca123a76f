//! Output budgets checked while output is made: a filter that would build gigabytes, thirty
//! citations of one 15 MiB line, an observation citing one transcript line a thousand times.
//! Each build runs with its address space capped at [`MEMORY`]: before the budgets each of
//! these took more (2.5 to 4 GB) and the build was killed.

use super::{build, fieldnotes, guide, run_within, text, with_limits};
use crate::support::{copy_dir, fixtures, TestSite};
use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

/// The address space a hostile build may take: the target is under 2 GB of memory; the
/// allocator and the threads' stacks reserve more address space than they use.
const MEMORY: u64 = 3 << 30;

/// `command` with its address space capped at [`MEMORY`].
fn capped(mut command: Command) -> Command {
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY,
                rlim_max: MEMORY,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    command
}

fn build_capped(site: &TestSite, extra: &[&str]) -> Output {
    let mut command = fieldnotes();
    command.args(["build", "--today", "2026-11-30", "--root", "."]);
    command.args(extra);
    run_within(capped(command), site.root())
}

/// Filters whose one call would build gigabytes (`replace` with a long `to`, `join` of a list
/// that shares its parts, a list doubled in a loop written whole, `~` of it, `str` of it)
/// stop at the page's budget before they build, naming the template and the limit.
#[test]
fn filters_stop_at_the_page_budget_before_they_build() {
    let doubled = "{% set a = [\"xxxxxxxxxxxxxxxx\"] %}{% for i in range(end=40) %}\
                   {% set_global a = [a, a] %}{% endfor %}";
    for (name, template) in [
        (
            "replace",
            "{% set a = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" %}{% set b = a | \
             replace(from=\"a\", to=a) %}{% set c = b | replace(from=\"a\", to=b) %}\
             {{ c | replace(from=\"a\", to=b) }}",
        ),
        ("join", "{% set s = range(end=100000) | join(sep=\"x\") %}{{ range(end=100000) | join(sep=s) }}"),
        ("written whole", &format!("{doubled}{{{{ a }}}}")),
        ("concatenated", &format!("{doubled}{{{{ a ~ \"x\" }}}}")),
        ("as text", &format!("{doubled}{{{{ a | str | length }}}}")),
        ("compared", &format!("{doubled}{{{{ a == a }}}}")),
    ] {
        let site = with_limits("  maxPageBytes: 8000000\n");
        site.write("templates/robots.txt", template);
        let mut command = fieldnotes();
        command.args(["build", "--today", "2026-11-30", "--root", "."]);
        let out = run_within(capped(command), site.root());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains("robots.txt"), "{name}: {stderr}");
        assert!(stderr.contains("limits.maxPageBytes"), "{name}: {stderr}");
    }
    // A template within its budget still builds.
    let site = TestSite::fixture("basic");
    site.write(
        "templates/robots.txt",
        "{% set a = [1, [2, 3]] %}{{ a | join(sep=\", \") }} {{ \"ab\" | replace(from=\"a\", to=\"xy\") }}\n",
    );
    let out = build(&site);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(site.output("robots.txt"), "1, [2, 3] xyb\n");
}

/// A cited repository with one 2 MiB line, cited 40 times from one note (`build
/// --excerpts`): the line is kept once, each excerpt shows at most 16 KiB of it, and the page
/// at most its share of outside text (it was 80 MiB; 15 MiB lines took 2.5 GB to build).
#[test]
fn forty_citations_of_one_huge_line_stay_small() {
    let small: String = (1..=40).map(|i| format!("line_{i} = {i}\n")).collect();
    let huge = format!("{}\n", "x".repeat(2 << 20));
    let repo = super::git_repo(&[
        ("src/min.js", &huge),
        ("src/config.py", &small),
        ("src/main.py", &small),
    ]);
    let site = TestSite::fixture("basic");
    let note = "content/research/alpha-defaults-to-sse.md";
    let text_of = std::fs::read_to_string(site.root().join(note)).expect("note");
    let source = format!(
        "  - url: https://github.com/example/client-a\n    title: min\n    commit: {}\n    \
         path: src/min.js:1\n    date: 2026-09-01\n",
        repo.commit
    );
    let sources = source.repeat(40);
    site.write(
        note,
        &text_of.replacen("sources:\n", &format!("sources:\n{sources}"), 1),
    );
    let out = super::build_with_excerpts(&site, &repo, capped);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output("research/alpha-defaults-to-sse.html");
    assert!(page.contains("xxxxxxxx"), "the excerpt is shown");
    assert!(page.len() < 16 << 20, "the page is {} bytes", page.len());
}

/// An observation whose one result cites one long transcript line (16 KB of JSON) a
/// thousand times: it took 635 MB and failed past `limits.maxPageBytes`.
#[test]
fn an_observation_citing_one_line_a_thousand_times_stays_small() {
    let site = TestSite::fixture("basic");
    copy_dir(&fixtures().join("observed"), site.root());
    let dir = "content/observations";
    let id = "alpha-client-1-3-0-stdio-20261001-120000";
    let md = std::fs::read_to_string(site.root().join(format!("{dir}/{id}.md"))).expect("md");
    let cited = format!("[{}]", vec!["1"; 1000].join(", "));
    site.write(
        &format!("{dir}/{id}.md"),
        &md.replace("messages: [4, 5]", &format!("messages: {cited}")),
    );
    let jsonl =
        std::fs::read_to_string(site.root().join(format!("{dir}/{id}.jsonl"))).expect("jsonl");
    let long: String = (0..850)
        .map(|i| format!("{{\"k{i}\":[1,\"<b>\"]}},"))
        .collect();
    let line = format!(
        "{{\"t\":\"2026-10-01T12:00:00.001Z\",\"dir\":\"in\",\"msg\":{{\"a\":[{}{{}}]}}}}",
        long
    );
    let mut lines: Vec<&str> = jsonl.lines().collect();
    lines[0] = &line;
    site.write(&format!("{dir}/{id}.jsonl"), &(lines.join("\n") + "\n"));
    let out = build_capped(&site, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = site.output(&format!("observations/{id}.html"));
    assert!(page.len() < 64 << 20, "the page is {} bytes", page.len());
    assert!(page.contains("k849"), "the line is shown");
}

/// Guides are not limited by the outside-text share: a long body still builds whole.
#[test]
fn a_long_body_is_not_cut() {
    let site = TestSite::fixture("basic");
    let body = "word ".repeat(2_000_000);
    guide(&site, &body);
    let out = build_capped(&site, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(site.output("guides/big.html").matches("word").count() >= 2_000_000);
}
