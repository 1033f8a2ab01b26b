#!/usr/bin/env bash
# Peak memory of `winnow extract` on synthetic pages of seven shapes (issue 11:
# peak RSS under 10x the page for any shape; issue 29 added the attributed
# spans without white space and the one element of very many attributes).
# Usage:
#
#   bench/memory.sh [WINNOW...]      # default build/winnow; several binaries side by side
#
# SHAPES (default "flat nested links attrs text spans10 oneattr") and SIZES (megabytes, default
# "10 50") choose the pages; PAGES (default /tmp/winnow-mem-pages) is where
# bench/mem_pages.py writes them, once. Each binary runs `extract -q PAGE` to
# /dev/null under /usr/bin/time; peak RSS is its "maximum resident set size".
# One line per page and binary: shape, page MB, binary, peak MB, peak / page,
# seconds. Exit status 1 when a run fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHAPES=${SHAPES:-flat nested links attrs text spans10 oneattr}
SIZES=${SIZES:-10 50}
PAGES=${PAGES:-/tmp/winnow-mem-pages}
[ $# -gt 0 ] || set -- "$here/../build/winnow"
for w in "$@"; do [ -x "$w" ] || { echo "memory.sh: $w is not an executable" >&2; exit 2; }; done
[ -x /usr/bin/time ] || { echo "memory.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
mkdir -p "$PAGES"

status=0
printf '%-7s %8s  %-40s %9s %7s %7s\n' shape page_MB binary peak_MB ratio secs
for shape in $SHAPES; do
  for mb in $SIZES; do
    page="$PAGES/$shape-$mb.html"
    [ -s "$page" ] || python3 "$here/mem_pages.py" "$shape" "$mb" "$page"
    bytes=$(stat -c %s "$page")
    for w in "$@"; do
      # %M: maximum resident set size in KiB; %e: elapsed seconds. Exit 3
      # (visible text, none of it main content) is a result, not a failure.
      rc=0
      /usr/bin/time -o "$PAGES/.time" -f '%M %e' "$w" extract -q "$page" >/dev/null 2>&1 || rc=$?
      if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
        echo "memory.sh: $w exited with status $rc on $page" >&2; status=1; continue
      fi
      line=$(tail -n 1 "$PAGES/.time")
      kb=${line%% *}; secs=${line##* }
      awk -v s="$shape" -v b="$bytes" -v w="$w" -v kb="$kb" -v t="$secs" 'BEGIN {
        printf "%-7s %8.1f  %-40s %9.1f %7.2f %7.2f\n", s, b / 1e6, w, kb * 1024 / 1e6, kb * 1024 / b, t }'
    done
  done
done
exit $status
