#!/usr/bin/env bash
# The learned unit decision scored on pages its model never saw, with the
# real extraction and ../shared/tools/score.py (src/select/units.h).
#
# 1. The page type models that never saw a page (`winnow train --page-types
#    --eval --models`: for wcxb-dev one per fold of its sites, for each
#    other corpus one fitted on the others): MODELS/types/. Every run below
#    types each page with the model that never saw it
#    (--page-type-model), as an unforced run types it, confidence and all,
#    so no page is typed by the shipped page type model (fitted on all of
#    wcxb-dev). Their verdicts, each read as an article below the rule
#    REGION_MIN_CONFIDENCE as the strategies read it: OUT/types.tsv.
# 2. `winnow train --units --types OUT/types.tsv --eval --models` fits the
#    held-out unit models: for each corpus one fitted on the six others
#    (leave one corpus out), for wcxb-dev one per fold of its sites (a
#    page's fold: the FNV-1a hash of its manifest `site` modulo 5, as the
#    page type folds), fitted on every page outside the fold. Its own
#    word-level held-out figures go to OUT/train-eval.txt.
# 3. Each corpus is extracted twice, in groups of one type model (and one
#    unit model):
#    `rules` with the step off (--rule UNIT_MODEL=0: the rules alone, what
#    type_eval.sh calls held-out) and `held-out` with the unit model that
#    never saw the page (--unit-model).
# 4. Both scored: shingle F1, token F1, catastrophic pages (shingle F1 < 0.3);
#    wcxb-dev also by its manifest's page_type.
#
# usage: bench/units_eval.sh [WINNOW] [CORPUS...]
#   WINNOW   the winnow binary (default build/winnow; winnow-train beside it)
#   CORPUS   names under ../shared/bench (default: all seven); the models are
#            always fitted on all seven
#   env OUT  where outputs go (default /tmp/winnow-units-eval)
#   env MODELS  a folder of held-out models from an earlier run (skips 1 and 2;
#            OUT/types.tsv and MODELS/types/ must be there)
#   env BENCH_DIR, SCORER, WINNOW_FLAGS (more options of extract, both runs),
#            TRAIN_FLAGS (more options of winnow-train --units, e.g. --rounds 75)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
scorer=${SCORER:-$here/../shared/tools/score.py}
winnow=$here/build/winnow
out=${OUT:-/tmp/winnow-units-eval}
all=(aeb big9 cleanportaleval l3s-gn1 readability chaos wcxb-dev)
corpora=()
for a in "$@"; do
  case $a in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *)
      if [ ${#corpora[@]} -eq 0 ] && [ -f "$a" ] && [ -x "$a" ]; then winnow=$a
      elif [ -d "$bench/$a/html" ]; then corpora+=("$a")
      else echo "units_eval.sh: no corpus or winnow binary $a" >&2; exit 2
      fi ;;
  esac
done
[ ${#corpora[@]} -gt 0 ] || corpora=("${all[@]}")
winnow=$(cd "$(dirname "$winnow")" && pwd)/$(basename "$winnow")
trainer=$(dirname "$winnow")/winnow-train
mkdir -p "$out"
models=${MODELS:-$out/models}
manifests=()
for c in "${all[@]}"; do manifests+=("$bench/$c/manifest.tsv"); done
if [ -z "${MODELS:-}" ]; then
  rm -rf "$models"
  mkdir -p "$models/types"
  "$winnow" train --page-types --eval sites:wcxb-dev --folds 5 --predictions "$out/predictions-folds.tsv" \
    --models "$models/types" "$bench/wcxb-dev/manifest.tsv" > "$out/predictions.log" 2>&1
  "$winnow" train --page-types --eval corpora --predictions "$out/predictions-corpora.tsv" \
    --models "$models/types" "${manifests[@]}" >> "$out/predictions.log" 2>&1
  gate=$("$winnow" rules | awk -F'\t' '$1 == "REGION_MIN_CONFIDENCE" { print $3 }')
  {
    printf 'corpus\tid\ttype\n'
    awk -F'\t' -v gate="$gate" 'NR > 1 && $1 != "wcxb-dev" { print $1 "\t" $2 "\t" ($4 + 0 >= gate + 0 ? $3 : "article") }' \
      "$out/predictions-corpora.tsv"
    awk -F'\t' -v gate="$gate" 'NR > 1 && $1 == "wcxb-dev" { print $1 "\t" $2 "\t" ($4 + 0 >= gate + 0 ? $3 : "article") }' \
      "$out/predictions-folds.tsv"
  } > "$out/types.tsv"
  # shellcheck disable=SC2086 # TRAIN_FLAGS is split into options
  "$trainer" --units --types "$out/types.tsv" --eval "$out/train-eval.txt" --pages "$out/train-pages.tsv" \
    --models "$models" ${TRAIN_FLAGS:-} "${manifests[@]}"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/units-eval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -d "$models/types" ] || { echo "units_eval.sh: no page type models in $models/types" >&2; exit 2; }

# groups CORPUS RUN: lines "TYPEMODEL<TAB>MODEL<TAB>PATH", MODEL "-" for the rules
groups() {
  python3 "$here/bench/units_groups.py" "$bench/$1" "$1" "$2" "$models"
}

# run CORPUS RUN: the corpus extracted in groups into OUT/RUN/CORPUS
run() {
  local c=$1 r=$2 dest=$out/$2/$1 key t m
  rm -rf "$dest" "$tmp/g"
  mkdir -p "$dest" "$tmp/g"
  groups "$c" "$r" | awk -F'\t' -v g="$tmp/g" '{ k = $1 "|" $2; gsub("/", "%", k); print $3 > (g "/" k) }'
  for key in "$tmp/g"/*; do
    t=$(basename "$key" | cut -d'|' -f1 | tr '%' '/')
    m=$(basename "$key" | cut -d'|' -f2 | tr '%' '/')
    rm -rf "$tmp/in" "$tmp/out"
    mkdir -p "$tmp/in"
    xargs -d '\n' ln -s -t "$tmp/in" < "$key"
    local opt=(--rule UNIT_MODEL=0)
    [ "$m" = - ] || opt=(--unit-model "$m")
    # one output folder a run: a run writes its folder whole
    # shellcheck disable=SC2086 # WINNOW_FLAGS is split into options
    "$winnow" extract -q ${WINNOW_FLAGS:-} --page-type-model "$t" "${opt[@]}" "$tmp/in" -o "$tmp/out" || true
    find "$tmp/out" -maxdepth 1 -name '*.txt' -exec mv -t "$dest" {} +
  done
}

score() { # GOLD PRED [more score.py args]: "shingleF1 tokenF1 (catastrophic)"
  python3 "$scorer" "$@" | awk '/^shingle/ {s=$7} /^token/ {t=$7} /^catastrophic/ {c=$2} END {printf "%s %s (%s)", s, t, c}'
}

printf '%-16s %-22s %s\n' corpus rules held-out
for c in "${corpora[@]}"; do
  run "$c" rules
  run "$c" held-out
  printf '%-16s %-22s %s\n' "$c" "$(score "$bench/$c/gold" "$out/rules/$c")" "$(score "$bench/$c/gold" "$out/held-out/$c")"
done
for c in "${corpora[@]}"; do
  [ "$c" = wcxb-dev ] || continue
  echo "wcxb-dev by page type (token F1, catastrophic): rules | held-out"
  man=$bench/$c/manifest.tsv
  paste <(python3 "$scorer" "$bench/$c/gold" "$out/rules/$c" --by "$man" page_type | sed -n '/^by /,$p' | tail -n +2) \
    <(python3 "$scorer" "$bench/$c/gold" "$out/held-out/$c" --by "$man" page_type | sed -n '/^by /,$p' | tail -n +2) |
    awk -F'\t' '{printf "  %-14s %5s  %s (%s) | %s (%s)\n", $1, $2, $4, $5, $9, $10}'
done
