//! `fieldnotes probe judge` on a temporary site: an observation the probe wrote, one of its
//! results taken out, is reported, written back by `--write` as the probe wrote it, and
//! judged clean after; bad input is an error naming the file and line, and writes nothing.

use crate::probe::{exits, observations, probe};
use crate::support::TestSite;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output};

/// `fieldnotes --root SITE probe judge ARGS`.
fn judge(site: &TestSite, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .arg("--root")
        .arg(site.root())
        .args(["probe", "judge"])
        .args(args)
        .output()
        .expect("run fieldnotes probe judge")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The basic site with one observation the probe wrote of a client that sets the log level
/// after `initialize`; its `.md` path.
fn site_with_an_observation() -> (TestSite, std::path::PathBuf) {
    let site = TestSite::fixture("basic");
    let out = site.root().join("content/observations");
    let mut child = probe(&out, &["stdio"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut replies = BufReader::new(child.stdout.take().expect("stdout"));
    let mut reply = String::new();
    for (line, answered) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{}}},"clientInfo":{"name":"judged","version":"1.0"}}}"#,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}"#,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            false,
        ),
    ] {
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        if answered {
            reply.clear();
            replies.read_line(&mut reply).expect("an answer");
        }
    }
    drop(stdin);
    assert!(exits(&mut child).success());
    let mds = observations(&out);
    assert_eq!(mds.len(), 1, "{mds:?}");
    (site, mds[0].clone())
}

/// `text` without the result `id` (its key line and the indented lines under it).
fn without_result(text: &str, id: &str) -> String {
    let key = format!("  {id}:\n");
    let start = text.find(&key).unwrap_or_else(|| panic!("{id} in {text}"));
    let rest = &text[start + key.len()..];
    let end = rest
        .split_inclusive('\n')
        .take_while(|line| line.starts_with("    "))
        .map(str::len)
        .sum::<usize>();
    format!("{}{}", &text[..start], &rest[end..])
}

#[test]
fn a_missing_result_is_reported_then_written_back_as_the_probe_wrote_it() {
    let (site, md) = site_with_an_observation();
    let written = std::fs::read_to_string(&md).expect("read");
    assert!(written.contains("  logging.setLevel:\n"), "{written}");
    assert!(
        written.contains("  tasks.list:\n    status: yes\n"),
        "{written}"
    );
    let judged_clean = judge(&site, &[]);
    assert!(judged_clean.status.success(), "{}", stderr(&judged_clean));
    assert_eq!(
        stdout(&judged_clean),
        "1 observation judged: 0 would change (0 results added, 0 changed, 0 removed)\n"
    );

    std::fs::write(&md, without_result(&written, "logging.setLevel")).expect("write");
    let dry = judge(&site, &[]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    let said = stdout(&dry);
    assert!(
        said.contains("  + logging.setLevel: yes (did): sent logging/setLevel\n"),
        "{said}"
    );
    assert!(
        said.ends_with(
            "1 observation judged: 1 would change (1 results added, 0 changed, 0 removed)\n"
        ),
        "{said}"
    );
    assert_ne!(std::fs::read_to_string(&md).expect("read"), written);

    let path = md.to_str().expect("a UTF-8 path");
    let write = judge(&site, &["--write", path]);
    assert!(write.status.success(), "{}", stderr(&write));
    assert!(stdout(&write).contains("1 rewritten (1 results added"));
    assert_eq!(std::fs::read_to_string(&md).expect("read"), written);

    let again = judge(&site, &["--write"]);
    assert_eq!(
        stdout(&again),
        "1 observation judged: 0 rewritten (0 results added, 0 changed, 0 removed)\n"
    );
}

#[test]
fn a_damaged_transcript_is_an_error_naming_its_line_and_nothing_is_written() {
    let (site, md) = site_with_an_observation();
    let written = std::fs::read_to_string(&md).expect("read");
    std::fs::write(&md, without_result(&written, "logging.setLevel")).expect("write");
    let edited = std::fs::read_to_string(&md).expect("read");
    let jsonl = md.with_extension("jsonl");
    let lines = std::fs::read_to_string(&jsonl).expect("read");
    let (first, rest) = lines.split_once('\n').expect("two lines");
    std::fs::write(&jsonl, format!("{first}\n{{\"t\": oops\n{rest}")).expect("write");
    let output = judge(&site, &["--write"]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    let name = jsonl.file_name().and_then(|n| n.to_str()).expect("a name");
    assert!(
        said.contains(&format!("{name}:2: not a transcript line")),
        "{said}"
    );
    assert!(said.contains("restore it"), "{said}");
    assert!(said.contains("nothing was written"), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    assert_eq!(std::fs::read_to_string(&md).expect("read"), edited);

    std::fs::remove_file(&jsonl).expect("remove");
    let output = judge(&site, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("the transcript"),
        "{}",
        stderr(&output)
    );
    let missing = judge(&site, &[&site.root().join("nowhere").to_string_lossy()]);
    assert!(stderr(&missing).contains("no such file or folder"));
    assert!(Path::new(&md).is_file());
}
