#!/usr/bin/env bash
# Ablation of the page-mode node classifier on the five accuracy corpora.
#
# Trains the four model kinds (nb, logreg, forest, boost) on the site corpus
# WITHOUT the nine Big9 sites (so big9 is scored on sites the models never
# saw), then runs bench/accuracy.sh once per configuration and prints one
# markdown table of shingle F1 (score.py's "shingle ... F1") per corpus:
#   heuristic scorer alone (--no-model), the binary's built-in model (reference;
#   \`make model\` trains it with the same recipe as the boost row),
#   each trained kind with isotonic smoothing and with --no-smooth,
#   and site mode (batch) from bench/site_accuracy.sh -s batch on big9 and
#   cleanportaleval ("-" for the corpora without site groups).
#
# usage: bench/ablation.sh
# env:   WINNOW      binary (default build/winnow)
#        SITES_DIR   training corpus, one site per WARC (default ../shared/corpus/sites)
#        SEED        training seed (default 1)
#        KEEP        if set, a directory that keeps the models, training logs
#                    and every run's raw accuracy output (default: a temp dir,
#                    removed on exit)
#        BENCH_DIR, SCORER are passed on to accuracy.sh / site_accuracy.sh.
# Everything runs sequentially (one training or extraction at a time).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
winnow=${WINNOW:-$here/build/winnow}
sites=${SITES_DIR:-$here/../shared/corpus/sites}
seed=${SEED:-1}
big9_sites=arstechnica.com,news.yahoo.com,nymag.com,nypost.com,www.bbc.co.uk,www.cnn.com,www.forbes.com,www.foxnews.com,www.latimes.com
corpora=(aeb big9 cleanportaleval l3s-gn1 readability)
kinds=(nb logreg forest boost)

if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
log() { printf '[ablation %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# 1. models
for k in "${kinds[@]}"; do
  log "training $k (seed $seed, Big9 sites excluded)"
  if ! "$winnow" train "$sites"/*.warc.gz --kind "$k" --seed "$seed" --exclude "$big9_sites" \
       -o "$work/$k.model" 2> "$work/$k.train.log"; then
    cat "$work/$k.train.log" >&2
    exit 1
  fi
  grep -E '^(labelled|wrote)' "$work/$k.train.log" >&2 || true
done

# 2. page-mode runs: one accuracy.sh pass per configuration
declare -A f1
labels=()
run_page() { # run_page LABEL FLAGS...
  local label=$1; shift
  local tag=run${#labels[@]}
  labels+=("$label")
  log "accuracy: $label"
  WINNOW="$winnow" WINNOW_FLAGS="$*" OUT="$work/$tag" \
    bash "$here/bench/accuracy.sh" "${corpora[@]}" > "$work/$tag.txt"
  cat "$work/$tag.txt" >&2
  for c in "${corpora[@]}"; do
    f1["$label|$c"]=$(awk -v c="$c" '$1 == c {print $4}' "$work/$tag.txt")
  done
  rm -rf "${work:?}/$tag"   # predictions are large; the scores stay in $tag.txt
}

run_page "heuristic scorer alone (\`--no-model\`)" --no-model
run_page "built-in model (default flags)"
for k in "${kinds[@]}"; do
  run_page "$k, smoothed" --model "$work/$k.model"
  run_page "$k, \`--no-smooth\`" --model "$work/$k.model" --no-smooth
done

# 3. site mode, batch (learn each site group, extract its pages)
log "site accuracy: batch"
WINNOW="$winnow" bash "$here/bench/site_accuracy.sh" -s batch big9 cleanportaleval > "$work/site.txt"
cat "$work/site.txt" >&2
site_label="site mode (batch, \`site_accuracy.sh -s batch\`)"
labels+=("$site_label")
for c in "${corpora[@]}"; do
  v=$(awk -v c="$c" '$1 == c && $2 == "batch" {print $6}' "$work/site.txt")
  f1["$site_label|$c"]=${v:--}
done

# 4. table
printf '\nShingle F1 (page mode unless noted; models trained on %s without the nine Big9 sites, seed %s)\n\n' \
  "$(basename "$sites")" "$seed"
printf '| configuration |'; for c in "${corpora[@]}"; do printf ' %s |' "$c"; done; printf '\n'
printf '|---|'; for c in "${corpora[@]}"; do printf -- '---|'; done; printf '\n'
for l in "${labels[@]}"; do
  printf '| %s |' "$l"
  for c in "${corpora[@]}"; do printf ' %s |' "${f1["$l|$c"]:--}"; done
  printf '\n'
done
