//! The two workflows `fieldnotes workflows` writes, as YAML text: `submit` (a "Report
//! support" issue turned into a pull request, in a read-only job and a job that writes but
//! runs no fieldnotes) and `lint` (every pull request linted, with the base branch's
//! settings). Both install the released binary with one step, its SHA-256 checked against the
//! release's `SHA256SUMS`. No `${{ }}` stands inside a script: event data reaches scripts
//! through `env:` only; actions are pinned to commits; each job holds only the permissions it
//! uses.

use super::{form::LABEL, Options};

/// `actions/checkout` v4.4.0, `actions/upload-artifact` v4.6.2, `actions/download-artifact`
/// v4.3.0: the commits this repository's own workflows pin.
const CHECKOUT: &str = "actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0";
const UPLOAD: &str = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2";
const DOWNLOAD: &str =
    "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0";

/// The release asset for `ubuntu-latest` runners (`.github/workflows/release.yml` names each
/// `fieldnotes-<target>.tar.gz`).
const ASSET: &str = "fieldnotes-x86_64-unknown-linux-musl.tar.gz";

/// The step that installs the released fieldnotes and puts it on the PATH.
fn install(options: &Options) -> String {
    format!(
        r#"      - name: Install fieldnotes {version} (the release binary, SHA-256 checked)
        env:
          FIELDNOTES_VERSION: "{version}"
          FIELDNOTES_RELEASES: "{releases}"
        run: |
          asset={ASSET}
          base="https://github.com/$FIELDNOTES_RELEASES/releases/download/v$FIELDNOTES_VERSION"
          dir="$RUNNER_TEMP/fieldnotes"
          mkdir -p "$dir"
          for file in "$asset" SHA256SUMS; do
            curl --fail --silent --show-error --location --retry 3 -o "$dir/$file" "$base/$file"
          done
          expected=$(awk -v f="$asset" '$2 == f || $2 == "*" f {{ print $1 }}' "$dir/SHA256SUMS")
          actual=$(sha256sum "$dir/$asset" | cut -d' ' -f1)
          if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
            echo "::error::$asset of v$FIELDNOTES_VERSION does not match its SHA256SUMS line"
            exit 1
          fi
          tar -xzf "$dir/$asset" -C "$dir" fieldnotes
          echo "$dir" >> "$GITHUB_PATH"
          "$dir/fieldnotes" --version
"#,
        version = options.version,
        releases = options.releases,
    )
}

/// The `submit` workflow.
pub fn submit(options: &Options) -> Result<String, String> {
    super::check_options(options)?;
    let site = &options.site_path;
    let install = install(options);
    Ok(format!(
        r#"# A "Report support" issue (.github/ISSUE_TEMPLATE/report-support.yml) turned into a pull
# request: `fieldnotes submit` reads the issue's body and edits the client's support cell,
# `fieldnotes lint` checks the site with it, and the result is commented on the issue. Each
# issue has one branch (support-report/issue-<number>) and one pull request, updated when the
# issue is edited. Written by `fieldnotes workflows`; it runs fieldnotes {version}, the release.
#
# The issue's text is untrusted: it reaches the runner only through the environment (BODY),
# is written to a file with printf, and is read by fieldnotes as data. No `${{{{ }}}}` expression
# stands inside a `run:` script. Least privilege, in two jobs: `submit` reads the issue with a
# read-only token and no persisted credentials, and hands on only the edited client file and
# what fieldnotes printed, as an artifact; `propose` holds the write token, runs no
# fieldnotes, checks the artifact, pushes, opens the pull request and comments (quoting with
# .github/scripts/review-text.sh). The token is on the steps that use it.
#
# A pull request opened with the workflow's GITHUB_TOKEN does not start other workflows: the
# reviewer runs the site's checks (or closes and reopens the pull request).
name: submit
on:
  issues:
    types: [opened, edited]
permissions: {{}}
concurrency:
  group: fieldnotes-submit-${{{{ github.event.issue.number }}}}
  cancel-in-progress: false
jobs:
  submit:
    name: read the report (read-only)
    if: contains(github.event.issue.labels.*.name, '{LABEL}') && github.event.issue.state == 'open'
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read
    steps:
      - uses: {CHECKOUT}
        with:
          persist-credentials: false

{install}
      - name: Turn the report into the edit of a support cell
        env:
          BODY: ${{{{ github.event.issue.body }}}}
          ROOT: "{site}"
        run: |
          out="$RUNNER_TEMP/result"
          mkdir -p "$out/files"
          printf '%s' "$BODY" > "$RUNNER_TEMP/form.md"
          set +e
          fieldnotes --root "$ROOT" submit "$RUNNER_TEMP/form.md" > "$out/submit.txt" 2>&1
          echo "$?" > "$out/submitted"
          cat "$out/submit.txt"
          if [ "$(cat "$out/submitted")" = 0 ]; then
            fieldnotes --root "$ROOT" lint --format concise > "$out/lint.txt" 2>&1
            echo "$?" > "$out/linted"
            cat "$out/lint.txt"
            git ls-files -z --modified -- "$ROOT/content/clients" | xargs -0 -r cp --parents -t "$out/files" --
          fi

      - uses: {UPLOAD}
        with:
          name: submission
          path: ${{{{ runner.temp }}}}/result/
          if-no-files-found: error
          retention-days: 3

  propose:
    name: open the pull request and comment (runs no fieldnotes)
    needs: submit
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      contents: write       # push the branch support-report/issue-<number>
      pull-requests: write  # open or edit its pull request
      issues: write         # comment the result on the issue
    steps:
      - uses: {CHECKOUT}
        with:
          persist-credentials: false

      - uses: {DOWNLOAD}
        with:
          name: submission
          path: ${{{{ runner.temp }}}}/result

      - name: Check the artifact and take the edited client file
        id: take
        env:
          ROOT: "{site}"
        run: |
          result="$RUNNER_TEMP/result"
          clients=content/clients
          [ "$ROOT" = . ] || clients="$ROOT/content/clients"
          refuse() {{ echo "::error::the artifact is refused: $*" >&2; exit 1; }}
          odd=$(find "$result" -mindepth 1 ! -type f ! -type d -printf '%P\n' | head -n 3)
          [ -z "$odd" ] || refuse "entries that are neither files nor folders"
          while IFS= read -r -d '' path; do
            relative=${{path#"$result"/}}
            size=$(stat -c %s -- "$path")
            [ "$size" -le 1048576 ] || refuse "${{relative:0:200}} has more than 1 MiB"
            case "$relative" in
              submit.txt | lint.txt | submitted | linted) ;;
              files/"$clients"/*)
                name=${{relative#files/"$clients"/}}
                [[ "$name" =~ ^[a-z0-9][a-z0-9._-]{{0,99}}\.md$ ]] || refuse "not a client file: ${{name:0:200}}"
                [ -f "$clients/$name" ] && [ ! -L "$clients/$name" ] \
                  || refuse "no such client file in the base: $name"
                install -m 0644 -T -- "$path" "$clients/$name"
                ;;
              *) refuse "an unexpected file: ${{relative:0:200}}" ;;
            esac
          done < <(find "$result" -mindepth 1 -type f -print0)
          for status in submitted linted; do
            value=$(cat "$result/$status" 2>/dev/null || true)
            [[ "$value" =~ ^[0-9]{{0,3}}$ ]] || refuse "$status is not an exit status"
            echo "$status=$value" >> "$GITHUB_OUTPUT"
          done

      - name: Open or update the pull request
        id: pr
        if: steps.take.outputs.submitted == '0'
        env:
          GH_TOKEN: ${{{{ github.token }}}}
          NUMBER: ${{{{ github.event.issue.number }}}}
          ROOT: "{site}"
        run: |
          branch="support-report/issue-$NUMBER"
          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          git switch -C "$branch"
          git add -- "$ROOT/content/clients"
          if git diff --cached --quiet; then
            echo "The cell already says this; nothing to commit."
            exit 0
          fi
          git commit -m "Support report from issue #$NUMBER"
          gh auth setup-git
          git push --force origin "$branch"
          bash .github/scripts/review-text.sh pr "$RUNNER_TEMP/result" > "$RUNNER_TEMP/pr.md"
          pr=$(gh pr list --head "$branch" --state open --json number --jq '.[0].number // empty')
          if [ -z "$pr" ]; then
            gh pr create --head "$branch" --title "Support report from issue #$NUMBER" \
              --body-file "$RUNNER_TEMP/pr.md"
            pr=$(gh pr list --head "$branch" --state open --json number --jq '.[0].number // empty')
          else
            gh pr edit "$pr" --body-file "$RUNNER_TEMP/pr.md"
          fi
          echo "number=$pr" >> "$GITHUB_OUTPUT"

      - name: Comment the result on the issue
        if: always() && steps.take.outputs.submitted != ''
        env:
          GH_TOKEN: ${{{{ github.token }}}}
          NUMBER: ${{{{ github.event.issue.number }}}}
          PR: ${{{{ steps.pr.outputs.number }}}}
        run: |
          bash .github/scripts/review-text.sh comment "$RUNNER_TEMP/result" > "$RUNNER_TEMP/comment.md"
          gh issue comment "$NUMBER" --body-file "$RUNNER_TEMP/comment.md"
"#,
        version = options.version,
    ))
}

/// The `lint` workflow.
pub fn lint(options: &Options) -> Result<String, String> {
    super::check_options(options)?;
    let site = &options.site_path;
    let install = install(options);
    Ok(format!(
        r#"# Every pull request linted: each finding shown at its line in the pull request's files, and
# the job failed on an error. Lint takes limits, theme and rule severities from site.yaml at
# the pull request's base (`--config-from`), which the pull request can only tighten. Written
# by `fieldnotes workflows`; it runs fieldnotes {version}, the release, with a read-only token.
name: lint
on:
  pull_request:
  workflow_dispatch:
permissions: {{}}
concurrency:
  group: fieldnotes-lint-${{{{ github.ref }}}}
  cancel-in-progress: true
jobs:
  lint:
    name: fieldnotes lint
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read
    steps:
      - uses: {CHECKOUT}
        with:
          fetch-depth: 0
          persist-credentials: false

{install}
      - name: Lint the site
        env:
          ROOT: "{site}"
          BASE: ${{{{ github.event.pull_request.base.sha }}}}
        run: |
          settings=()
          if [ -n "$BASE" ]; then
            settings=(--config-from "$BASE")
          fi
          fieldnotes --root "$ROOT" lint --format github "${{settings[@]}}"
"#,
        version = options.version,
    ))
}
