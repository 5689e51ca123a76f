#!/usr/bin/env bash
# Checks what the read-only `observe` job left as artifacts, then copies the observations into
# the checkout. It runs in the job that holds a write token, so it trusts nothing it reads:
#
#   take-artifact.sh OBSERVATIONS REPORT
#
# OBSERVATIONS (the `observations` artifact, downloaded) may hold only folders and regular
# files, each at content/observations/<plain names>, at most MAX_FILES files of at most
# MAX_FILE_BYTES each and MAX_TOTAL_BYTES in all. REPORT (the `report` artifact) may hold only
# the regular files observed.jsonl and lint.txt, each at most MAX_REPORT_BYTES. Anything else
# (a symlink, a FIFO, a device, a name with `..`, a hidden name, a file elsewhere, a file too
# large) refuses the whole artifact: nothing is copied. Copies are regular files with mode
# 0644, written with `install`, which replaces a file rather than writing through a link.
set -euo pipefail

MAX_FILES=${MAX_FILES:-2000}
MAX_FILE_BYTES=${MAX_FILE_BYTES:-16777216}    # limits.maxFileBytes
MAX_TOTAL_BYTES=${MAX_TOTAL_BYTES:-104857600} # 100 MiB
MAX_REPORT_BYTES=${MAX_REPORT_BYTES:-8388608}

observations=${1:?usage: take-artifact.sh OBSERVATIONS REPORT}
report=${2:?usage: take-artifact.sh OBSERVATIONS REPORT}
name_re='^content/observations/([A-Za-z0-9][A-Za-z0-9._-]{0,127}/){0,4}[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'

refuse() {
  echo "::error::the artifact is refused: $*" >&2
  exit 1
}

for dir in "$observations" "$report"; do
  [ -d "$dir" ] && [ ! -L "$dir" ] || refuse "$dir is not a folder"
  odd=$(find "$dir" -mindepth 1 ! -type f ! -type d -printf '%P\n' | head -n 5)
  [ -z "$odd" ] || refuse "it holds entries that are neither files nor folders (a symlink, a FIFO, a device): ${odd//$'\n'/, }"
done

count=0
total=0
while IFS= read -r -d '' path; do
  relative=${path#"$observations"/}
  [[ "$relative" =~ $name_re ]] || refuse "a file outside content/observations/ or with a name that is not plain: ${relative:0:200}"
  case "/$relative/" in */../* | */./*) refuse "a name with . or ..: ${relative:0:200}" ;; esac
  size=$(stat -c %s -- "$path")
  [ "$size" -le "$MAX_FILE_BYTES" ] || refuse "$relative has $size bytes, more than $MAX_FILE_BYTES"
  count=$((count + 1))
  total=$((total + size))
  [ "$count" -le "$MAX_FILES" ] || refuse "more than $MAX_FILES files"
  [ "$total" -le "$MAX_TOTAL_BYTES" ] || refuse "more than $MAX_TOTAL_BYTES bytes in all"
done < <(find "$observations" -mindepth 1 -type f -print0)

while IFS= read -r -d '' path; do
  relative=${path#"$report"/}
  case "$relative" in observed.jsonl | lint.txt) ;; *) refuse "the report holds ${relative:0:200}, not only observed.jsonl and lint.txt" ;; esac
  size=$(stat -c %s -- "$path")
  [ "$size" -le "$MAX_REPORT_BYTES" ] || refuse "$relative has $size bytes, more than $MAX_REPORT_BYTES"
done < <(find "$report" -mindepth 1 -type f -print0)
for name in observed.jsonl lint.txt; do
  [ -f "$report/$name" ] || : > "$report/$name"
done

# The checkout is the base branch's; still, nothing is written through a link in it.
for dir in content content/observations; do
  [ ! -L "$dir" ] || refuse "$dir is a symlink in the checkout"
done
while IFS= read -r -d '' path; do
  relative=${path#"$observations"/}
  install -D -m 0644 -T -- "$path" "$relative"
done < <(find "$observations" -mindepth 1 -type f -print0)
echo "took $count observation file(s), $total bytes"
