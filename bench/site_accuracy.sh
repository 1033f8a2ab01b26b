#!/usr/bin/env bash
# Site-level accuracy on the multi-page corpora (big9, cleanportaleval):
# pages are grouped by the `site` column of manifest.tsv; every group is
# learned into a fresh site database, then extracted
#   batch:  with the whole group learned (the page itself included)
#   loo:    leave-one-out, --exclude-self (the page's own counts left out)
#   curve K: learn K other pages of the group, extract one held-out page,
#            for every page of the group (learning curve)
# usage: bench/site_accuracy.sh [-m METHOD] [-s SETTING] [CORPUS...]
#   SETTING: batch, loo, page, curve2, curve5, curve9 (default: page batch loo)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
scorer=${SCORER:-$here/../shared/tools/score.py}
winnow=${WINNOW:-$here/build/winnow}
method=auto
settings=()
while getopts "m:s:" opt; do
  case $opt in
    m) method=$OPTARG ;;
    s) settings+=("$OPTARG") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(big9 cleanportaleval)
[ ${#settings[@]} -gt 0 ] || settings=(page batch loo)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-16s %-8s %-12s %s\n' corpus setting method "shingle P R F1 | token P R F1 (pages)"
for c in "${corpora[@]}"; do
  # groups with >= 2 pages; single pages are left to page mode
  mapfile -t groups < <(awk -F'\t' 'NR > 1 {n[$3]++} END {for (g in n) if (n[g] >= 2) print g}' "$bench/$c/manifest.tsv" | sort)
  for setting in "${settings[@]}"; do
    out="$work/$c-$setting"
    mkdir -p "$out"
    ids="$work/$c-$setting.ids"
    : > "$ids"
    for g in "${groups[@]}"; do
      gdir="$work/group"
      rm -rf "$gdir" "$work/db"*
      mkdir -p "$gdir"
      awk -F'\t' -v g="$g" 'NR > 1 && $3 == g {print $1}' "$bench/$c/manifest.tsv" > "$work/members"
      while read -r id; do ln -s "$bench/$c/html/$id.html" "$gdir/$id.html"; echo "$id" >> "$ids"; done < "$work/members"
      # one output folder a group (a run writes its folder whole), moved
      # into the setting's
      gout="$work/gout"
      rm -rf "$gout"
      case $setting in
        page)
          "$winnow" extract -q "$gdir" -o "$gout" || true ;;
        batch)
          "$winnow" learn -q --site G --db "$work/db" "$gdir"
          "$winnow" extract -q --site G --db "$work/db" --mode site --method "$method" "$gdir" -o "$gout" || true ;;
        loo)
          "$winnow" learn -q --site G --db "$work/db" "$gdir"
          "$winnow" extract -q --site G --db "$work/db" --mode site --method "$method" --exclude-self "$gdir" -o "$gout" || true ;;
        curve*)
          k=${setting#curve}
          mapfile -t members < "$work/members"
          n=${#members[@]}
          for ((i = 0; i < n; i++)); do
            rm -rf "$work/train" "$work/db"*
            mkdir -p "$work/train"
            # the k pages after the held-out one, cyclically
            for ((j = 1; j <= k && j < n; j++)); do
              m=${members[$(((i + j) % n))]}
              ln -s "$bench/$c/html/$m.html" "$work/train/$m.html"
            done
            "$winnow" learn -q --site G --db "$work/db" "$work/train"
            "$winnow" extract -q --site G --db "$work/db" --mode site --method "$method" \
              "$bench/$c/html/${members[$i]}.html" -o "$out/${members[$i]}.txt" || true
          done ;;
      esac
      [ -d "$gout" ] && find "$gout" -maxdepth 1 -name '*.txt' -exec mv -t "$out" {} +
    done
    res=$(python3 "$scorer" "$bench/$c/gold" "$out" --ids "$ids")
    sh=$(echo "$res" | awk '/^shingle/ {print $3, $5, $7}')
    # unrounded shingle F1, with score.py's own functions (it prints 3 decimals)
    [ -n "${UNROUNDED:-}" ] && python3 - "$scorer" "$bench/$c/gold" "$out" "$ids" <<'PY'
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("score", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
rows = []
for i in (l.strip() for l in open(sys.argv[4]) if l.strip()):
    g = m.tokens(m.read(os.path.join(sys.argv[2], i + ".txt")))
    p = m.tokens(m.read(os.path.join(sys.argv[3], i + ".txt")))
    rows.append(m.tp_fp_fn(m.shingles(g), m.shingles(p)))
P = sum(m.prec(*r) for r in rows if r[0] + r[1] > 0) / max(1, sum(1 for r in rows if r[0] + r[1] > 0))
R = sum(m.rec(*r) for r in rows if r[0] + r[2] > 0) / max(1, sum(1 for r in rows if r[0] + r[2] > 0))
print("  unrounded shingle F1 %.5f" % (2 * P * R / (P + R) if P + R else 0))
PY
    tk=$(echo "$res" | awk '/^token/ {print $3, $5, $7}')
    printf '%-16s %-8s %-12s %s | %s (%s)\n' "$c" "$setting" "$method" "$sh" "$tk" "$(wc -l < "$ids")"
  done
done
