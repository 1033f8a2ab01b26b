#!/usr/bin/env bash
# Whether `winnow extract` time grows linearly with the page for every shape
# (issue 29: spans with ten attributes and no white space between them took
# time quadratic in the page, 263 s for 65 MB, in the tree builder's string
# pool). Usage:
#
#   bench/parse_scaling.sh [WINNOW...]   # default build/winnow; several binaries side by side
#
# SHAPES (default "flat attrs spans10 oneattr", bench/mem_pages.py's) and SIZES
# (megabytes, default "5 10 20") choose the pages, written once to PAGES
# (default /tmp/winnow-mem-pages, shared with bench/memory.sh). One line per
# page and binary: shape, page MB, binary, seconds, seconds per MB. Linear
# growth shows as a flat s/MB column down a shape's sizes; quadratic as one
# that doubles with the size. The best of REPEAT runs (default 1) is kept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHAPES=${SHAPES:-flat attrs spans10 oneattr}
SIZES=${SIZES:-5 10 20}
PAGES=${PAGES:-/tmp/winnow-mem-pages}
REPEAT=${REPEAT:-1}
[ $# -gt 0 ] || set -- "$here/../build/winnow"
for w in "$@"; do [ -x "$w" ] || { echo "parse_scaling.sh: $w is not an executable" >&2; exit 2; }; done
mkdir -p "$PAGES"

status=0
printf '%-8s %8s  %-40s %8s %8s\n' shape page_MB binary secs s_per_MB
for shape in $SHAPES; do
  for mb in $SIZES; do
    page="$PAGES/$shape-$mb.html"
    [ -s "$page" ] || python3 "$here/mem_pages.py" "$shape" "$mb" "$page"
    bytes=$(stat -c %s "$page")
    for w in "$@"; do
      best=
      for _ in $(seq "$REPEAT"); do
        start=$(date +%s.%N)
        # exit 3 (visible text, none of it main content) is a result
        rc=0
        "$w" extract -q "$page" >/dev/null 2>&1 || rc=$?
        end=$(date +%s.%N)
        if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
          echo "parse_scaling.sh: $w exited with status $rc on $page" >&2; status=1; continue 2
        fi
        t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
      done
      awk -v s="$shape" -v b="$bytes" -v w="$w" -v t="$best" 'BEGIN {
        printf "%-8s %8.1f  %-40s %8.2f %8.3f\n", s, b / 1e6, w, t, t / (b / 1e6) }'
    done
  done
done
exit $status
