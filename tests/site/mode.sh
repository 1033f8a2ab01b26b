#!/usr/bin/env bash
# Site mode on a generated site: the learned template goes, the articles stay.
#
# usage: mode.sh WINNOW_BINARY
#
# 20 pages share a nav menu, a footer, a "related stories" box whose links
# change from page to page, and a closing note: a long sentence-like
# paragraph inside the article's container with no boilerplate class name,
# which the page scorer alone keeps (checked on every page: otherwise the
# test proves nothing). After `winnow learn` of the 20 pages, `winnow
# extract --db DB --site news` on them and on 5 pages it never saw must give
# exactly each page's headline and article paragraphs: the note, the menu,
# the footer and the related box gone. Also: --mode site and the default
# auto mode agree on 20 pages; --mode page with --db is page mode; the site
# comes from the URL's host when --site is not given; `learn --batch -o`
# without a database writes what extract --db writes.
set -u
winnow=${1:?usage: mode.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

gen "$tmp/learned" --pages 20 --seed 61 --truth "$tmp/truth"
gen "$tmp/unseen" --pages 5 --start 20 --seed 61 --truth "$tmp/truth"
gen "$tmp/unseen.jsonl" --format jsonl --host www.courier.example --pages 5 --start 20 --seed 61
note=$(gen --print-template A note)
gen --print-template A nav >"$tmp/template-lines"
gen --print-template A footer >>"$tmp/template-lines"
gen --print-template A related >>"$tmp/template-lines"

db=$tmp/sites.db
if run "learn 20 pages" 0 learn "$tmp/learned" --db "$db" --site news; then ok "learn 20 pages"; fi

# exact OUTPUT TRUTH: the output is the truth's lines, in order (a final
# newline or not)
exact() { [ -e "$1" ] && cmp -s <(sed -e '$a\' "$1") <(sed -e '$a\' "$2"); }

page_keeps=0 site_exact=0 pages=0
for f in "$tmp/learned/"*.html "$tmp/unseen/"*.html; do
  id=$(basename "$f" .html)
  truth=$tmp/truth/$id.txt
  pages=$((pages + 1))
  run "$id page mode" 0 extract "$f" || continue
  cp "$tmp/out" "$tmp/page.txt"
  if grep -qxF "$note" "$tmp/page.txt"; then
    page_keeps=$((page_keeps + 1))
  else
    bad "$id: the page scorer alone drops the note (the test would prove nothing)"
  fi
  run "$id site mode" 0 extract "$f" --db "$db" --site news || continue
  cp "$tmp/out" "$tmp/site.txt"
  problems=()
  grep -qxF "$note" "$tmp/site.txt" && problems+=("keeps the note")
  missing=$(grep -cvxFf "$tmp/site.txt" "$truth")
  [ "$missing" -eq 0 ] || problems+=("lacks $missing article lines")
  extra=$(grep -xFf "$tmp/template-lines" "$tmp/site.txt" | head -1)
  [ -z "$extra" ] || problems+=("keeps template text: $extra")
  if [ ${#problems[@]} -eq 0 ]; then
    exact "$tmp/site.txt" "$truth" && site_exact=$((site_exact + 1))
    ok "$id: site mode keeps the article and drops the note"
  else
    bad "$id: site mode $(IFS=';'; echo "${problems[*]}")" "$tmp/site.txt"
  fi
  run "$id --mode site" 0 extract "$f" --db "$db" --site news --mode site &&
    { cmp -s "$tmp/out" "$tmp/site.txt" || bad "$id: --mode site differs from auto mode on a 20-page site"; }
  run "$id --mode page" 0 extract "$f" --db "$db" --site news --mode page &&
    { cmp -s "$tmp/out" "$tmp/page.txt" || bad "$id: --mode page with --db differs from page mode"; }
done
echo "page mode keeps the note on $page_keeps of $pages pages; site mode gives exactly the article on $site_exact"
[ "$site_exact" -eq "$pages" ] && ok "site mode output is exactly headline and paragraphs on all $pages pages" ||
  bad "site mode output is exactly headline and paragraphs on only $site_exact of $pages pages"

# the site from the URL: www.courier.example is site courier.example, which
# the database does not know: page mode; learned under that name, site mode
run "JSONL, unknown site" 0 extract "$tmp/unseen.jsonl" --db "$db" -o "$tmp/by-host-unknown"
n=$(grep -lxF "$note" "$tmp/by-host-unknown/"*.txt | wc -l)
if [ "$n" -eq 5 ]; then ok "JSONL of a site the database does not know: page mode on all 5 pages"
else bad "JSONL of a site the database does not know: the note is kept on $n of 5 pages"; fi
gen "$tmp/learned.jsonl" --format jsonl --host courier.example --pages 20 --seed 61
run "learn JSONL by host" 0 learn "$tmp/learned.jsonl" --db "$db" -q
if run "JSONL by host" 0 extract "$tmp/unseen.jsonl" --db "$db" -o "$tmp/by-host"; then
  n=0
  for k in 1 2 3 4 5; do
    if exact "$tmp/by-host/unseen-$(printf %05d $k).txt" "$tmp/truth/page-$(printf %05d $((19 + k))).txt"; then n=$((n + 1)); fi
  done
  [ "$n" -eq 5 ] && ok "JSONL with the site from the URL's host: site mode on all 5 pages" ||
    bad "JSONL with the site from the URL's host: site mode output on only $n of 5 pages" "$tmp/by-host/unseen-00001.txt"
fi

# learn --batch: the models stay in memory, each page extracted with its site's
if run "learn --batch" 0 learn "$tmp/learned" --site news --batch -o "$tmp/batch"; then
  run "extract the learned pages" 0 extract "$tmp/learned" --db "$db" --site news -o "$tmp/extracted"
  if diff -r "$tmp/batch" "$tmp/extracted" >"$tmp/diff"; then
    ok "learn --batch -o writes what extract --db writes"
  else
    bad "learn --batch -o differs from extract --db" "$tmp/diff"
  fi
fi
finish
