#!/usr/bin/env bash
# Markdown checked by a real CommonMark + GFM renderer over every page of the
# bench corpora: tests/markdown_check.py renders winnow's Markdown of each page
# with cmark-gfm (table extension) and compares the structure it yields
# (headings, list nesting, table rows, code blocks and inline code) with
# winnow's own HTML output of the page. Prints, per corpus, the pages whose
# structures differ and their count.
#
# usage: bench/markdown_check.sh [WINNOW] [CORPUS...]
#   WINNOW   the winnow binary (default build/winnow)
#   CORPUS   names under ../shared/bench (default: all seven); env BENCH_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=${BENCH_DIR:-$here/../shared/bench}
winnow=$here/build/winnow
if [ $# -gt 0 ] && [ -f "$1" ] && [ -x "$1" ]; then winnow=$1; shift; fi
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(aeb big9 cleanportaleval l3s-gn1 readability chaos wcxb-dev)
status=0
for c in "${corpora[@]}"; do
  echo "== $c"
  mapfile -t pages < <(find "$bench/$c/html" -maxdepth 1 -type f \( -name '*.html' -o -name '*.htm' -o -name '*.html.gz' \) | sort)
  python3 "$here/tests/markdown_check.py" --winnow "$winnow" "${pages[@]}" || status=1
done
exit $status
