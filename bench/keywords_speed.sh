#!/usr/bin/env bash
# Speed of `winnow keywords` next to `winnow extract` on the same input, in
# one run: each command over the whole unlabelled corpus (one process, one
# thread, output to /dev/null), ROUNDS times alternately; the median time of
# each gives pages/s. keywords = extract + rendering the text + TF-IDF.
# usage: bench/keywords_speed.sh [ROUNDS] [SOURCE...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
winnow=${WINNOW:-$here/build/winnow}
rounds=${1:-3}
shift || true
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=("$here"/../shared/corpus/sites/*.warc.gz)
pages=$("$winnow" keywords -q -f json "${sources[@]}" | wc -l || true)
declare -A times
tf=$(mktemp)
trap 'rm -f "$tf"' EXIT
cmds=("extract" "extract -f fulltext" "keywords" "keywords --fulltext")
for ((r = 0; r < rounds; r++)); do
  for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e' -o "$tf" "$winnow" $c -q "${sources[@]}" >/dev/null 2>&1 || true
    t=$(tail -1 "$tf")
    times[$c]="${times[$c]:-} $t"
  done
done
printf '%-28s %8s %10s   (%s pages, median of %s runs)\n' command seconds pages/s "$pages" "$rounds"
for c in "${cmds[@]}"; do
  med=$(tr ' ' '\n' <<<"${times[$c]}" | sed '/^$/d' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  printf '%-28s %8.2f %10.0f\n' "winnow $c" "$med" "$(echo "$pages / $med" | bc -l)"
done
