//! Tests: the workflows (`.github/workflows/`) and the Action (`action.yml`) keep least
//! privilege (SECURITY.md, class "workflows"), checked by [`checker`] over their YAML; the
//! checker itself catches each shape a hostile change (or a careless one) would take; and the
//! scripts that the write jobs run on what read-only jobs left behind refuse what they must
//! (`.github/scripts/take-artifact.sh`) and keep GitHub's size limit
//! (`.github/scripts/review-text.sh`).

pub mod checker;
mod scripts;

use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_workflows_and_the_action_keep_least_privilege() {
    let mut files: Vec<String> = std::fs::read_dir(repo().join(".github/workflows"))
        .expect("the workflows")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .map(|p| {
            format!(
                ".github/workflows/{}",
                p.file_name().expect("name").to_string_lossy()
            )
        })
        .collect();
    files.push("action.yml".to_string());
    assert!(files.len() >= 4, "{files:?}");
    let found: Vec<String> = (files.iter())
        .flat_map(|f| {
            let source = std::fs::read_to_string(repo().join(f)).expect(f);
            checker::check(f, &source)
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A workflow of one job: `permissions` at the top (YAML, or nothing), then the job's lines.
fn workflow(permissions: &str, job: &str) -> String {
    format!("name: t\non: push\n{permissions}\njobs:\n  j:\n    runs-on: ubuntu-latest\n{job}")
}

const CHECKOUT: &str = "      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262\n        with:\n          persist-credentials: false\n";

#[test]
fn the_checker_catches_each_hostile_shape() {
    let read = "permissions:\n  contents: read";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "an input in a script",
            workflow(read, &format!("    steps:\n{CHECKOUT}      - run: echo ${{{{ github.event.inputs.clients }}}}\n")),
            "inside `run:`",
        ),
        (
            "a step output in a script",
            workflow(read, "    steps:\n      - id: a\n        run: echo x=1 >> \"$GITHUB_OUTPUT\"\n      - run: |\n          for id in ${{ steps.a.outputs.x }}; do echo; done\n"),
            "inside `run:`",
        ),
        (
            "npm in a job with a write token",
            workflow("permissions:\n  contents: write", &format!("    steps:\n{CHECKOUT}      - run: npm install some-client\n")),
            "holds a write token",
        ),
        (
            "a client installed where the job-level permissions write",
            workflow(read, &format!("    permissions:\n      pull-requests: write\n    steps:\n{CHECKOUT}      - run: python3 tools/observe/observe.py --prefix p install \"$id\"\n")),
            "holds a write token",
        ),
        (
            "a build with the default token (no permissions at all)",
            workflow("", &format!("    steps:\n{CHECKOUT}      - run: cargo build --release\n")),
            "holds a write token",
        ),
        (
            "write-all at the top",
            workflow("permissions: write-all", "    steps:\n      - run: echo\n"),
            "grant more than read",
        ),
        (
            "a third-party action in a job that writes",
            workflow(read, "    permissions:\n      contents: write\n    steps:\n      - uses: peter-evans/create-pull-request@271a8d0340265f705b14b6d32b9829c1cb33d45e\n"),
            "holds a write token",
        ),
        (
            "a checkout that keeps its credentials",
            workflow(read, "    steps:\n      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262\n"),
            "persist-credentials",
        ),
        (
            "persist-credentials: true",
            workflow(read, "    steps:\n      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262\n        with:\n          persist-credentials: true\n"),
            "persist-credentials",
        ),
        (
            "a token for every step of a job",
            workflow(read, "    env:\n      GH_TOKEN: ${{ github.token }}\n    steps:\n      - run: gh pr list\n"),
            "puts a token in its `env:`",
        ),
        (
            "a secret for every job",
            format!("{}env:\n  T: ${{{{ secrets.PAT }}}}\n", workflow(read, "    steps:\n      - run: echo\n")),
            "a token in the workflow's `env:`",
        ),
        (
            "an action by tag",
            workflow(read, "    steps:\n      - uses: actions/setup-node@v4\n"),
            "not pinned",
        ),
        (
            "an input in a composite action's script",
            "name: a\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: fieldnotes lint ${{ inputs.args }}\n".to_string(),
            "inside `run:`",
        ),
    ];
    for (what, source, expected) in cases {
        let found = checker::check("t.yml", &source);
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{what}: expected a finding with `{expected}`, got {found:?}\n{source}"
        );
    }
    // A read-only job that installs, and a write job that only pushes with its token on the
    // step, pass.
    let good = workflow(
        "permissions: {}",
        &format!(
            "    permissions:\n      contents: read\n    steps:\n{CHECKOUT}      - run: npm ci\n  w:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n{CHECKOUT}      - env:\n          GH_TOKEN: ${{{{ github.token }}}}\n        run: git push\n"
        ),
    );
    assert_eq!(checker::check("t.yml", &good), Vec::<String>::new());
}
