#!/usr/bin/env bash
# Page classification with and without template removal (Chakrabarti, Kumar
# & Punera, section 6.3) on chaos: 36 topics (the query, the page name before
# its last '_') of 10 pages each. Multinomial Naive Bayes over bags of words
# (winnow classify), stratified 10-fold cross-validation, on
#   full   the page's full visible text (nothing removed)
#   page   winnow's main text, page mode
#   gold   the human gold text (the ceiling of template removal)
# for every 2-class problem (630 pairs of topics; mean, and the worst pair)
# and for the 36-way problem. Site mode is not run: chaos's 360 pages come
# from 256 sites, and only 3 sites have 5 pages or more (16 pages).
# usage: bench/classify.sh [SEEDS]   (default 1 2 3: the mean over the folds' shuffles)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
winnow=${WINNOW:-$here/build/winnow}
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
c=$bench/chaos
printf '%-6s %-10s %-10s %-10s\n' text pairs worst 36-way
for t in full page gold; do
  case $t in
    full) src=(--fulltext "$c/html") ;;
    page) src=("$c/html") ;;
    gold) src=(--plain "$c/gold") ;;
  esac
  p=0 w=0 m=0
  for s in "${seeds[@]}"; do
    pr=$("$winnow" classify -q --cv 10 --pairs --label-by-name --seed "$s" "${src[@]}" | tail -1)
    mr=$("$winnow" classify -q --cv 10 --label-by-name --seed "$s" "${src[@]}")
    p=$(echo "$p + $(awk '{print $6}' <<<"$pr")" | bc -l)
    w=$(echo "$w + $(awk '{print $8}' <<<"$pr")" | bc -l)
    m=$(echo "$m + $(awk '{print $2}' <<<"$mr")" | bc -l)
  done
  n=${#seeds[@]}
  printf '%-6s %-10.4f %-10.4f %-10.4f\n' "$t" "$(echo "$p / $n" | bc -l)" "$(echo "$w / $n" | bc -l)" "$(echo "$m / $n" | bc -l)"
done
