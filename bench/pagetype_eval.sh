#!/usr/bin/env bash
# The page type model measured on pages it was not trained on (bench/RESULTS.md,
# "Page type"), with `winnow train --page-types` (cli/cmd_train_pagetype.c):
#   1. wcxb-dev alone, 5 folds split by site (column `site` of its manifest),
#      each fold scored by a model fitted on the other four: accuracy and the
#      confusion matrix over all folds;
#   2. leave one corpus out over the seven bench corpora: each scored by a
#      model fitted on the other six (the six article corpora: the share
#      predicted article).
# wcxb-dev's `collection` and `listing` both count as listing. Then, with
# --write, the shipped model: fitted on all seven corpora.
#
# usage: bench/pagetype_eval.sh [WINNOW] [--write]
#   WINNOW   the winnow binary (default build/winnow)
#   --write  also rewrite models/pagetype.wmodel (rebuild to embed it)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$repo/build/winnow}
bench=${BENCH:-$repo/../shared/bench}
corpora=(wcxb-dev aeb big9 cleanportaleval l3s-gn1 readability chaos)
manifests=()
for c in "${corpora[@]}"; do manifests+=("$bench/$c/manifest.tsv"); done
echo "== wcxb-dev, 5 folds by site"
"$bin" train --page-types --eval sites:wcxb-dev --folds 5 "$bench/wcxb-dev/manifest.tsv"
echo
echo "== leave one corpus out"
"$bin" train --page-types --eval corpora "${manifests[@]}"
if [ "${2:-}" = "--write" ]; then
    "$bin" train --page-types -v -o "$repo/models/pagetype.wmodel" "${manifests[@]}"
fi
