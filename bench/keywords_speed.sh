#!/usr/bin/env bash
# Speed of `winnow keywords` next to `winnow extract` on the same input, in
# one run: each command over the whole unlabelled corpus (one process, one
# thread, output to /dev/null), ROUNDS times alternately; the median of each
# gives pages/s. keywords = extract + rendering the text + TF-IDF.
# Both the wall-clock time and the CPU time (user + system) are reported:
# on a machine shared with other jobs the CPU time is the steadier figure.
# usage: bench/keywords_speed.sh [ROUNDS] [SOURCE...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
winnow=${WINNOW:-$here/build/winnow}
rounds=${1:-3}
shift || true
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=("$here"/../shared/corpus/sites/*.warc.gz)
pages=$("$winnow" keywords -q -f json "${sources[@]}" | wc -l || true)
declare -A wall cpu
tf=$(mktemp)
trap 'rm -f "$tf"' EXIT
cmds=("extract" "extract -f fulltext" "keywords" "keywords --fulltext")
for ((r = 0; r < rounds; r++)); do
  for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S' -o "$tf" "$winnow" $c -q "${sources[@]}" >/dev/null 2>&1 || true
    read -r e u s < <(tail -1 "$tf")
    wall[$c]="${wall[$c]:-} $e"
    cpu[$c]="${cpu[$c]:-} $(echo "$u + $s" | bc -l)"
  done
done
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-28s %8s %10s %8s %10s   (%s pages, median of %s runs)\n' command wall_s pages/s cpu_s pages/cpu_s "$pages" "$rounds"
for c in "${cmds[@]}"; do
  w=$(median "${wall[$c]}")
  u=$(median "${cpu[$c]}")
  printf '%-28s %8.2f %10.0f %8.2f %10.0f\n' "winnow $c" "$w" "$(echo "$pages / $w" | bc -l)" "$u" "$(echo "$pages / $u" | bc -l)"
done
