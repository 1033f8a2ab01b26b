#!/usr/bin/env bash
# Instruction count of `winnow extract` (the whole program, callgrind) over
# the first N pages of a corpus folder: a speed figure that, unlike seconds,
# repeats exactly for the same binary and pages whatever else the machine is
# doing. Compare two builds with one run each.
#
# usage: bench/instructions.sh WINNOW [DIR] [N]
#   DIR  a folder of pages (default ../shared/bench/aeb/html), sorted by name
#   N    pages (default 25)
# Prints "INSTRUCTIONS PAGES DIR". Needs valgrind.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$1
dir=${2:-$repo/../shared/bench/aeb/html}
n=${3:-25}
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mapfile -t pages < <(find "$dir" -maxdepth 1 -type f \( -name '*.html' -o -name '*.htm' -o -name '*.html.gz' \) | LC_ALL=C sort | head -n "$n")
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" extract -q "${pages[@]}" -o "$tmp/out/" >/dev/null 2>"$tmp/log" || true
total=$(grep -m1 '^summary:\|^totals:' "$tmp/cg.out" | awk '{print $2}')
[ -n "$total" ] || { cat "$tmp/log" >&2; exit 1; }
echo "$total ${#pages[@]} $dir"
