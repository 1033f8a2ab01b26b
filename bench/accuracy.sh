#!/usr/bin/env bash
# Accuracy on the shared evaluation corpora with the reference scorer.
# usage: bench/accuracy.sh [CORPUS...]   (default: all six)
# Writes predictions to $OUT (default /tmp/winnow-acc/NAME) and prints one
# line per corpus: name, shingle P/R/F1, token P/R/F1.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
scorer=${SCORER:-$here/../shared/tools/score.py}
winnow=${WINNOW:-$here/build/winnow}
out=${OUT:-/tmp/winnow-acc}
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(aeb big9 cleanportaleval l3s-gn1 readability chaos)
printf '%-16s %s\n' corpus "shingle P R F1 | token P R F1"
for c in "${corpora[@]}"; do
  rm -rf "$out/$c"; mkdir -p "$out/$c"
  "$winnow" extract -q ${WINNOW_FLAGS:-} "$bench/$c/html" -o "$out/$c" || true
  res=$(python3 "$scorer" "$bench/$c/gold" "$out/$c" --per-page "$out/$c.per-page.tsv")
  sh=$(echo "$res" | awk '/^shingle/ {print $3, $5, $7}')
  tk=$(echo "$res" | awk '/^token/ {print $3, $5, $7}')
  printf '%-16s %s | %s\n' "$c" "$sh" "$tk"
done
