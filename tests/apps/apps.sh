#!/usr/bin/env bash
# winnow dedup, index and search on real pages (issue 13).
#
# Pages: make_pages.py puts two real stories of tests/data/pages (aljazeera's
# art1, thespacereview's art2) into two real templates (a: aljazeera's page,
# b: thespacereview's page), each with its own article cut out.
#   dedup   a-art1 ~ b-art1 (the same story under two templates) is found, in
#           page mode and in the clusters; a-art1 and a-art2 (two stories under
#           one template) are not paired; a copy is an exact (I-Match) pair;
#           LSH finds what all pairs find here; bad options are usage errors
#   index   a query finds the right page first; indexing again leaves an
#           unchanged page as it is and replaces a changed one (same key); a
#           copy of a page is stored as a duplicate and not indexed twice, and
#           takes the original's place when that is replaced; full text too
#   errors  no index, an empty or foreign file, a damaged index, an empty query,
#           a query without words, bad --raw syntax: one clear message each
# usage: apps.sh WINNOW
set -u
winnow=$1
. "$(cd "$(dirname "$0")" && pwd)/../site/lib.sh"
apps=$(cd "$(dirname "$0")" && pwd)
pages_dir=$apps/../data/pages
python3 "$apps/make_pages.py" "$pages_dir" "$tmp/p" || { bad "make_pages.py"; finish; }

has_pair() { grep -q "\"a\": {\"id\": \"$1\".*\"b\": {\"id\": \"$2\"" "$tmp/out"; }

# ---- dedup ----
if run "dedup pairs" 0 dedup --pairs "$tmp/p"; then
  has_pair a-art1 b-art1 && ok "dedup: one story under two templates is a pair" || bad "dedup: a-art1 ~ b-art1 not found" "$tmp/out"
  has_pair a-art1 a-art2 && bad "dedup: two stories under one template paired" "$tmp/out" || ok "dedup: two stories under one template are no pair"
  grep -q "near-duplicate pairs" "$tmp/err" && ok "dedup: summary on stderr" || bad "dedup: no summary" "$tmp/err"
fi
if run "dedup clusters" 0 dedup -q "$tmp/p"; then
  grep -q '"representative": {"id": "a-art1"' "$tmp/out" && grep -q '"id": "b-art1", "url": null, "similarity"' "$tmp/out" \
    && ok "dedup: cluster of a-art1 with b-art1, a-art1 representing it" || bad "dedup: clusters" "$tmp/out"
  [ ! -s "$tmp/err" ] && ok "dedup -q: nothing on stderr" || bad "dedup -q: stderr" "$tmp/err"
fi
mkdir -p "$tmp/copy"
cp "$tmp/p/a-art1.html" "$tmp/copy/x.html"
cp "$tmp/p/a-art1.html" "$tmp/copy/y.html"
cp "$tmp/p/a-art2.html" "$tmp/copy/z.html"
if run "dedup exact" 0 dedup --pairs -q "$tmp/copy"; then
  grep -q '"a": {"id": "x".*"b": {"id": "y".*"similarity": 1, "matches": 8, "exact": true' "$tmp/out" \
    && ok "dedup: a copy is an exact pair" || bad "dedup: copy not exact" "$tmp/out"
fi
if run "dedup lsh" 0 dedup --pairs -q "$tmp/p"; then
  cp "$tmp/out" "$tmp/all_pairs"
  run "dedup lsh" 0 dedup --pairs -q --lsh 16 --rows 2 "$tmp/p" && cmp -s "$tmp/out" "$tmp/all_pairs" \
    && ok "dedup --lsh 16: the pairs of all pairs" || bad "dedup --lsh differs" "$tmp/out" "$tmp/all_pairs"
fi
# pages whose only text is a short line (143 comics of one site: "Published
# 4/4/2019", issue 29) are too short to judge: no pair, said in the summary;
# --min-words 0 judges them as before
mkdir -p "$tmp/short"
for n in 1 2 3; do
  printf '<html><head><title>Comic %s</title></head><body><img src="c%s.png" alt=""><p>Published 4/%s/2019</p></body></html>' \
    "$n" "$n" "$n" >"$tmp/short/comic$n.html"
done
if run "dedup short texts" 0 dedup --pairs --no-title "$tmp/short"; then
  [ ! -s "$tmp/out" ] && ok "dedup: short texts are no pair" || bad "dedup: short texts paired" "$tmp/out"
  grep -q "3 too short to judge: under 10 words" "$tmp/err" && ok "dedup: the summary counts short texts" \
    || bad "dedup: short texts not in the summary" "$tmp/err"
fi
run "dedup --min-words 0" 0 dedup --pairs -q --no-title --min-words 0 "$tmp/short" && has_pair comic1 comic2 \
  && ok "dedup --min-words 0: short texts judged" || bad "dedup --min-words 0" "$tmp/out"
run "dedup --sketch 64 --min-matches 32" 0 dedup --pairs -q --sketch 64 --min-matches 32 "$tmp/p" && has_pair a-art1 b-art1 \
  && ok "dedup: --sketch 64 --min-matches 32 finds the pair" || bad "dedup --sketch 64" "$tmp/out"
run "dedup threshold" 2 dedup --sketch 4 --min-matches 5 "$tmp/p" && grep -q "more than the sketch" "$tmp/err" \
  && ok "dedup: --min-matches above --sketch is a usage error" || bad "dedup: threshold check" "$tmp/err"
run "dedup format" 2 dedup -f json "$tmp/p" && ok "dedup: -f json is a usage error" || true
run "dedup no input" 2 dedup && ok "dedup: no input is a usage error" || true
run "dedup fulltext" 0 dedup -q -f fulltext --pairs "$tmp/p" && ok "dedup -f fulltext runs" || true
run "dedup -o" 0 dedup -q -o "$tmp/clusters.jsonl" "$tmp/p" && [ -s "$tmp/clusters.jsonl" ] && [ ! -s "$tmp/out" ] \
  && ok "dedup -o FILE" || bad "dedup -o" "$tmp/err"
# site mode: learned from the four pages under their (made-up) site
run "learn" 0 learn -q --site s --db "$tmp/s.db" "$tmp/p" && run "dedup site" 0 dedup -q --pairs --site s --db "$tmp/s.db" --mode site --exclude-self "$tmp/p" \
  && has_pair a-art1 b-art1 && ok "dedup --mode site finds the pair" || bad "dedup site mode" "$tmp/out" "$tmp/err"

# ---- index and search ----
ix=$tmp/ix.db
if run "index" 0 index --db "$ix" "$tmp/p"; then
  grep -q "4 pages (main text): 4 added, 0 replaced, 0 unchanged, 0 duplicates" "$tmp/err" && ok "index: 4 pages added" || bad "index summary" "$tmp/err"
fi
run "search helicopter" 0 search "$ix" "helicopter crash Afghanistan" -f json
first=$(sed -n '1s/.*"id": "\([^"]*\)".*/\1/p' "$tmp/out")
case $first in *-art1) ok "search: the helicopter story first ($first)" ;; *) bad "search: first hit $first" "$tmp/out" ;; esac
run "search SLS" 0 search "$ix" "Michoud core stage engines" -n 1
grep -q "art2" "$tmp/out" && [ "$(grep -c '^[0-9]*\. ' "$tmp/out")" = 1 ] && ok "search -n 1: one hit, the SLS story" || bad "search -n 1" "$tmp/out"
grep -q '\[' "$tmp/out" && ok "search: snippet marks the matched words" || bad "search: no marks" "$tmp/out"
run "index again" 0 index --db "$ix" "$tmp/p"
grep -q "0 added, 0 replaced, 4 unchanged" "$tmp/err" && ok "index again: unchanged pages left as they are" || bad "index again" "$tmp/err"
# the same key (file name a-art1) with another story: replaced
mkdir -p "$tmp/r"
cp "$pages_dir/aeb-autoracing.com.br.html" "$tmp/r/a-art1.html"
run "index replace" 0 index --db "$ix" "$tmp/r/a-art1.html"
grep -q "0 added, 1 replaced" "$tmp/err" && ok "index: same key, new text: replaced" || bad "index replace" "$tmp/err"
run "search after replace" 0 search "$ix" "helicopter" -f json
grep -q '"id": "a-art1"' "$tmp/out" && bad "search: the replaced text is still found" "$tmp/out" || ok "search: the old text of a replaced page is gone"
python3 - "$ix" <<'EOF' && ok "index: 4 pages stored after the replace" || bad "index: page count"
import sqlite3, sys
n = sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM pages").fetchone()[0]
sys.exit(0 if n == 4 else 1)
EOF
# duplicates: a copy under another key is stored, not indexed again
ix2=$tmp/ix2.db
run "index copies" 0 index --db "$ix2" "$tmp/copy"
grep -q "3 pages (main text): 2 added, 0 replaced, 0 unchanged, 1 duplicates" "$tmp/err" && grep -q "holds 3 pages, 2 searchable" "$tmp/err" \
  && ok "index: an I-Match duplicate is indexed once" || bad "index duplicates" "$tmp/err"
run "search copies" 0 search "$ix2" "withholding"
[ "$(grep -c '^[0-9]*\. ' "$tmp/out")" = 1 ] && grep -q "x .*(+1 duplicate)" "$tmp/out" \
  && ok "search: one hit for the page and its copy, the copy counted" || bad "search copies" "$tmp/out"
# the original replaced: its copy takes its place
cp "$tmp/p/b-art2.html" "$tmp/r/x.html"
run "index replace original" 0 index -q --db "$ix2" "$tmp/r/x.html"
run "search heir" 0 search "$ix2" "withholding" -f json
grep -q '"id": "y"' "$tmp/out" && ok "search: the duplicate takes the replaced original's place" || bad "search heir" "$tmp/out"
run "index fulltext" 0 index -q -f fulltext --db "$tmp/full.db" "$tmp/p" && run "search fulltext" 0 search "$tmp/full.db" "helicopter" \
  && ok "index -f fulltext" || true

# ---- bad input ----
run "search no index" 1 search "$tmp/none.db" "x" && grep -q "no index at" "$tmp/err" && ok "search: missing index: clear error" || bad "missing index" "$tmp/err"
printf 'not a database at all, just some text\n' > "$tmp/text.db"
run "search foreign" 1 search "$tmp/text.db" "x" && grep -q "not a winnow index" "$tmp/err" && ok "search: not an index: clear error" || bad "foreign file" "$tmp/err"
: > "$tmp/empty.db"
run "search empty file" 1 search "$tmp/empty.db" "x" && grep -q "not a winnow index" "$tmp/err" && ok "search: empty file: clear error" || bad "empty file" "$tmp/err"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()" "$tmp/other.db"
run "search other sqlite" 1 search "$tmp/other.db" "x" && grep -q "not a winnow index" "$tmp/err" && ok "search: another SQLite file: clear error" || bad "other sqlite" "$tmp/err"
# damage: zeros over everything past the first page of a copy
cp "$ix" "$tmp/damaged.db"
size=$(stat -c %s "$tmp/damaged.db")
dd if=/dev/zero of="$tmp/damaged.db" bs=4096 seek=1 count=$((size / 4096)) conv=notrunc 2>/dev/null
run "search damaged" 5 search "$tmp/damaged.db" "helicopter" && grep -q "damaged" "$tmp/err" && ok "search: damaged index: exit 5, says so" || bad "damaged search" "$tmp/err"
run "index damaged" 5 index --db "$tmp/damaged.db" "$tmp/p" && grep -q "damaged" "$tmp/err" && ok "index: damaged index: exit 5, nothing written" || bad "damaged index" "$tmp/err"
run "search empty query" 2 search "$ix" "" && grep -q "query is empty" "$tmp/err" && ok "search: empty query: usage error" || bad "empty query" "$tmp/err"
run "search no words" 2 search "$ix" "?! --" && grep -q "no word" "$tmp/err" && ok "search: a query without words: usage error" || bad "no words" "$tmp/err"
run "search raw syntax" 2 search --raw "$ix" "AND OR (" && grep -q "FTS5" "$tmp/err" && ok "search --raw: bad syntax: usage error" || bad "raw syntax" "$tmp/err"
run "search raw" 0 search --raw "$ix" "title:helicopter OR Michoud" && ok "search --raw: FTS5 syntax" || true
run "search one arg" 2 search "$ix" && ok "search: no query: usage error" || true
run "index no db" 2 index "$tmp/p" && grep -q "needs --db" "$tmp/err" && ok "index: no --db: usage error" || bad "index no db" "$tmp/err"
run "search no match" 0 search "$ix" "zzyzzx" && grep -q "no match" "$tmp/err" && ok "search: no match: said on stderr, exit 0" || bad "no match" "$tmp/err"
for c in dedup index search; do
  run "help $c" 0 help "$c" && grep -q "usage: winnow $c" "$tmp/out" && ok "winnow help $c" || bad "help $c" "$tmp/out"
done
finish
