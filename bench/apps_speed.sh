#!/usr/bin/env bash
# Speed of winnow dedup and winnow index next to winnow extract on the same
# input, one after the other in one run, one thread each (issue 13):
# pages per second over the unlabelled corpus (60 WARC files, 7,359 pages).
#   extract       main text of every page to /dev/null (page mode)
#   dedup         main text, sketches, all pairs compared, clusters to /dev/null
#   dedup --lsh   the same with LSH candidates (20 bands of 2 rows)
#   dedup full    -f fulltext
#   index         main text into a new FTS5 index
#   index again   the same pages again: every one unchanged
#   index full    -f fulltext into a new index
# usage: bench/apps_speed.sh [WARC...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
winnow=${WINNOW:-$here/build/winnow}
inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=("$here"/../shared/corpus/sites/*.warc.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pages=$("$winnow" extract -q -f fulltext "${inputs[@]}" | grep -c $'^\f$' || true)
pages=$((pages + 1))
t() {
  local name=$1
  shift
  local s e
  s=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || [ $? -eq 3 ]
  e=$(date +%s.%N)
  awk -v n="$name" -v s="$s" -v e="$e" -v p="$pages" 'BEGIN { printf "%-14s %7.1f s %7.0f pages/s\n", n, e - s, p / (e - s) }'
}
echo "$pages pages, $(nproc) cores, one thread each"
t extract "$winnow" extract -q "${inputs[@]}"
t dedup "$winnow" dedup -q "${inputs[@]}"
t "dedup --lsh" "$winnow" dedup -q --lsh 20 "${inputs[@]}"
t "dedup full" "$winnow" dedup -q -f fulltext "${inputs[@]}"
t index "$winnow" index -q --db "$work/ix.db" "${inputs[@]}"
t "index again" "$winnow" index -q --db "$work/ix.db" "${inputs[@]}"
t "index full" "$winnow" index -q -f fulltext --db "$work/full.db" "${inputs[@]}"
ls -l "$work/ix.db" "$work/full.db" | awk '{ printf "%s %.1f MB\n", $NF, $5 / 1e6 }' | sed "s|$work/||"
