#!/usr/bin/env bash
# Keeps one comment on a pull request with `fieldnotes diff`'s Markdown: the comment this
# action wrote before (found by the hidden marker below, among the comments of the token's
# own bot) is updated; otherwise a new one is made, unless the diff changes nothing.
#
# Environment: GH_TOKEN (a token that may write to the pull request), GITHUB_REPOSITORY,
# PR_NUMBER, DIFF_FILE (the Markdown), and optionally COMMENT_AUTHOR (whose comment is
# updated; default github-actions[bot], the login of the workflow's own token),
# GITHUB_SERVER_URL and GITHUB_RUN_ID (a link to the run). Uses `gh api` (on every
# GitHub-hosted runner). A token that cannot write (a fork's pull request) is a notice, not
# a failure: the diff is in the job summary either way.
set -euo pipefail

MARKER='<!-- fieldnotes-diff -->'
# GitHub refuses a comment past 65,536 characters.
MAX_BYTES=60000

: "${GITHUB_REPOSITORY:?}" "${PR_NUMBER:?}" "${DIFF_FILE:?}"
author="${COMMENT_AUTHOR:-github-actions[bot]}"
if ! [[ "$author" =~ ^[A-Za-z0-9._-]+(\[bot\])?$ ]]; then
  echo "::error::COMMENT_AUTHOR is not a GitHub login: $author" >&2
  exit 2
fi
if ! [[ "$PR_NUMBER" =~ ^[0-9]+$ ]]; then
  echo "::error::PR_NUMBER is not a number: $PR_NUMBER" >&2
  exit 2
fi
if ! command -v gh > /dev/null; then
  echo "::notice::gh is not installed on this runner: the diff is in the job summary only"
  exit 0
fi

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
{
  echo "$MARKER"
  # `fieldnotes diff --format markdown` keeps within 60,000 bytes itself, its HTML balanced;
  # a file past the cap is not cut (a cut could leave a tag open) but left out whole.
  if [ "$(wc -c < "$DIFF_FILE")" -gt "$MAX_BYTES" ]; then
    echo "### fieldnotes diff"
    echo
    echo "The diff is longer than a comment holds ($(wc -c < "$DIFF_FILE") bytes): the job summary has it."
  else
    cat "$DIFF_FILE"
  fi
  if [ -n "${GITHUB_RUN_ID:-}" ]; then
    echo
    echo "<sub>[fieldnotes diff](${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID), updated on every push.</sub>"
  fi
} > "$body"

# The comments by `author` that start with the marker; the first is the one kept.
ids=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
  --jq ".[] | select(.user.login == \"$author\" and (.body | startswith(\"$MARKER\"))) | .id") || {
  echo "::notice::could not list the pull request's comments (the token may not read them): the diff is in the job summary only"
  exit 0
}
existing=$(printf '%s\n' "$ids" | sed -n 1p)

unchanged=false
if head -n 1 "$DIFF_FILE" | grep -q '^### fieldnotes diff: no change'; then
  unchanged=true
fi

if [ -n "$existing" ]; then
  if ! [[ "$existing" =~ ^[0-9]+$ ]]; then
    echo "::error::unexpected comment id: $existing" >&2
    exit 2
  fi
  if gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" \
    -F "body=@$body" > /dev/null; then
    echo "updated comment $existing"
  else
    echo "::notice::could not update comment $existing (the token may be read-only): the diff is in the job summary"
  fi
elif [ "$unchanged" = true ]; then
  echo "nothing changed and no comment to update: no comment made"
elif gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
  -F "body=@$body" > /dev/null; then
  echo "commented the diff"
else
  echo "::notice::could not comment (the token may be read-only, as in a fork's pull request): the diff is in the job summary"
fi
