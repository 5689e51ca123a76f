//! Session marks: each probe session writes its own mark (`fieldnotes-session-<pid>-<n>`)
//! into what it authors for a model to read — its `instructions` and its tool's result —
//! so a line of the scripted model (`fieldnotes probe model`) is joined to, and judged for,
//! the session whose words it carries, not every session whose time it falls in; the lines
//! kept are merged into the transcript in time order ([`merge`]).

use super::protocol::{INSTRUCTIONS_MARK, STRUCTURED_MARK, TEXT_MARK};
use super::transcript::{Entry, Record};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};

/// What every mark begins with.
pub(crate) const PREFIX: &str = "fieldnotes-session-";

/// The note a transcript carries where model-side lines of other sessions were left out;
/// the rules read it back (an instruction seen only in another session decides nothing).
pub(crate) const LEFT_OUT_NOTE: &str = "model-side lines of another probe session left out: ";

/// A new session's mark: the process id and a count, unique among the probes running.
pub(crate) fn new() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{PREFIX}{}-{n}", std::process::id())
}

/// Writes `mark` into the probe's answer `result`: after its instructions' mark, at the end
/// of its tool result's text, and as `structuredContent.session`. Other answers are kept.
pub(crate) fn stamp(result: &mut Value, mark: &str) {
    if let Some(Value::String(text)) = result.get_mut("instructions") {
        *text = text.replace(INSTRUCTIONS_MARK, &format!("{INSTRUCTIONS_MARK} {mark}"));
    }
    if let Some(Value::Array(content)) = result.get_mut("content") {
        for part in content {
            if let Some(Value::String(text)) = part.get_mut("text") {
                if text.starts_with(TEXT_MARK) {
                    text.push_str(&format!(" ({mark})"));
                }
            }
        }
    }
    if let Some(Value::Object(structured)) = result.get_mut("structuredContent") {
        if structured.get("part") == Some(&Value::from(STRUCTURED_MARK)) {
            structured.insert("session".into(), Value::from(mark));
        }
    }
}

/// Every mark in `text`, first seen first, each once.
pub(crate) fn found(text: &str) -> Vec<String> {
    marks_after(text, "")
}

/// The marks that follow an instructions mark in `text`: the sessions whose instructions it
/// holds.
pub(crate) fn instructed(text: &str) -> Vec<String> {
    marks_after(text, &format!("{INSTRUCTIONS_MARK} "))
}

/// The marks in `text` that directly follow `lead`, first seen first, each once.
fn marks_after(text: &str, lead: &str) -> Vec<String> {
    let mut marks: Vec<String> = Vec::new();
    for (at, _) in text.match_indices(&format!("{lead}{PREFIX}")) {
        let mark = read_mark(&text[at + lead.len()..]);
        if mark.len() > PREFIX.len() && !marks.iter().any(|m| m == mark) {
            marks.push(mark.to_string());
        }
    }
    marks
}

/// The scripted model's lines that belong to the session marked `mark`: those that carry its
/// mark, or no mark at all (a request before any instructions or result reached the model).
/// Lines that carry only other sessions' marks are left out, and a note at the first of
/// them says how many and whose.
pub(crate) fn own_lines(model: Vec<Record>, mark: &str) -> Vec<Record> {
    let mut kept = Vec::with_capacity(model.len());
    let mut left_out: Option<(String, usize, Vec<String>)> = None;
    for record in model {
        let marks = match &record.entry {
            Entry::Model { model } => found(&model.to_string()),
            _ => Vec::new(),
        };
        if marks.is_empty() || marks.iter().any(|m| m == mark) {
            kept.push(record);
            continue;
        }
        let (_, count, whose) = left_out.get_or_insert_with(|| (record.t.clone(), 0, Vec::new()));
        *count += 1;
        for m in marks {
            if !whose.contains(&m) {
                whose.push(m);
            }
        }
    }
    if let Some((t, count, whose)) = left_out {
        let note = format!("{LEFT_OUT_NOTE}{count} ({})", whose.join(", "));
        kept.push(Record {
            t,
            entry: Entry::Note { note },
        });
    }
    kept
}

/// The session's records (the probe's in the order given), with each model-side line put
/// before the first record stamped after it: the probe's own order (a request's HTTP line
/// before its message, …) is kept even where its stamps are not monotonic.
pub(crate) fn merge(records: &[Record], mut model: Vec<Record>) -> Vec<Record> {
    model.sort_by(|a, b| a.t.cmp(&b.t));
    let mut model = model.into_iter().peekable();
    let mut out = Vec::with_capacity(records.len() + model.len());
    for record in records {
        while let Some(line) = model.next_if(|m| m.t < record.t) {
            out.push(line);
        }
        out.push(record.clone());
    }
    out.extend(model);
    out
}

/// The mark at the start of `text` (which begins with [`PREFIX`]): digits and dashes after it.
fn read_mark(text: &str) -> &str {
    let tail = &text[PREFIX.len()..];
    let end = tail
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(tail.len());
    text[..PREFIX.len() + end].trim_end_matches('-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marks_are_unique_and_read_back_from_any_text() {
        let (a, b) = (new(), new());
        assert_ne!(a, b);
        let text = format!("x {a}) and \"{b}\" and {a}; {PREFIX} alone");
        assert_eq!(found(&text), vec![a, b]);
    }

    #[test]
    fn stamp_marks_instructions_and_the_tool_result_and_nothing_else() {
        let mark = "fieldnotes-session-7-1";
        let mut init = json!({"instructions": format!("probe ({INSTRUCTIONS_MARK})")});
        stamp(&mut init, mark);
        let instructions = init["instructions"].as_str().unwrap();
        assert_eq!(instructed(instructions), vec![mark.to_string()]);

        let mut result = json!({
            "content": [{"type": "text", "text": format!("{TEXT_MARK}: hi")}],
            "structuredContent": {"echo": "hi", "part": STRUCTURED_MARK},
        });
        stamp(&mut result, mark);
        assert_eq!(
            result["content"][0]["text"],
            format!("{TEXT_MARK}: hi ({mark})")
        );
        assert_eq!(result["structuredContent"]["session"], mark);
        // The tool result's mark is not an instruction's.
        assert!(instructed(&result.to_string()).is_empty());

        // A client's own text that looks like the probe's is left alone.
        let mut other = json!({"content": [{"type": "text", "text": "hello"}], "structuredContent": {"part": "x"}});
        let before = other.clone();
        stamp(&mut other, mark);
        assert_eq!(other, before);
    }

    #[test]
    fn a_session_keeps_its_own_and_unmarked_model_lines_and_notes_the_rest() {
        let line = |t: &str, model: Value| Record {
            t: t.into(),
            entry: Entry::Model { model },
        };
        let (ours, theirs) = ("fieldnotes-session-9-1", "fieldnotes-session-9-2");
        let lines = vec![
            line("10.1", json!({"step": "call", "instructions": false})),
            line("10.2", json!({"instructionsFor": [theirs]})),
            line(
                "10.3",
                json!({"toolResults": [{"session": ours, "output": ours}]}),
            ),
            line("10.4", json!({"toolResults": [{"session": theirs}]})),
        ];
        let kept = own_lines(lines, ours);
        let times: Vec<&str> = kept.iter().map(|r| r.t.as_str()).collect();
        assert_eq!(times, vec!["10.1", "10.3", "10.2"]);
        assert!(matches!(&kept[2].entry,
            Entry::Note { note } if note == &format!("{LEFT_OUT_NOTE}2 ({theirs})")));
    }

    #[test]
    fn model_lines_join_the_transcript_without_reordering_the_probes_lines() {
        let at = |t: &str, note: &str| Record {
            t: t.into(),
            entry: Entry::Note { note: note.into() },
        };
        // The probe wrote b before a although a's stamp is earlier: that order stays.
        let probe = [
            at("10.000002Z", "b"),
            at("10.000001Z", "a"),
            at("10.000009Z", "c"),
        ];
        let model = vec![at("10.000005Z", "m2"), at("10.000000Z", "m1")];
        let merged: Vec<String> = merge(&probe, model)
            .into_iter()
            .map(|r| match r.entry {
                Entry::Note { note } => note,
                _ => String::new(),
            })
            .collect();
        assert_eq!(merged, ["m1", "b", "a", "m2", "c"]);
    }
}
