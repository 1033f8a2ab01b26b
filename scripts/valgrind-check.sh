#!/usr/bin/env bash
# Memcheck over the release build: extraction of the samples in every format,
# learning and site-mode extraction with each site method, the reports
# (annotate, site --report). Any error or leak
# fails the run. (The sanitizer build of `make check` cannot run under
# valgrind, so this uses build/.)
set -euo pipefail
cd "$(dirname "$0")/.."
w=build/winnow
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg=(valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite,indirect -q)
for f in text markdown json html blocks; do "${vg[@]}" "$w" extract -q -f "$f" samples/ -o "$tmp/out-$f"; done
"${vg[@]}" "$w" learn -q --site samples --db "$tmp/db" samples/
for m in auto blocks path-blocks chunks table-chunks ce fastce; do
  "${vg[@]}" "$w" extract -q --db "$tmp/db" --site samples --mode site --method "$m" samples/ -o "$tmp/site-$m"
done
"${vg[@]}" "$w" extract -q --db "$tmp/db" --site samples --exclude-self --method fastce samples/ -o "$tmp/loo"
# the reports: each sample annotated (page mode, and with the site model), the site report
runs=13
for f in samples/*.html; do
  "${vg[@]}" "$w" annotate -q "$f" -o "$tmp/annotate.html"
  "${vg[@]}" "$w" annotate -q --db "$tmp/db" --site samples "$f" -o "$tmp/annotate-db.html"
  runs=$((runs + 2))
done
"${vg[@]}" "$w" site samples --db "$tmp/db" --report -q samples/ -o "$tmp/site.html"
echo "valgrind: 0 errors, 0 leaks ($((runs + 1)) runs)"
