#!/usr/bin/env bash
# Memcheck over the release build: extraction of the samples in every format,
# learning and site-mode extraction with each site method, keywords and
# classification, the reports (annotate, site --report). Any error or leak
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
# keywords and classification (winnow_keywords.h): a DF table built and used, a
# classifier trained, applied and cross-validated
"${vg[@]}" "$w" keywords -q --build-df samples/ -o "$tmp/s.df.gz"
"${vg[@]}" "$w" keywords -q -f json --df "$tmp/s.df.gz" samples/ >/dev/null
"${vg[@]}" "$w" keywords -q --db "$tmp/db" --site samples --mode site samples/ >/dev/null
printf 'git-am\tgit\npostgresql-auth-ldap\tpg\npostgresql-triggers\tpg\npython-poplib\tpy\n' > "$tmp/labels.tsv"
"${vg[@]}" "$w" classify -q --train --labels "$tmp/labels.tsv" samples/ -o "$tmp/m.nb.gz"
"${vg[@]}" "$w" classify -q --nb "$tmp/m.nb.gz" --fulltext samples/ >/dev/null
"${vg[@]}" "$w" classify -q --cv 2 --pairs --labels "$tmp/labels.tsv" samples/ >/dev/null
# the reports: each sample annotated (page mode, and with the site model), the site report
runs=19
for f in samples/*.html; do
  "${vg[@]}" "$w" annotate -q "$f" -o "$tmp/annotate.html"
  "${vg[@]}" "$w" annotate -q --db "$tmp/db" --site samples "$f" -o "$tmp/annotate-db.html"
  runs=$((runs + 2))
done
"${vg[@]}" "$w" site samples --db "$tmp/db" --report -q samples/ -o "$tmp/site.html"
echo "valgrind: 0 errors, 0 leaks ($((runs + 1)) runs)"
