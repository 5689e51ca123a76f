//! Tests: an error that stops a command is one line on standard error, with text from the
//! command line, content or a repository shown escaped (no control character reaches the
//! terminal).

use std::process::Command;

#[test]
fn an_error_naming_a_hostile_path_prints_no_control_character() {
    let parent = tempfile::tempdir().expect("temp dir");
    let hostile = parent.path().join("\u{1b}]0;pwned\u{7}\u{1b}[2Jsite");
    let output = Command::new(env!("CARGO_BIN_EXE_fieldnotes"))
        .args(["lint", "--root"])
        .arg(&hostile)
        .output()
        .expect("fieldnotes runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("\\u{1b}[2Jsite"), "{stderr}");
    assert!(
        !stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{stderr:?}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
