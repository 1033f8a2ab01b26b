#!/usr/bin/env bash
# Extraction scored with page types that no model saw the page of: the honest
# figures of a per-type selection (docs/internals.md, "Adding a page-type
# strategy"). The shipped page type model (models/pagetype.wmodel) was fitted
# on all seven bench corpora, wcxb-dev's labels included, so a plain run types
# wcxb-dev in-sample. Here each page's type comes from
# `winnow train --page-types --eval ... --predictions` (cli/cmd_train_pagetype.c):
#   wcxb-dev  5 folds split by site (`--eval sites:wcxb-dev --folds 5`, the
#             folds of bench/pagetype_eval.sh: a page's fold is the FNV-1a hash
#             of its manifest `site` modulo 5), each page typed by the model
#             fitted on the other four folds of wcxb-dev ONLY, as that eval
#             does (winnow_pt_evaluate trains within the corpus; the six
#             article corpora are not added to the folds' training);
#   the six others (aeb big9 cleanportaleval l3s-gn1 readability chaos):
#             leave one corpus out (`--eval corpora` over all seven), each page
#             typed by the model fitted on the other six corpora (wcxb-dev
#             among them).
# The pages of each corpus are then extracted in groups of one predicted type,
# `WINNOW extract -q --page-type T $WINNOW_FLAGS` on a folder of links to them,
# the outputs gathered in one folder per corpus (ID.txt) and scored with
# ../shared/tools/score.py (wcxb-dev also by its manifest's page_type).
#
# Runs, each printed per corpus as shingle F1, token F1 and catastrophic pages
# (shingle F1 < 0.3):
#   plain     `WINNOW extract` as bench/accuracy.sh runs it: the shipped model's
#             own types (in-sample for wcxb-dev)
#   held-out  the types above
#   oracle    (with --oracle) every page forced to its true type: wcxb-dev's
#             manifest page_type, `collection` as `listing` (as the page type's
#             training does: the stage has no collection), and article for the
#             six other corpora (their pages are all articles); the upper bound
#             of the per-type strategies given a perfect page typer
# then, for wcxb-dev, the per-type table (by its manifest's page_type) of each.
#
# usage: bench/type_eval.sh [--oracle] [WINNOW] [CORPUS...]
#   WINNOW    the winnow binary (default build/winnow; also env WINNOW)
#   CORPUS    names under ../shared/bench (default: all seven)
#   env WINNOW_FLAGS  more options of extract (every run); BENCH_DIR, SCORER
#   env REGION_GATE  the page type confidence below which a held-out type is
#             read as article (default: the rule REGION_MIN_CONFIDENCE of WINNOW)
#   env OUT   where outputs go (default /tmp/winnow-type-eval): OUT/RUN/CORPUS/,
#             OUT/RUN/CORPUS.per-page.tsv (as accuracy.sh), OUT/predictions-*.tsv
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
scorer=${SCORER:-$here/../shared/tools/score.py}
winnow=${WINNOW:-$here/build/winnow}
out=${OUT:-/tmp/winnow-type-eval}
all=(wcxb-dev aeb big9 cleanportaleval l3s-gn1 readability chaos)
oracle=0
corpora=()
for a in "$@"; do
  case $a in
    --oracle) oracle=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "type_eval.sh: unknown option $a" >&2; exit 2 ;;
    *)
      if [ ${#corpora[@]} -eq 0 ] && [ -f "$a" ] && [ -x "$a" ]; then winnow=$a
      elif [ -d "$bench/$a/html" ]; then corpora+=("$a")
      elif [[ $a == */* ]]; then echo "type_eval.sh: no winnow binary at $a" >&2; exit 2
      else echo "type_eval.sh: no corpus $bench/$a" >&2; exit 2
      fi ;;
  esac
done
[ ${#corpora[@]} -gt 0 ] || corpora=("${all[@]}")
[ -x "$winnow" ] || { echo "type_eval.sh: no winnow binary at $winnow" >&2; exit 2; }
winnow=$(cd "$(dirname "$winnow")" && pwd)/$(basename "$winnow")
runs=(plain held-out)
[ $oracle -eq 1 ] && runs+=(oracle)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/type-eval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
mkdir -p "$out"
rm -rf "$out/plain" "$out/held-out" "$out/oracle" "$out"/predictions-*

# 1. the held-out types, in the background while the plain runs go
want_folds=0 want_loco=0
for c in "${corpora[@]}"; do
  if [ "$c" = wcxb-dev ]; then want_folds=1; else want_loco=1; fi
done
pids=()
if [ $want_folds -eq 1 ]; then
  "$winnow" train --page-types --eval sites:wcxb-dev --folds 5 --predictions "$out/predictions-folds.tsv" \
    "$bench/wcxb-dev/manifest.tsv" > "$out/predictions-folds.log" 2>&1 &
  pids+=($!)
fi
if [ $want_loco -eq 1 ]; then
  manifests=()
  for c in "${all[@]}"; do manifests+=("$bench/$c/manifest.tsv"); done
  "$winnow" train --page-types --eval corpora --predictions "$out/predictions-corpora.tsv" "${manifests[@]}" \
    > "$out/predictions-corpora.log" 2>&1 &
  pids+=($!)
fi

# extract DIR OUTDIR [FLAG...]: as accuracy.sh (a page without content exits
# 3, a failed page 1: scored as what was written); a usage error stops
extract() {
  local in=$1 o=$2
  shift 2
  local rc=0
  # shellcheck disable=SC2086 # WINNOW_FLAGS is split into options, as in accuracy.sh
  "$winnow" extract -q "$@" ${WINNOW_FLAGS:-} "$in" -o "$o" || rc=$?
  if [ $rc -eq 2 ]; then echo "type_eval.sh: winnow extract $* $in: usage error" >&2; exit 2; fi
  return 0
}

# typed CORPUS RUN TYPES: the corpus's pages extracted in groups of one type;
# TYPES has lines "ID<TAB>TYPE". A page TYPES lacks is extracted without
# --page-type (the shipped model's type) and counted on stderr.
typed() {
  local c=$1 run=$2 types=$3 dest=$out/$2/$1 work=$tmp/$2/$1
  mkdir -p "$dest" "$work"
  # the groups: a folder of links per type, "_model" for pages without one
  find "$bench/$c/html" -maxdepth 1 \( -name '*.html' -o -name '*.html.gz' -o -name '*.htm' -o -name '*.htm.gz' \) \
    -printf '%f\n' | sort | awk -F'\t' -v html="$bench/$c/html" -v work="$work" -v tf="$types" -v c="$c" '
      FILENAME == tf { type[$1] = $2; next }
      { id = $0; sub(/\.html?(\.gz)?$/, "", id)
        t = (id in type) ? type[id] : "_model"; if (t == "_model") missing++
        print html "/" $0 > (work "/" t ".list") }
      END { if (missing) printf "type_eval.sh: %s: %d pages without a type\n", c, missing > "/dev/stderr" }
    ' "$types" -
  local list t
  for list in "$work"/*.list; do
    t=$(basename "$list" .list)
    mkdir -p "$work/$t.in"
    xargs -d '\n' ln -s -t "$work/$t.in" < "$list"
    if [ "$t" = _model ]; then extract "$work/$t.in" "$work/$t.out"; else extract "$work/$t.in" "$work/$t.out" --page-type "$t"; fi
    find "$work/$t.out" -maxdepth 1 -name '*.txt' -exec mv -t "$dest" {} +
  done
}

# 2. plain runs
for c in "${corpora[@]}"; do
  mkdir -p "$out/plain"
  extract "$bench/$c/html" "$out/plain/$c"
done
for p in "${pids[@]}"; do
  wait "$p" || { echo "type_eval.sh: winnow train --page-types failed:" >&2; cat "$out"/predictions-*.log >&2; exit 1; }
done

# 3. held-out (and oracle) runs
gate=$("$winnow" rules | awk -F'\t' '$1 == "REGION_MIN_CONFIDENCE" { print $3 }')
gate=${REGION_GATE:-${gate:-0}}
for c in "${corpora[@]}"; do
  pred=$out/predictions-corpora.tsv
  [ "$c" = wcxb-dev ] && pred=$out/predictions-folds.tsv
  # a type below the selection's REGION_MIN_CONFIDENCE is read as an
  # article, as an unforced run reads it (a forced type is sure)
  awk -F'\t' -v c="$c" -v gate="$gate" 'NR > 1 && $1 == c { print $2 "\t" ($4 + 0 >= gate + 0 ? $3 : "article") }' \
    "$pred" > "$tmp/$c.held-out"
  typed "$c" held-out "$tmp/$c.held-out" &
  pids=($!)
  if [ $oracle -eq 1 ]; then
    # wcxb-dev: the manifest's page_type (collection as listing); the others: article
    awk -F'\t' 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "page_type") col = k; next }
                { t = col ? $col : "article"; if (t == "collection") t = "listing"; print $1 "\t" t }' \
      "$bench/$c/manifest.tsv" > "$tmp/$c.oracle"
    typed "$c" oracle "$tmp/$c.oracle" &
    pids+=($!)
  fi
  for p in "${pids[@]}"; do wait "$p" || exit $?; done
done

# 4. scores, the runs side by side
pids=()
for run in "${runs[@]}"; do
  for c in "${corpora[@]}"; do
    by=()
    [ "$c" = wcxb-dev ] && by=(--by "$bench/wcxb-dev/manifest.tsv" page_type)
    python3 "$scorer" "$bench/$c/gold" "$out/$run/$c" --per-page "$out/$run/$c.per-page.tsv" "${by[@]}" \
      > "$out/$run/$c.score"
  done &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { echo "type_eval.sh: score.py failed" >&2; exit 1; }; done
declare -A sh tk cat
for run in "${runs[@]}"; do
  for c in "${corpora[@]}"; do
    sh[$run,$c]=$(awk '/^shingle/ {print $7}' "$out/$run/$c.score")
    tk[$run,$c]=$(awk '/^token/ {print $7}' "$out/$run/$c.score")
    cat[$run,$c]=$(awk '/^catastrophic/ {print $2}' "$out/$run/$c.score")
  done
done

# the page types: how often the held-out type is the true one
echo "held-out page types (right / pages; predicted kinds):"
for c in "${corpora[@]}"; do
  pred=$out/predictions-corpora.tsv how="model of the other six corpora"
  [ "$c" = wcxb-dev ] && pred=$out/predictions-folds.tsv how="5 folds by site, model of the other folds"
  awk -F'\t' -v c="$c" -v how="$how" 'NR > 1 && $1 == c { n++; r += $3 == $5; k[$3]++ }
    END { s = ""; nk = split("article forum product listing documentation service other", kinds, " ")
          for (i = 1; i <= nk; i++) if (kinds[i] in k) s = s " " kinds[i] " " k[kinds[i]]
          printf "  %-16s %4d / %4d  (%s;%s)\n", c, r, n, how, s }' "$pred"
done
echo
printf '%-16s %-9s %10s %9s %13s\n' corpus run "shingle F1" "token F1" catastrophic
for c in "${corpora[@]}"; do
  for run in "${runs[@]}"; do
    printf '%-16s %-9s %10s %9s %13s\n' "$c" "$run" "${sh[$run,$c]}" "${tk[$run,$c]}" "${cat[$run,$c]}"
  done
done
for c in "${corpora[@]}"; do
  [ "$c" = wcxb-dev ] || continue
  echo
  echo "wcxb-dev by true page_type (manifest): shingle F1, token F1, catastrophic per run"
  printf '  %-14s %5s' type pages
  for run in "${runs[@]}"; do printf ' | %-19s' "$run"; done
  echo
  # the score's "by page_type" rows: value, pages, shingle F1, token F1, catastrophic
  for run in "${runs[@]}"; do
    sed -n '/^by page_type/,$p' "$out/$run/wcxb-dev.score" | tail -n +2 | sed "s/^ */$run\t/"
  done | awk -F'\t' -v runs="${runs[*]}" '
    { if (!($2 in pages)) order[++n] = $2; pages[$2] = $3; v[$1, $2] = sprintf("%5s %5s %5s", $4, $5, $6) }
    END { nr = split(runs, r, " ")
          for (i = 1; i <= n; i++) { t = order[i]; printf "  %-14s %5s", t, pages[t]
            for (k = 1; k <= nr; k++) printf " | %-19s", v[r[k], t]; printf "\n" } }'
done
echo
echo "outputs and per-page tables in $out; $((SECONDS - start)) s"
