#!/usr/bin/env bash
# Side-by-side build benchmark: fieldnotes, Hugo and Zola on the same generated corpus, plus
# the floor (read every source, copy the output tree). Reports medians of wall time, CPU time
# and peak RSS. Needs: hyperfine and GNU time (Debian: hyperfine, time); hugo and zola are
# used when on PATH (Debian: hugo; Zola: a build of your own).
#
#   bench/compare.sh 1000 10000          # sizes to run; default 1000 10000
#   BENCH_DIR=/dev/shm/fn bench/compare.sh 10000   # put corpora and outputs on tmpfs
#   REGEN=1 ...                                     # write the corpora again
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000}")
read -r -a sizes <<< "${sizes[*]}"
dir=${BENCH_DIR:-/tmp/fieldnotes-bench}
runs=${RUNS:-5}
mkdir -p "$dir"
cargo build --release --quiet --examples
cargo build --release --quiet
fieldnotes=$PWD/target/release/fieldnotes

# peak RSS in MiB and CPU seconds of one run of a command, from GNU time
measure() {
  /usr/bin/time -f "%M %U %S" -o "$dir/time.txt" "$@" >/dev/null 2>&1
  awk '{printf "%d MiB, cpu %.2f s", $1/1024, $2+$3}' "$dir/time.txt"
}

for n in "${sizes[@]}"; do
  src=$dir/fn-$n hugo_src=$dir/hugo-$n zola_src=$dir/zola-$n
  if [ -n "${REGEN:-}" ]; then rm -rf "$src" "$hugo_src" "$zola_src"; fi
  if [ ! -d "$src" ]; then
    target/release/examples/gen_corpus --notes "$n" --hugo "$hugo_src" --zola "$zola_src" "$src"
  fi
  echo "== $n notes in $dir"
  # Every run is a clean build: its output folder is removed and the disk synced first (not
  # timed), so no run pays for writing back what the one before it wrote.
  # fieldnotes runs cold (no highlight cache: FIELDNOTES_CACHE_DIR is empty), and warm (the
  # cache filled by the run before, as on a developer's machine or a CI cache).
  export FIELDNOTES_CACHE_DIR=
  cmds=(--prepare "rm -rf $dir/out-fn-$n && sync" -n fieldnotes "$fieldnotes --root $src build --quiet --out $dir/out-fn-$n --today 2026-11-30")
  FIELDNOTES_CACHE_DIR=$dir/cache "$fieldnotes" --root "$src" build --quiet --out "$dir/out-fn-$n" --today 2026-11-30
  cmds+=(--prepare "rm -rf $dir/out-fn-$n && sync" -n "fieldnotes (warm cache)" "env FIELDNOTES_CACHE_DIR=$dir/cache $fieldnotes --root $src build --quiet --out $dir/out-fn-$n --today 2026-11-30")
  if command -v hugo >/dev/null; then
    cmds+=(--prepare "rm -rf $dir/out-hugo-$n && sync" -n hugo "hugo --quiet -s $hugo_src -d $dir/out-hugo-$n")
    cmds+=(--prepare "rm -rf $dir/out-hugo-$n && sync" -n "hugo (no highlighting)" "hugo --quiet -s $hugo_src --config $hugo_src/plain.yaml -d $dir/out-hugo-$n")
  fi
  if command -v zola >/dev/null; then
    cmds+=(--prepare "rm -rf $dir/out-zola-$n && sync" -n zola "zola --root $zola_src build -o $dir/out-zola-$n --force")
  fi
  # the floor: read every source file, then copy fieldnotes' output tree
  if [ ! -d "$dir/out-fn-$n" ]; then
    "$fieldnotes" --root "$src" build --quiet --out "$dir/out-fn-$n" --today 2026-11-30
  fi
  cp -r "$dir/out-fn-$n" "$dir/ref-fn-$n.tmp" && rm -rf "$dir/ref-fn-$n" && mv "$dir/ref-fn-$n.tmp" "$dir/ref-fn-$n"
  cmds+=(--prepare "rm -rf $dir/floor-$n && sync" -n floor "sh -c 'find $src/content -type f -exec cat {} + >/dev/null && cp -r $dir/ref-fn-$n $dir/floor-$n'")
  hyperfine -N -w 1 -r "$runs" --export-markdown "$dir/result-$n.md" --export-json "$dir/result-$n.json" "${cmds[@]}" >/dev/null
  cat "$dir/result-$n.md"
  rm -rf "$dir/out-fn-$n"
  echo "peak RSS: fieldnotes $(measure "$fieldnotes" --root "$src" build --quiet --out "$dir/out-fn-$n" --today 2026-11-30)"
  if command -v hugo >/dev/null; then
    rm -rf "$dir/out-hugo-$n"
    echo "peak RSS: hugo $(measure hugo --quiet -s "$hugo_src" -d "$dir/out-hugo-$n")"
  fi
  echo "lint: fieldnotes $(measure "$fieldnotes" --root "$src" lint --today 2026-11-30)"
done
