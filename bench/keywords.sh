#!/usr/bin/env bash
# Keyword extraction across domains (Kolcz & Yih, section 5): a DF table from
# the unlabelled site corpus, the keywords of every bench page computed from
#   full   the page's full visible text (extract -f fulltext: nothing removed)
#   page   winnow's main text, page mode (the default)
#   site   winnow's main text, site mode: each site group of the corpus (the
#          manifest's `site` column, groups of >= 5 pages) learned into a site
#          database, its pages extracted with --mode site (the page itself
#          learned too, as on a collection one processes whole)
# and scored against the keywords of the page's gold text (same DF table,
# same k): top-N = |gold top 10 & system top N| / min(10, N), and the Jaccard
# overlap of the two top-10 lists (bench/keywords_score.py).
#
# usage: bench/keywords.sh [-d DF]... [CORPUS...]
#   -d DF: a DF table (repeat for several; default: the built-in one, named
#          "corpus-main", one built here from the site corpus's full text,
#          "corpus-full", and "in-domain": for each bench corpus, a table of
#          its own pages' full text, Kolcz & Yih's DF setting, built here with
#          --min-df 2). -d builtin and -d in-domain name those two.
# Site-mode rows cover only the pages in site groups; the page and full
# rows beside them are computed on the same pages.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
corpus=${CORPUS_SITES:-$here/../shared/corpus/sites}
winnow=${WINNOW:-$here/build/winnow}
score="python3 $here/bench/keywords_score.py"
dfs=()
while getopts "d:" opt; do
  case $opt in
    d) dfs+=("$OPTARG") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(aeb readability cleanportaleval big9 l3s-gn1 chaos)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ${#dfs[@]} -eq 0 ]; then
  "$winnow" keywords -q --build-df --fulltext "$corpus"/*.warc.gz -o "$work/corpus-full.df.gz"
  dfs=(builtin "$work/corpus-full.df.gz" in-domain)
fi
dfname() { case $1 in builtin) echo corpus-main ;; */corpus-full.df.gz) echo corpus-full ;; *) basename "$1" ;; esac; }
# the option for table $1 on corpus $c
dfopt() {
  case $1 in
    builtin) ;;
    in-domain) echo "--df $work/$c-in-domain.df.gz" ;;
    *) echo "--df $1" ;;
  esac
}

printf '%-24s %-12s %-6s %s\n' corpus df text "top-N x100 (pages)"
for c in "${corpora[@]}"; do
  # site groups of >= 5 pages
  awk -F'\t' 'NR > 1 {n[$3]++; m[$3] = m[$3] " " $1} END {for (g in n) if (n[g] >= 5) print g "\t" m[g]}' \
    "$bench/$c/manifest.tsv" | sort > "$work/$c.groups"
  cut -f2 "$work/$c.groups" | tr ' ' '\n' | sed '/^$/d' > "$work/$c.site-ids"
  for df in "${dfs[@]}"; do
    d=$(dfname "$df")
    if [ "$df" = in-domain ]; then
      "$winnow" keywords -q --build-df --fulltext --min-df 2 "$bench/$c/html" -o "$work/$c-in-domain.df.gz"
    fi
    # shellcheck disable=SC2046
    "$winnow" keywords -q -f json $(dfopt "$df") --plain "$bench/$c/gold" > "$work/$c-$d-gold.jsonl" || true
    # shellcheck disable=SC2046
    "$winnow" keywords -q -f json $(dfopt "$df") --fulltext "$bench/$c/html" > "$work/$c-$d-full.jsonl" || true
    # shellcheck disable=SC2046
    "$winnow" keywords -q -f json $(dfopt "$df") "$bench/$c/html" > "$work/$c-$d-page.jsonl" || true
    for t in full page; do
      printf '%-24s %-12s %-6s %s\n' "$c" "$d" "$t" "$($score "$work/$c-$d-gold.jsonl" "$work/$c-$d-$t.jsonl")"
    done
    if [ -s "$work/$c.site-ids" ]; then
      : > "$work/$c-$d-site.jsonl"
      while IFS=$'\t' read -r g members; do
        rm -rf "$work/group" "$work/db"*
        mkdir -p "$work/group"
        for id in $members; do ln -s "$bench/$c/html/$id.html" "$work/group/$id.html"; done
        "$winnow" learn -q --site G --db "$work/db" "$work/group"
        # shellcheck disable=SC2046
        "$winnow" keywords -q -f json $(dfopt "$df") --db "$work/db" --site G --mode site "$work/group" \
          >> "$work/$c-$d-site.jsonl" || true
      done < "$work/$c.groups"
      for t in full page site; do
        printf '%-24s %-12s %-6s %s\n' "$c (sites)" "$d" "$t" \
          "$($score "$work/$c-$d-gold.jsonl" "$work/$c-$d-$t.jsonl" --ids "$work/$c.site-ids")"
      done
    fi
  done
done
