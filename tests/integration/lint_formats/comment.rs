//! Tests: the Action's pull-request comment (`.github/action/comment.sh`), run against a fake
//! `gh` that logs what it is asked: the comment it wrote before is found by its marker and
//! updated, one is made otherwise (never for a diff that changes nothing), a token that
//! cannot write is a notice, and a diff too long for a comment is cut.

use std::path::Path;
use std::process::{Command, Output};

/// A fake `gh` in a temporary folder: it logs its arguments, answers the comment listing with
/// `ids`, copies each body it is given, and fails writes when `writes_fail`.
struct FakeGh {
    dir: tempfile::TempDir,
}

impl FakeGh {
    fn new(ids: &str, writes_fail: bool) -> FakeGh {
        let dir = tempfile::tempdir().expect("temp");
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).expect("mkdir");
        let script = format!(
            "#!/usr/bin/env bash\nprintf '%s\\n' \"$*\" >> \"$(dirname \"$0\")/../log\"\n\
             case \"$*\" in\n  *--paginate*) printf '{ids}' ;;\n  *--method*)\n    \
             for a in \"$@\"; do case \"$a\" in body=@*) cat \"${{a#body=@}}\" > \
             \"$(dirname \"$0\")/../body\" ;; esac; done\n    exit {} ;;\nesac\n",
            u8::from(writes_fail)
        );
        let gh = bin.join("gh");
        std::fs::write(&gh, script).expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        FakeGh { dir }
    }

    /// Runs comment.sh on the Markdown `diff`.
    fn comment(&self, diff: &str) -> Output {
        let file = self.dir.path().join("diff.md");
        std::fs::write(&file, diff).expect("write");
        let path = format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/action/comment.sh"))
            .env_clear()
            .env("PATH", path)
            .env("GITHUB_REPOSITORY", "acme/kb")
            .env("PR_NUMBER", "7")
            .env("DIFF_FILE", &file)
            .env("GITHUB_RUN_ID", "99")
            .output()
            .expect("bash runs")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
    }

    fn body(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("body")).unwrap_or_default()
    }
}

const A_DIFF: &str =
    "### fieldnotes diff: 1 support cell (1 with a new status) changed since `abc1234`\n";

#[test]
fn the_comment_script_updates_its_own_comment_or_makes_one() {
    // Its own comment is found by the marker among the bot's comments, and updated.
    let gh = FakeGh::new("123\\n456\\n", false);
    let out = gh.comment(A_DIFF);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = gh.log();
    let listing = log.lines().next().expect("a listing");
    assert!(listing.starts_with("api --paginate repos/acme/kb/issues/7/comments --jq"));
    assert!(
        listing.contains("github-actions[bot]") && listing.contains("<!-- fieldnotes-diff -->"),
        "{listing}"
    );
    assert!(log.contains("api --method PATCH repos/acme/kb/issues/comments/123 -F body=@"));
    assert!(!log.contains("POST"), "{log}");
    let body = gh.body();
    assert!(body.starts_with("<!-- fieldnotes-diff -->\n### fieldnotes diff: 1 support cell"));
    assert!(body.contains("/acme/kb/actions/runs/99)"), "{body}");

    // None yet: one is made.
    let gh = FakeGh::new("", false);
    assert!(gh.comment(A_DIFF).status.success());
    assert!(gh
        .log()
        .contains("api --method POST repos/acme/kb/issues/7/comments -F body=@"));

    // Nothing changed and no comment to update: none is made.
    let gh = FakeGh::new("", false);
    let unchanged = "### fieldnotes diff: no change to support cells, notes, pins, clients or \
                     capabilities since `abc1234`\n";
    assert!(gh.comment(unchanged).status.success());
    assert!(!gh.log().contains("--method"), "{}", gh.log());
    // …but one made before says so.
    let gh = FakeGh::new("123\\n", false);
    assert!(gh.comment(unchanged).status.success());
    assert!(gh.log().contains("--method PATCH"));

    // A token that cannot write (a fork's pull request) is a notice, not a failure.
    let gh = FakeGh::new("", true);
    let out = gh.comment(A_DIFF);
    assert!(out.status.success());
    assert!(
        out_text(&out).contains("::notice::could not comment"),
        "{}",
        out_text(&out)
    );

    // A diff past what a comment may hold (fieldnotes keeps within it; another file might
    // not) is never cut, as a cut could leave a tag open: the comment says where it is.
    let gh = FakeGh::new("", false);
    let long = format!(
        "{A_DIFF}<details><summary>x</summary>\n\n{}\n</details>\n",
        "| `x` | yes | no | docs | status |\n".repeat(3000)
    );
    assert!(gh.comment(&long).status.success());
    let body = gh.body();
    assert!(body.len() < 61_000, "{}", body.len());
    assert!(body.contains("the job summary has it"), "{body}");
    assert!(!body.contains("<details>"), "{body}");
}

fn out_text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}
