#!/usr/bin/env bash
# Page classification with and without template removal (Chakrabarti, Kumar
# & Punera, section 6.3) on chaos: 36 topics (the query, the page name before
# its last '_') of 10 pages each. Multinomial Naive Bayes over bags of words
# (winnow classify), stratified 10-fold cross-validation, on
#   full   the page's full visible text (nothing removed)
#   page   winnow's main text, page mode
#   gold   the human gold text (the ceiling of template removal)
# for every 2-class problem (630 pairs of topics, the mean accuracy) and for
# the 36-way problem, each with 9 training pages a topic (10-fold CV) and
# with 1 (inverted 10-fold CV: train on one fold, test on the other nine). Site mode is not run: chaos's 360 pages come
# from 256 sites, and only 3 sites have 5 pages or more (16 pages).
# usage: bench/classify.sh [SEEDS]   (default 1 2 3: the mean over the folds' shuffles)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
winnow=${WINNOW:-$here/build/winnow}
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
c=$bench/chaos
# columns: 2-class mean accuracy with 10-fold CV (9 training pages a topic)
# and with inverted 10-fold CV (--invert: 1 training page a topic, 9 tested),
# then the same for the 36-way problem
printf '%-6s %8s %8s %8s %8s\n' text pairs pairs-1 36-way 36-way-1
for t in full page gold; do
  case $t in
    full) src=(--fulltext "$c/html") ;;
    page) src=("$c/html") ;;
    gold) src=(--plain "$c/gold") ;;
  esac
  row=()
  for v in "--pairs" "--pairs --invert" "" "--invert"; do
    sum=0
    for s in "${seeds[@]}"; do
      # shellcheck disable=SC2086
      out=$("$winnow" classify -q --cv 10 $v --label-by-name --seed "$s" "${src[@]}" | tail -1)
      case $out in
        pairs*) a=$(awk '{print $6}' <<<"$out") ;;
        *) a=$(awk '{print $2}' <<<"$out") ;;
      esac
      sum=$(echo "$sum + $a" | bc -l)
    done
    row+=("$(echo "100 * $sum / ${#seeds[@]}" | bc -l)")
  done
  printf '%-6s %8.2f %8.2f %8.2f %8.2f\n' "$t" "${row[@]}"
done
