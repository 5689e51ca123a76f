//! `fieldnotes probe judge`: the current [`rules`] run again over recorded observations (after
//! a rule changed). Each observation's front matter says how its session was judged
//! (`transport`, `probe.mode`, `outcome`), its `transcript` is read back, and the results the
//! rules give now are compared with the recorded `results`: what would be added, changed or
//! removed is printed. With `--write`, only the `results:` block is replaced, serialized as
//! [`Writer`](super::observation::Writer) writes it, each file renamed into place whole.
//! Nothing is written while any observation could not be judged.
//!
//! [`rules`]: super::rules

use super::observation::results_yaml;
use super::rules::{self, Finding, Seen};
use super::scrub;
use super::session::Transport;
use super::transcript::{records_from_jsonl, BadLine};
use crate::error::{Error, Result};
use crate::field_table::PROBE_MODES;
use crate::parse::frontmatter::{split, Split};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// How one result differs between the file and the rules now.
#[derive(Debug, Clone, PartialEq)]
enum Change {
    Added(&'static str, Finding),
    Changed(&'static str, Value, Finding),
    Removed(String, Value),
}

/// One observation judged again.
#[derive(Debug)]
struct Judged {
    md: PathBuf,
    changes: Vec<Change>,
    /// The file's new text (only its `results:` block replaced), when anything changed.
    rewritten: Option<String>,
}

/// Judges the observations at `paths` (`.md` files, or folders of them) and prints what
/// differs; with `write`, rewrites their `results:` blocks. Exit status 0; an observation
/// that cannot be judged is an error naming it, and then nothing is written.
pub fn judge(paths: &[PathBuf], write: bool) -> Result<u8> {
    let files = observation_files(paths)?;
    let mut judged = Vec::new();
    let mut failed = Vec::new();
    for md in &files {
        match judge_one(md) {
            Ok(one) => judged.push(one),
            Err(error) => failed.push(error),
        }
    }
    for one in &judged {
        print!("{}", describe(one));
    }
    if !failed.is_empty() {
        for error in &failed {
            eprintln!("{}", error.terminal_line());
        }
        return Err(Error::Usage {
            message: format!(
                "{} of {} observations could not be judged{}",
                failed.len(),
                files.len(),
                if write { "; nothing was written" } else { "" }
            ),
        });
    }
    if write {
        for one in &judged {
            if let Some(text) = &one.rewritten {
                replace(&one.md, text)?;
            }
        }
    }
    println!("{}", summary(&judged, write));
    Ok(0)
}

/// The `.md` files named, and those directly in the folders named, in order.
fn observation_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(Error::Usage {
                message: format!(
                    "{}: no such file or folder: give observations' .md files, or a folder \
                     of them",
                    path.display()
                ),
            });
        }
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| Error::io(path, "list the observations", e))?;
            let mut found: Vec<PathBuf> = (entries.flatten())
                .map(|entry| entry.path())
                .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
                .collect();
            found.sort();
            files.extend(found);
        } else if path.extension().is_some_and(|e| e == "md") {
            files.push(path.clone());
        } else {
            return Err(Error::Usage {
                message: format!(
                    "{}: not an observation: give its .md file, or a folder of them",
                    path.display()
                ),
            });
        }
    }
    Ok(files)
}

/// Reads the observation at `md` and its transcript, and judges the transcript again.
fn judge_one(md: &Path) -> Result<Judged> {
    let text = std::fs::read_to_string(md).map_err(|e| Error::io(md, "read the observation", e))?;
    let yaml = front_matter(md, &text)?;
    let front = parse_front(md, &text, yaml.clone())?;
    let seen = seen(&front).map_err(|why| bad(md, &why))?;
    let records = read_transcript(md, &front)?;
    let now = rules::results(&seen, &records);
    let recorded = recorded_results(&front).map_err(|why| bad(md, &why))?;
    let changes = compare(&recorded, &now);
    let rewritten = if changes.is_empty() {
        None
    } else {
        Some(rewrite(md, &text, yaml, &front, &now)?)
    };
    Ok(Judged {
        md: md.to_path_buf(),
        changes,
        rewritten,
    })
}

/// A usage error about the observation at `md`.
fn bad(md: &Path, why: &str) -> Error {
    Error::Usage {
        message: format!("{}: {why}", md.display()),
    }
}

/// Where the YAML between the `---` fences lies.
fn front_matter(md: &Path, text: &str) -> Result<Range<usize>> {
    match split(text) {
        Split::Found { yaml, .. } => Ok(yaml),
        Split::Missing { .. } | Split::Unterminated { .. } => Err(bad(
            md,
            "no front matter between `---` lines: is it an observation fieldnotes probe wrote?",
        )),
    }
}

/// The front matter (`yaml`, in `text`) as a JSON value. It is read with a blank line for
/// each line above it, so that a YAML error's line is the file's.
fn parse_front(md: &Path, text: &str, yaml: Range<usize>) -> Result<Value> {
    let above = text[..yaml.start].matches('\n').count();
    let padded = "\n".repeat(above) + &text[yaml];
    let front: Value = serde_yaml::from_str(&padded).map_err(|e| {
        let at = e
            .location()
            .map_or(String::new(), |l| format!(":{}", l.line()));
        Error::Usage {
            message: format!(
                "{}{at}: the front matter could not be read: {e}; fix the YAML (fieldnotes \
                 lint says more)",
                md.display()
            ),
        }
    })?;
    if front.is_object() {
        Ok(front)
    } else {
        Err(bad(md, "the front matter is not a mapping of fields"))
    }
}

/// What the rules need to know of the session, as the writer gave it: the transport, the
/// probe's mode, and whether a handshake completed (`outcome: session`; an observation
/// without `outcome` is a session, as the content format says).
fn seen(front: &Value) -> std::result::Result<Seen, String> {
    let transport = front.get("transport").and_then(Value::as_str);
    let transport = [Transport::Stdio, Transport::StreamableHttp, Transport::Sse]
        .into_iter()
        .find(|t| Some(t.id()) == transport)
        .ok_or_else(|| {
            format!(
                "transport {} is not stdio, streamableHttp or sse",
                shown(transport)
            )
        })?;
    let mode = front.pointer("/probe/mode").and_then(Value::as_str);
    let mode = (PROBE_MODES.iter().find(|m| Some(**m) == mode)).ok_or_else(|| {
        format!(
            "probe.mode {} is not one of {}",
            shown(mode),
            PROBE_MODES.join(", ")
        )
    })?;
    let handshake = match front.get("outcome").map(Value::as_str) {
        None | Some(Some("session")) => true,
        Some(Some("no-session")) => false,
        Some(other) => {
            return Err(format!(
                "outcome {} is not session or no-session",
                shown(other)
            ))
        }
    };
    Ok(Seen {
        transport,
        mode,
        handshake,
    })
}

fn shown(value: Option<&str>) -> String {
    value.map_or_else(|| "(missing)".to_string(), |v| format!("`{v}`"))
}

/// The transcript the observation names, beside it, read back record by record.
fn read_transcript(md: &Path, front: &Value) -> Result<Vec<super::transcript::Record>> {
    let name = front
        .get("transcript")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty() && !n.contains(['/', '\\']) && *n != "..")
        .ok_or_else(|| bad(md, "`transcript` does not name a .jsonl file beside it"))?;
    let path = md.with_file_name(name);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::Usage {
        message: format!(
            "{}: the transcript {} could not be read ({e}): restore it (git checkout), or \
             record the session again",
            md.display(),
            path.display()
        ),
    })?;
    records_from_jsonl(&text).map_err(|BadLine { line, why }| Error::Usage {
        message: format!(
            "{}:{line}: not a transcript line ({why}): the transcript is damaged; restore it \
             (git checkout), or record the session again",
            path.display()
        ),
    })
}

/// The recorded `results`, by capability id (none when the field is missing or empty).
fn recorded_results(front: &Value) -> std::result::Result<BTreeMap<String, Value>, String> {
    match front.get("results") {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(results)) => Ok(results.clone().into_iter().collect()),
        Some(_) => Err("`results` is not a mapping of capability ids".to_string()),
    }
}

/// What the rules give now against what was recorded, in capability order.
fn compare(
    recorded: &BTreeMap<String, Value>,
    now: &BTreeMap<&'static str, Finding>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for (id, finding) in now {
        match recorded.get(*id) {
            None => changes.push(Change::Added(id, finding.clone())),
            Some(old) if *old != as_value(finding) => {
                changes.push(Change::Changed(id, old.clone(), finding.clone()))
            }
            Some(_) => {}
        }
    }
    for (id, old) in recorded {
        if !now.contains_key(id.as_str()) {
            changes.push(Change::Removed(id.clone(), old.clone()));
        }
    }
    changes.sort_by(|a, b| a.id().cmp(b.id()));
    changes
}

fn as_value(finding: &Finding) -> Value {
    serde_json::to_value(finding).unwrap_or(Value::Null)
}

impl Change {
    fn id(&self) -> &str {
        match self {
            Change::Added(id, _) | Change::Changed(id, _, _) => id,
            Change::Removed(id, _) => id,
        }
    }
}

/// The file's text with its `results:` block replaced by `now`'s, checked: read back, every
/// other field is as it was and the results are `now`'s.
fn rewrite(
    md: &Path,
    text: &str,
    yaml: Range<usize>,
    front: &Value,
    now: &BTreeMap<&'static str, Finding>,
) -> Result<String> {
    let block = results_yaml(now)
        .map(|b| scrub::folders(&b))
        .map_err(|e| bad(md, &format!("could not write its results: {e}")))?;
    let old = results_block(&text[yaml.clone()]);
    let at = yaml.start + old.start..yaml.start + old.end;
    let rewritten = format!("{}{block}{}", &text[..at.start], &text[at.end..]);
    let new_yaml = yaml.start..yaml.end - old.len() + block.len();
    let mut expected = front.clone();
    let mut read_back = parse_front(md, &rewritten, new_yaml)?;
    let results = read_back.as_object_mut().and_then(|f| f.remove("results"));
    expected.as_object_mut().map(|f| f.remove("results"));
    if read_back != expected || results != serde_json::to_value(now).ok() {
        return Err(bad(
            md,
            "its `results:` block could not be replaced alone (is it laid out by hand?); the \
             file is left as it was: move `results:` to the end of the front matter",
        ));
    }
    Ok(rewritten)
}

/// The lines of the top-level `results:` field in `yaml`: from its key to the next line at
/// column 0; an empty range at the end when there is none.
fn results_block(yaml: &str) -> Range<usize> {
    let mut start = None;
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let top_level = !line.starts_with([' ', '\t']);
        match start {
            None if line.starts_with("results:") => start = Some(offset),
            Some(start) if top_level => return start..offset,
            _ => {}
        }
        offset += line.len();
    }
    start.unwrap_or(yaml.len())..yaml.len()
}

/// Writes `text` over `md` whole: a new file beside it, renamed into place, with the old
/// file's permissions.
fn replace(md: &Path, text: &str) -> Result<()> {
    let folder = md.parent().filter(|p| !p.as_os_str().is_empty());
    let folder = folder.unwrap_or(Path::new("."));
    let name = md.file_name().ok_or_else(|| bad(md, "not a file name"))?;
    let permissions = std::fs::metadata(md).ok().map(|m| m.permissions());
    crate::beneath::Root::in_site(folder)?.replace_with(
        Path::new(name),
        text.as_bytes(),
        permissions,
    )
}

/// The observation's differences, one line each under its path; nothing when none.
fn describe(one: &Judged) -> String {
    if one.changes.is_empty() {
        return String::new();
    }
    let mut out = format!("{}\n", one.md.display());
    for change in &one.changes {
        out.push_str(&match change {
            Change::Added(id, new) => format!("  + {id}: {}\n", said(new)),
            Change::Changed(id, old, new) => format!(
                "  ~ {id}: {} → {}{}{}\n",
                field(old, "status"),
                said(new),
                moved_lines(old, new),
                old_why(old, new)
            ),
            Change::Removed(id, old) => format!(
                "  - {id}: {} ({}): {}\n",
                field(old, "status"),
                field(old, "basis"),
                field(old, "why")
            ),
        });
    }
    out
}

/// `yes (did): sent initialize`.
fn said(finding: &Finding) -> String {
    let value = as_value(finding);
    format!(
        "{} ({}): {}",
        field(&value, "status"),
        field(&value, "basis"),
        finding.why
    )
}

fn field(value: &Value, name: &str) -> String {
    match value.get(name) {
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => "-".to_string(),
    }
}

/// ` (was: …)`: the recorded why, when it is not the new one; nothing when it is.
fn old_why(old: &Value, new: &Finding) -> String {
    match field(old, "why") {
        why if why == new.why => String::new(),
        why => format!(" (was: {why})"),
    }
}

/// ` [lines 1, 2 → 1, 3]` when the cited transcript lines changed; nothing when not.
fn moved_lines(old: &Value, new: &Finding) -> String {
    let old_lines = old.get("messages").cloned().unwrap_or(Value::Null);
    let new_lines = serde_json::to_value(&new.messages).unwrap_or(Value::Null);
    if old_lines == new_lines {
        return String::new();
    }
    let list = |v: &Value| match v.as_array() {
        Some(lines) => lines
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        None => "-".to_string(),
    };
    format!(" [lines {} → {}]", list(&old_lines), list(&new_lines))
}

/// `159 observations judged: 3 would change (12 results added, 0 changed, 0 removed)`.
fn summary(judged: &[Judged], write: bool) -> String {
    let count = |pick: fn(&Change) -> bool| {
        (judged.iter().flat_map(|j| &j.changes))
            .filter(|c| pick(c))
            .count()
    };
    let changing = judged.iter().filter(|j| !j.changes.is_empty()).count();
    format!(
        "{} observation{} judged: {changing} {} ({} results added, {} changed, {} removed)",
        judged.len(),
        if judged.len() == 1 { "" } else { "s" },
        if write { "rewritten" } else { "would change" },
        count(|c| matches!(c, Change::Added(..))),
        count(|c| matches!(c, Change::Changed(..))),
        count(|c| matches!(c, Change::Removed(..))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOSE: &str = "goose-1-52-0-streamable-http-2026-07-28-20261207-012342";
    const OAUTH: &str = "claude-code-2-1-332-streamable-http-oauth-no-session-20261206-123753";

    /// A recorded observation (`content/observations/<id>.md` and its transcript) copied into
    /// a temporary folder, its `.md` text changed by `edit`.
    fn copied(id: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, PathBuf) {
        let recorded = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/observations");
        let dir = tempfile::tempdir().expect("temp");
        let md = dir.path().join(format!("{id}.md"));
        let text = std::fs::read_to_string(recorded.join(format!("{id}.md"))).expect("read");
        std::fs::write(&md, edit(&text)).expect("write");
        let jsonl = format!("{id}.jsonl");
        std::fs::copy(recorded.join(&jsonl), dir.path().join(jsonl)).expect("copy");
        (dir, md)
    }

    fn recorded(id: &str) -> String {
        let md =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/observations/{id}.md"));
        std::fs::read_to_string(md).expect("read")
    }

    /// The results block written again over a recorded observation the rules still agree
    /// with (a 2026-07-28 session, an OAuth flow without a session) is the file, byte for
    /// byte. When a rule changes, `fieldnotes probe judge --write` brings them up to date.
    #[test]
    fn an_unchanged_observation_is_written_again_byte_for_byte() {
        for id in [GOOSE, OAUTH] {
            let (_dir, md) = copied(id, str::to_string);
            let judged = judge_one(&md).expect("judged");
            assert_eq!(judged.changes, [], "{id}: run fieldnotes probe judge");
            let text = recorded(id);
            let yaml = front_matter(&md, &text).expect("front matter");
            let front = parse_front(&md, &text, yaml.clone()).expect("parsed");
            let seen = seen(&front).expect("seen");
            let now = rules::results(&seen, &read_transcript(&md, &front).expect("read"));
            assert_eq!(
                rewrite(&md, &text, yaml, &front, &now).expect("rewritten"),
                text
            );
        }
    }

    /// A result left out of the file is reported as added, and writing it back gives the file
    /// the probe wrote.
    #[test]
    fn a_missing_result_is_added_where_the_writer_puts_it() {
        let text = recorded(GOOSE);
        let block = "  core.stateless:\n    status: yes\n";
        let start = text.find(block).expect("a core.stateless result");
        let end = start
            + text[start..]
                .find("  elicitation.form:")
                .expect("the next result");
        let (dir, md) = copied(GOOSE, |t| format!("{}{}", &t[..start], &t[end..]));
        let judged = judge_one(&md).expect("judged");
        assert!(
            matches!(judged.changes.as_slice(), [Change::Added("core.stateless", f)] if f.status == rules::Status::Yes),
            "{:?}",
            judged.changes
        );
        assert!(describe(&judged).contains("  + core.stateless: yes (did): sent requests"));
        assert_eq!(judged.rewritten.as_deref(), Some(text.as_str()));
        replace(&md, &text).expect("written");
        assert_eq!(std::fs::read_to_string(&md).expect("read"), text);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .collect();
        assert_eq!(names.len(), 2, "no temporary file is left");
    }

    /// A changed result says the old status and the new, and the why it had; one the rules no
    /// longer give is removed; the rest of the front matter and the body are kept.
    #[test]
    fn changed_and_removed_results_are_told_apart() {
        let (_dir, md) = copied(GOOSE, |t| {
            t.replacen(
                "  core.stateless:\n    status: yes\n    basis: did\n    why: sent",
                "  core.stateless:\n    status: no\n    basis: did\n    why: was sent",
                1,
            )
            .replacen("results:\n", "results:\n  x.y:\n    status: yes\n", 1)
                + "A person's note.\n"
        });
        let judged = judge_one(&md).expect("judged");
        let said = describe(&judged);
        assert!(
            said.contains("  ~ core.stateless: no → yes (did): sent "),
            "{said}"
        );
        assert!(said.contains("(was: was sent "), "{said}");
        assert!(said.contains("  - x.y: yes (-): -\n"), "{said}");
        let rewritten = judged.rewritten.expect("rewritten");
        assert_eq!(rewritten, recorded(GOOSE) + "A person's note.\n");
    }

    #[test]
    fn bad_input_is_an_error_naming_the_file_and_line() {
        let why = |md: &Path| judge_one(md).expect_err("refused").to_string();
        let (dir, md) = copied(GOOSE, str::to_string);
        let jsonl = dir.path().join(format!("{GOOSE}.jsonl"));
        let lines = std::fs::read_to_string(&jsonl).expect("read");
        std::fs::write(&jsonl, lines.replacen('\n', "\n{not json\n", 2)).expect("write");
        let said = why(&md);
        assert!(
            said.contains(&format!("{GOOSE}.jsonl:2: not a transcript line")),
            "{said}"
        );
        std::fs::remove_file(&jsonl).expect("remove");
        assert!(why(&md).contains("the transcript"), "{}", why(&md));
        let (_dir, md) = copied(GOOSE, |t| {
            t.replacen("outcome: session", "outcome: maybe", 1)
        });
        assert!(
            why(&md).contains("outcome `maybe` is not session"),
            "{}",
            why(&md)
        );
        let (_dir, md) = copied(GOOSE, |t| t.replacen("transport: ", "transport: [", 1));
        assert!(
            why(&md).contains(".md:9: the front matter could not be read"),
            "{}",
            why(&md)
        );
        let (_dir, md) = copied(GOOSE, |t| t.replacen("---\n", "", 1));
        assert!(why(&md).contains("no front matter"), "{}", why(&md));
        let (_dir, md) = copied(GOOSE, |t| t.replacen("transcript: ", "transcript: ../", 1));
        assert!(
            why(&md).contains("does not name a .jsonl file beside it"),
            "{}",
            why(&md)
        );
    }
}
