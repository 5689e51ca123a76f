#!/usr/bin/env bash
# The text the submit workflow posts (a pull request's body, or the comment) from what
# `fieldnotes submit` and `fieldnotes lint` printed, sized to GitHub's limit of 65,536
# characters: each part is an indented code block (inert: no line of it can end the block or
# make a link, image, mention or tag), at most PART_BYTES bytes of lines of at most
# LINE_BYTES bytes each, then a line saying how many lines were left out.
#
#   review-text.sh pr|comment RESULT
#
# RESULT is the folder the submit job left (submit.txt, lint.txt, submitted, linted);
# NUMBER (the issue) and, for a comment, PR (the pull request, when one was made) come from
# the environment.
set -euo pipefail

PART_BYTES=${PART_BYTES:-28000}
LINE_BYTES=${LINE_BYTES:-400}

mode=${1:?usage: review-text.sh pr|comment RESULT}
result=${2:?usage: review-text.sh pr|comment RESULT}
number=${NUMBER:-}
[[ "$number" =~ ^[0-9]*$ ]] || { echo "NUMBER is not a number" >&2; exit 2; }
pr=${PR:-}
[[ "$pr" =~ ^[0-9]*$ ]] || { echo "PR is not a number" >&2; exit 2; }

# quote FILE [tail]: the file (its last lines with `tail`) as an indented code block within
# PART_BYTES, each line cut at LINE_BYTES (a character cut in two is dropped).
quote() {
  local file=$1 from=${2:-head} total kept
  [ -f "$file" ] || return 0
  total=$(wc -l < "$file")
  # awk stops reading at the cap: the writer before it may get SIGPIPE, which is no failure.
  set +o pipefail
  if [ "$from" = tail ]; then tac -- "$file"; else cat -- "$file"; fi \
    | LC_ALL=C awk -v max="$PART_BYTES" -v line_max="$LINE_BYTES" '
        { line = $0
          if (length(line) > line_max) line = substr(line, 1, line_max) " …"
          if (used + length(line) + 5 > max) exit
          used += length(line) + 5; print "    " line }' \
    | if [ "$from" = tail ]; then tac; else cat; fi \
    | iconv -f UTF-8 -t UTF-8 -c > "$file.quoted"
  set -o pipefail
  cat "$file.quoted"
  kept=$(wc -l < "$file.quoted")
  if [ "$total" -gt "$kept" ]; then
    echo
    echo "…and $((total - kept)) more lines left out to fit GitHub's limit: the workflow run's log has them all."
  fi
}

submitted=$(cat "$result/submitted" 2>/dev/null || echo "")
linted=$(cat "$result/linted" 2>/dev/null || echo "")
case "$mode" in
  pr)
    echo "From the support report in #$number (made by \`fieldnotes submit\`)."
    echo
    echo "Review the evidence before merging: open the source at its commit and read the lines."
    echo
    quote "$result/submit.txt"
    ;;
  comment)
    if [ "$submitted" = 0 ] && [ -n "$pr" ]; then
      echo "\`fieldnotes submit\` turned this report into an edit of the support cell; pull request: #$pr."
    elif [ "$submitted" = 0 ]; then
      echo "\`fieldnotes submit\` found nothing to change: the cell already says this."
    else
      echo "\`fieldnotes submit\` could not turn this report into an edit; edit the issue to fix what it says and it runs again."
    fi
    echo
    quote "$result/submit.txt"
    if [ -f "$result/lint.txt" ]; then
      echo
      echo "\`fieldnotes lint\` on the site with the edit (exit status ${linted//[^0-9]/}), its last findings:"
      echo
      quote "$result/lint.txt" tail
    fi
    ;;
  *) echo "usage: review-text.sh pr|comment RESULT" >&2; exit 2 ;;
esac
