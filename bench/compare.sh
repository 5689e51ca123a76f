#!/usr/bin/env bash
# Side-by-side build benchmark: fieldnotes (cold and warm highlight cache), `fieldnotes lint`,
# Hugo and Zola on the same generated corpus, highlighting on for all three, plus the floor
# (read every source, copy the output tree). The commands run INTERLEAVED: each round runs
# every command once, in turn, so all of them see the same machine load (hyperfine would run
# each command's runs back to back). Reports, per command, the median and range over the
# rounds of wall time, CPU time (user + system) and peak RSS, with the load average
# (`uptime`) before each round. Needs GNU time (Debian: time); hugo and zola are used when on
# PATH or named by HUGO= and ZOLA= (Debian: hugo; Zola: a build of your own).
#
#   bench/compare.sh 10000                    # sizes to run; default 1000 10000
#   BENCH_DIR=/dev/shm/fn bench/compare.sh 10000   # put corpora and outputs on tmpfs
#   ROUNDS=5 ...                                    # rounds (default 3), after one warm-up
#   GEN_ARGS="--shape seed" ...                     # gen_corpus's shape (default: real)
#   CORPUS=DIR ...                                  # a fieldnotes site of your own instead
#   HUGO_SRC=DIR ZOLA_SRC=DIR ...                   # its notes as Hugo and Zola sites
#                                                   #   (bench/to_other_ssgs.py writes them)
#   REGEN=1 ...                                     # write the corpora again
#   FIELDNOTES=path/to/fieldnotes ...               # a binary other than target/release's
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000}")
read -r -a sizes <<< "${sizes[*]}"
dir=${BENCH_DIR:-/tmp/fieldnotes-bench}
rounds=${ROUNDS:-3}
hugo=${HUGO:-$(command -v hugo || true)}
zola=${ZOLA:-$(command -v zola || true)}
read -r -a gen_args <<< "${GEN_ARGS:-}"
mkdir -p "$dir"
if [ -z "${FIELDNOTES:-}" ]; then
  cargo build --release --quiet --example gen_corpus
  cargo build --release --quiet
fi
fieldnotes=${FIELDNOTES:-$PWD/target/release/fieldnotes}

for n in "${sizes[@]}"; do
  src=${CORPUS:-$dir/fn-$n} hugo_src=${HUGO_SRC:-$dir/hugo-$n} zola_src=${ZOLA_SRC:-$dir/zola-$n}
  if [ -n "${REGEN:-}" ] && [ -z "${CORPUS:-}" ]; then rm -rf "$src" "$dir/hugo-$n" "$dir/zola-$n"; fi
  if [ ! -d "$src" ]; then
    target/release/examples/gen_corpus "${gen_args[@]}" --notes "$n" --hugo "$hugo_src" --zola "$zola_src" "$src"
  fi
  echo "== $n notes: $src"
  # name|command: every run is a clean build into a fresh folder (removed and synced first,
  # not timed), so no run pays for writing back what the one before it wrote. fieldnotes runs
  # cold (no highlight cache: FIELDNOTES_CACHE_DIR is empty) and warm (the cache filled by
  # the run before, as on a developer's machine or a CI cache).
  cmds=(
    "fieldnotes cold|env FIELDNOTES_CACHE_DIR= $fieldnotes --root $src build --quiet --out $dir/out-fn-$n --today 2026-11-30"
    "fieldnotes warm|env FIELDNOTES_CACHE_DIR=$dir/cache $fieldnotes --root $src build --quiet --out $dir/out-fn-$n --today 2026-11-30"
    "fieldnotes lint|$fieldnotes --root $src lint --today 2026-11-30 --format json"
  )
  if [ -n "$hugo" ] && [ -d "$hugo_src" ]; then
    cmds+=("hugo|$hugo --quiet -s $hugo_src -d $dir/out-hugo-$n")
  fi
  if [ -n "$zola" ] && [ -d "$zola_src" ]; then
    cmds+=("zola|$zola --root $zola_src build -o $dir/out-zola-$n --force")
  fi
  # the floor: read every source file, then copy fieldnotes' output tree
  env FIELDNOTES_CACHE_DIR="$dir/cache" "$fieldnotes" --root "$src" build --quiet --out "$dir/out-fn-$n" --today 2026-11-30
  rm -rf "$dir/ref-fn-$n" && cp -r "$dir/out-fn-$n" "$dir/ref-fn-$n"
  cmds+=("floor|sh -c 'find $src/content -type f -exec cat {} + >/dev/null && cp -r $dir/ref-fn-$n $dir/floor-$n'")
  results=$dir/rounds-$n.tsv
  : > "$results"
  for round in $(seq 0 "$rounds"); do
    load=$(uptime | sed 's/.*load average: //')
    echo "round $round (0 is the warm-up), load average $load"
    for entry in "${cmds[@]}"; do
      name=${entry%%|*} cmd=${entry#*|}
      rm -rf "$dir/out-fn-$n" "$dir/out-hugo-$n" "$dir/out-zola-$n" "$dir/floor-$n" && sync
      /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" sh -c "$cmd" >/dev/null 2>"$dir/stderr.txt" \
        || { [ "$name" = "fieldnotes lint" ] || { cat "$dir/stderr.txt"; exit 1; }; }
      if [ "$round" -gt 0 ]; then
        read -r wall user sys rss < <(tail -1 "$dir/time.txt")
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$rss" "$load" >> "$results"
      fi
    done
  done
  echo
  echo "| $n notes, $rounds interleaved rounds | wall, median (range) | CPU, median | peak RSS, median |"
  echo "|---|---|---|---|"
  for entry in "${cmds[@]}"; do
    name=${entry%%|*}
    # one column of this command's rows, sorted; the middle line of a sorted list
    col() { awk -F'\t' -v name="$name" -v c="$1" '$1 == name { print $c }' "$results" | sort -n; }
    mid() { local all; all=$(cat); sed -n "$(( ($(wc -l <<< "$all") + 1) / 2 ))p" <<< "$all"; }
    printf '| %s | %.2f s (%.2f–%.2f) | %.2f s | %d MiB |\n' "$name" "$(col 2 | mid)" \
      "$(col 2 | head -1)" "$(col 2 | tail -1)" "$(col 3 | mid)" "$(( $(col 4 | mid) / 1024 ))"
  done
  echo "load averages before each round: $(cut -f5 "$results" | sort -u | tr '\n' ';')"
  rm -rf "$dir/out-fn-$n" "$dir/out-hugo-$n" "$dir/out-zola-$n" "$dir/floor-$n" "$dir/ref-fn-$n"
done
