//! Rename as the editor shows it: the id under the cursor and nothing else, a new id that lint
//! would take, files renamed only by editors that say they can.

use super::{position_after, two_notes, Editor, NOTE, OTHER, OTHER_TEXT};
use serde_json::{json, Value};

/// An editor that renames files, as Neovim 0.7 says so (`resourceOperations`, without
/// `documentChanges`: resource operations go only there).
fn renames_files() -> Value {
    json!({"workspace": {"workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]}}})
}

/// The range from the end of `before` to the end of `before` + `id` in `text`.
fn range_of(text: &str, before: &str, id: &str) -> Value {
    json!({
        "start": position_after(text, before),
        "end": position_after(text, &format!("{before}{id}")),
    })
}

fn rename_at(editor: &mut Editor, marker: &str, new_name: &str) -> Value {
    let params = json!({
        "textDocument": {"uri": editor.uri(OTHER)},
        "position": position_after(OTHER_TEXT, marker),
        "newName": new_name,
    });
    editor.call("textDocument/rename", params)
}

#[test]
fn prepare_rename_answers_the_range_of_the_id_under_the_cursor() {
    let mut editor = Editor::start_with(two_notes(), renames_files());
    let offered = &editor.capabilities["renameProvider"];
    assert_eq!(offered["prepareProvider"], true, "{offered}");
    editor.open(OTHER, OTHER_TEXT);
    let mut prepare = |marker: &str| {
        let at = json!({});
        editor.at("textDocument/prepareRename", OTHER, OTHER_TEXT, marker, at)
    };
    let id = "cline-reads-the-type-key";
    assert_eq!(
        prepare("  - cline-re"),
        range_of(OTHER_TEXT, "related:\n  - ", id),
        "a related entry"
    );
    assert_eq!(
        prepare("(/research/cl"),
        range_of(OTHER_TEXT, "(/research/", id),
        "the id in a link, not the whole link"
    );
    let own = range_of(OTHER_TEXT, "id: ", "cline-falls-back-to-sse");
    assert_eq!(prepare("id: cline-fa"), own, "the note's own id");
    assert_eq!(prepare("id"), own, "anywhere on its `id:` line");
    for elsewhere in ["title: Cline", "clients:\n  - cli", "\nSee [how"] {
        assert_eq!(
            prepare(elsewhere),
            Value::Null,
            "nothing to rename at {elsewhere:?}"
        );
    }
    let refused = rename_at(&mut editor, "title: Cline", "cline-falls-back");
    let why = refused["error"]["message"].as_str().unwrap_or("");
    assert!(why.contains("nothing to rename here"), "{refused}");
    editor.stop();
}

#[test]
fn a_rename_edits_every_mention_and_renames_the_file_for_editors_that_can() {
    let mut editor = Editor::start_with(two_notes(), renames_files());
    editor.open(OTHER, OTHER_TEXT);
    let edit = rename_at(&mut editor, "  - cline-re", "cline-reads-the-kind-key")["result"].clone();
    let changes = edit["documentChanges"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let edits_of = |path: &str| -> Vec<Value> {
        let uri = editor.uri(path);
        (changes.iter())
            .filter(|c| c["textDocument"]["uri"] == uri)
            .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
            .collect()
    };
    assert_eq!(edits_of(OTHER).len(), 2, "related entry and link");
    assert_eq!(edits_of(NOTE).len(), 2, "id and canonical");
    let cell = "content/clients/hermes-agent.md";
    assert_eq!(edits_of(cell).len(), 1, "support cell");
    assert!(changes
        .iter()
        .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
        .all(|e| e["newText"] == "cline-reads-the-kind-key"));
    let rename = changes.last().expect("a file rename");
    assert_eq!(rename["kind"], "rename");
    assert_eq!(rename["oldUri"], editor.uri(NOTE));
    assert_eq!(
        rename["newUri"],
        editor.uri("content/research/cline-reads-the-kind-key.md")
    );
    let taken = rename_at(&mut editor, "  - cline-re", "cline-falls-back-to-sse");
    let why = taken["error"]["message"].as_str().unwrap_or("");
    assert!(why.contains("exists already"), "{taken}");
    editor.stop();
}

#[test]
fn editors_that_cannot_rename_files_get_text_edits_and_are_told_to_rename_the_file() {
    let mut editor = Editor::start(two_notes());
    editor.open(OTHER, OTHER_TEXT);
    let edit = rename_at(&mut editor, "  - cline-re", "cline-reads-the-kind-key")["result"].clone();
    assert!(edit.get("documentChanges").is_none(), "{edit}");
    assert!(!edit.to_string().contains("\"rename\""), "{edit}");
    let changes = edit["changes"].as_object().cloned().unwrap_or_default();
    assert_eq!(
        changes[&editor.uri(OTHER)].as_array().map(Vec::len),
        Some(2)
    );
    assert_eq!(changes[&editor.uri(NOTE)].as_array().map(Vec::len), Some(2));
    let told = editor.shown.join("\n");
    assert!(
        told.contains(
            "rename content/research/cline-reads-the-type-key.md to \
             content/research/cline-reads-the-kind-key.md"
        ),
        "{told}"
    );
    editor.stop();
}

#[test]
fn a_rename_to_the_same_id_edits_nothing() {
    let mut editor = Editor::start_with(two_notes(), renames_files());
    editor.open(OTHER, OTHER_TEXT);
    let same = rename_at(&mut editor, "  - cline-re", "cline-reads-the-type-key");
    let edit = &same["result"];
    assert!(same.get("error").is_none(), "{same}");
    let operations = edit["documentChanges"].as_array().map_or(0, Vec::len);
    let files = edit["changes"].as_object().map_or(0, |c| c.len());
    assert_eq!((operations, files), (0, 0), "{edit}");
    editor.stop();
}

#[test]
fn a_new_id_must_be_one_lint_takes() {
    let mut editor = Editor::start_with(two_notes(), renames_files());
    editor.open(OTHER, OTHER_TEXT);
    let long = "a".repeat(300);
    for bad in [
        "..\\..\\..\\x",
        "../../../x",
        "CON",
        "nul",
        "com1.x",
        long.as_str(),
        "Upper_Case",
        "",
    ] {
        let refused = rename_at(&mut editor, "  - cline-re", bad);
        assert!(refused.get("result").is_none(), "{bad}: {refused}");
        let why = refused["error"]["message"].as_str().unwrap_or("");
        assert!(
            why.starts_with("cannot rename `cline-reads-the-type-key`: id `"),
            "{why}"
        );
    }
    editor.stop();
}
