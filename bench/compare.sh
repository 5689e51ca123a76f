#!/usr/bin/env bash
# Side-by-side build benchmark: fieldnotes, Hugo and Zola on the same generated corpus, plus
# the floor (read every source, copy the output tree). Reports medians of wall time, CPU time
# and peak RSS. Needs: hyperfine and GNU time (Debian: hyperfine, time); hugo and zola are
# used when on PATH (Debian: hugo; Zola: a build of your own).
#
#   bench/compare.sh 1000 10000          # sizes to run; default 1000 10000
#   BENCH_DIR=/dev/shm/fn bench/compare.sh 10000   # put corpora and outputs on tmpfs
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
  if [ ! -d "$src" ]; then
    target/release/examples/gen_corpus --notes "$n" --hugo "$hugo_src" --zola "$zola_src" "$src"
  fi
  echo "== $n notes in $dir"
  cmds=(-n fieldnotes "$fieldnotes --root $src build --out $dir/out-fn-$n --today 2026-11-30")
  if command -v hugo >/dev/null; then
    cmds+=(-n hugo "hugo --quiet -s $hugo_src -d $dir/out-hugo-$n")
  fi
  if command -v zola >/dev/null; then
    cmds+=(-n zola "zola --root $zola_src build -o $dir/out-zola-$n --force")
  fi
  # the floor: read every source file, then copy fieldnotes' output tree
  cmds+=(-n floor "sh -c 'cat \$(find $src/content -type f) >/dev/null && rm -rf $dir/floor-$n && cp -r $dir/out-fn-$n $dir/floor-$n'")
  hyperfine -N -w 1 -r "$runs" --export-markdown "$dir/result-$n.md" "${cmds[@]}" >/dev/null
  cat "$dir/result-$n.md"
  echo "peak RSS: fieldnotes $(measure "$fieldnotes" --root "$src" build --out "$dir/out-fn-$n" --today 2026-11-30)"
  if command -v hugo >/dev/null; then
    echo "peak RSS: hugo $(measure hugo --quiet -s "$hugo_src" -d "$dir/out-hugo-$n")"
  fi
  echo "lint: fieldnotes $(measure "$fieldnotes" --root "$src" lint --today 2026-11-30)"
done
