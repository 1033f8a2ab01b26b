#!/usr/bin/env bash
# How `winnow extract -j 2` scales, set beside what the machine allows: the
# same pages run three ways, alternating, ROUNDS times:
#
#   j1     one process, one worker (-j 1)
#   j2     one process, two workers (-j 2)
#   split  two processes of one worker each, on half the pages each, started
#          together (wall time: until both end): no shared reader, reorder
#          window, writer or allocator. What two cores give two jobs that
#          share nothing is the ceiling of any -j 2.
#
# Prints each round's seconds and the machine's load before it, then the
# medians and the ratios j1/j2 and j1/split. A j1/j2 near j1/split says that
# nothing in winnow serializes the workers; one well under it points at the
# reader, the reorder window or the output.
#
# usage: bench/threads.sh [WINNOW] [DIR | FILE...]
#   WINNOW  the binary (default build/winnow)
#   DIR     a folder of pages (default ../shared/bench/aeb/html; *.html and
#           *.html.gz), split page by page
#   FILE... WARC files (or any inputs extract reads), split file by file:
#           ../shared/corpus/sites/*.warc.gz
#   env ROUNDS (default 3), TMPDIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
winnow=${1:-$here/build/winnow}
case $winnow in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$here/../shared/bench/aeb/html"
rounds=${ROUNDS:-3}
[ -x "$winnow" ] || { echo "threads.sh: no winnow binary $winnow" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/threads.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# all, a, b: the inputs of one run each (a folder of links to pages, or a
# list of files)
all=() a=() b=()
if [ $# -eq 1 ] && [ -d "$1" ]; then
  mkdir -p "$tmp/all" "$tmp/a" "$tmp/b"
  i=0
  while IFS= read -r f; do
    ln -s "$f" "$tmp/all/"
    if [ $((i % 2)) -eq 0 ]; then ln -s "$f" "$tmp/a/"; else ln -s "$f" "$tmp/b/"; fi
    i=$((i + 1))
  done < <(find "$(cd "$1" && pwd)" -maxdepth 1 -type f \( -name '*.html' -o -name '*.html.gz' \) | sort)
  [ "$i" -gt 1 ] || { echo "threads.sh: fewer than two pages in $1" >&2; exit 2; }
  all=("$tmp/all") a=("$tmp/a") b=("$tmp/b")
  what="$i pages"
else
  [ $# -gt 1 ] || { echo "threads.sh: give a folder, or two files or more" >&2; exit 2; }
  i=0
  for f in "$@"; do
    [ -f "$f" ] || { echo "threads.sh: no file $f" >&2; exit 2; }
    all+=("$f")
    if [ $((i % 2)) -eq 0 ]; then a+=("$f"); else b+=("$f"); fi
    i=$((i + 1))
  done
  what="$i files"
fi

now() { date +%s.%N; }
# run NAME: one way, its seconds on stdout (outputs discarded; exit status
# 3, some page without main content, is not a failure here)
run() {
  local t0 t1
  rm -rf "$tmp/o" "$tmp/oa" "$tmp/ob"
  t0=$(now)
  case $1 in
    j1) "$winnow" extract -q -j 1 "${all[@]}" -o "$tmp/o" || [ $? -eq 3 ] ;;
    j2) "$winnow" extract -q -j 2 "${all[@]}" -o "$tmp/o" || [ $? -eq 3 ] ;;
    split)
      "$winnow" extract -q -j 1 "${a[@]}" -o "$tmp/oa" &
      local pid=$!
      "$winnow" extract -q -j 1 "${b[@]}" -o "$tmp/ob" || [ $? -eq 3 ]
      wait "$pid" || [ $? -eq 3 ]
      ;;
  esac
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

echo "$what, $(nproc) cores, $winnow"
printf '%-6s %-6s %8s %8s %8s\n' round load j1 j2 split
: > "$tmp/times"
for r in $(seq 1 "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  # the order turns each round: no way always runs on a cooler machine
  case $((r % 3)) in
    1) order="j1 j2 split" ;;
    2) order="j2 split j1" ;;
    0) order="split j1 j2" ;;
  esac
  declare -A t=()
  for w in $order; do t[$w]=$(run "$w"); done
  printf '%-6s %-6s %8s %8s %8s\n' "$r" "$load" "${t[j1]}" "${t[j2]}" "${t[split]}"
  printf '%s %s %s\n' "${t[j1]}" "${t[j2]}" "${t[split]}" >> "$tmp/times"
  unset t
done
awk '{ j1[NR] = $1; j2[NR] = $2; sp[NR] = $3 }
  function median(a, n,   i, j, x, b) {
    for (i = 1; i <= n; i++) b[i] = a[i]
    for (i = 2; i <= n; i++) { x = b[i]; for (j = i - 1; j >= 1 && b[j] > x; j--) b[j + 1] = b[j]; b[j + 1] = x }
    return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
  }
  END {
    m1 = median(j1, NR); m2 = median(j2, NR); ms = median(sp, NR)
    printf "median %15.3f %8.3f %8.3f\n", m1, m2, ms
    printf "j1/j2 %.2fx   j1/split %.2fx (the ceiling two independent jobs reach here)\n", m1 / m2, m1 / ms
  }' "$tmp/times"
