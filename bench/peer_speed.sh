#!/usr/bin/env bash
# winnow beside a peer extractor, whole process each: the same pages, one
# process per tool (`winnow extract -j 1` over the folder; the peer's Python
# in bench/peer_extract.py), runs alternating, wall and CPU time and peak
# RSS from /usr/bin/time, and the peer's figures over winnow's.
#
# usage: bench/peer_speed.sh [WINNOW] DIR
#   WINNOW  the winnow binary (default build/winnow)
#   DIR     pages: *.html, *.htm and *.html.gz
# env:
#   PEER    trafilatura (the issue's measure) or readability (readability-lxml,
#           Debian's python3-readability); default: trafilatura when Python
#           can import it, else readability
#   PYTHON  the Python that has the peer (default /usr/bin/python3)
#   ROUNDS  rounds, each running both tools, the order swapped every round
#           (default 3); the table gives medians and the largest peak RSS
#
# Exit status: 0 measured; 1 a run failed; 2 usage, or no peer installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
winnow=$here/build/winnow
case $# in
  1) dir=$1 ;;
  2) winnow=$1; dir=$2 ;;
  *) usage ;;
esac
[ -d "$dir" ] || { echo "peer_speed: no folder $dir" >&2; exit 2; }
[ -x "$winnow" ] || { echo "peer_speed: no winnow binary $winnow" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "peer_speed: /usr/bin/time is needed (Debian: time)" >&2; exit 2; }
python=${PYTHON:-/usr/bin/python3}
rounds=${ROUNDS:-3}
peer=${PEER:-}
if [ -z "$peer" ]; then
  if "$python" -c 'import trafilatura' 2>/dev/null; then peer=trafilatura
  elif "$python" -c 'import readability' 2>/dev/null; then peer=readability
  else echo "peer_speed: neither trafilatura nor readability-lxml can be imported by $python" >&2; exit 2
  fi
fi
version=$("$python" -c "import importlib.metadata as m; print(m.version('$([ "$peer" = readability ] && echo readability-lxml || echo trafilatura)'))" 2>/dev/null || echo '?')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/peer-speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pages=$(find "$dir" -maxdepth 1 -type f \( -name '*.html' -o -name '*.htm' -o -name '*.html.gz' \) | wc -l)
[ "$pages" -gt 0 ] || { echo "peer_speed: no pages in $dir" >&2; exit 2; }
echo "pages: $pages in $dir; winnow: $winnow; peer: $peer $version ($python); rounds: $rounds"

# one timed run: "WALL CPU RSS_KB" appended to $tmp/TOOL.times
run() {
  local tool=$1 out=$tmp/out-$1
  rm -rf "$out"
  if [ "$tool" = winnow ]; then
    # (exit status 3 or 4: every page done, some with no main content or skipped for size)
    local rc=0
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$winnow" extract -q -j 1 "$dir" -o "$out/" >/dev/null 2>"$tmp/err" ||
      rc=$?
    case $rc in 0 | 3 | 4) ;; *) cat "$tmp/err" >&2; echo "peer_speed: winnow exited $rc" >&2; exit 1 ;; esac
  else
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$python" "$here/bench/peer_extract.py" "$peer" "$dir" "$out" \
      >"$tmp/peer.out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  fi
  # (time's last line: a line saying the exit status may come first)
  tail -n 1 "$tmp/t" >"$tmp/t1" && mv "$tmp/t1" "$tmp/t"
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t" >>"$tmp/$tool.times"
  printf '  round %d %-8s wall %6.2f s  cpu %6.2f s  rss %7d KB  load %s\n' "$2" "$tool" \
    "$(awk '{ print $1 }' "$tmp/t")" "$(awk '{ print $2 + $3 }' "$tmp/t")" "$(awk '{ print $4 }' "$tmp/t")" \
    "$(cut -d' ' -f1 /proc/loadavg)"
}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then run winnow "$r"; run peer "$r"; else run peer "$r"; run winnow "$r"; fi
done
read -r done_pages failed <"$tmp/peer.out"
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
stat() { awk -v c="$2" '{ print $c }' "$tmp/$1.times" | median; }
maxrss() { awk 'BEGIN { m = 0 } $3 > m { m = $3 } END { print m }' "$tmp/$1.times"; }
ww=$(stat winnow 1) wc=$(stat winnow 2) wr=$(maxrss winnow)
pw=$(stat peer 1) pc=$(stat peer 2) pr=$(maxrss peer)
echo
printf '| tool | wall s (median) | CPU s (median) | peak RSS MB | pages/s |\n|---|---:|---:|---:|---:|\n'
awk -v n="$pages" -v w="$ww" -v c="$wc" -v r="$wr" 'BEGIN { printf "| winnow | %.2f | %.2f | %.0f | %.0f |\n", w, c, r / 1024, n / w }'
awk -v n="$pages" -v w="$pw" -v c="$pc" -v r="$pr" -v p="$peer" 'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.0f |\n", p, w, c, r / 1024, n / w }'
awk -v a="$pw" -v b="$ww" -v c="$pc" -v d="$wc" -v e="$pr" -v f="$wr" -v p="$peer" \
  'BEGIN { printf "\n%s / winnow: wall %.1fx, CPU %.1fx, peak RSS %.1fx\n", p, a / b, c / d, e / f }'
echo "peer pages: $done_pages, failed $failed"
