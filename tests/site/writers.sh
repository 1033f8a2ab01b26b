#!/usr/bin/env bash
# Two `winnow learn` runs on one site database at the same time (two
# crawlers feeding one database, or a cron job that overlaps the next).
#
# usage: writers.sh WINNOW_BINARY
#
# Both runs start from a database that already knows the site and learn
# disjoint batches of 300 pages. Both must succeed, and every page must
# count: with one commit per run (the default, --commit-every 1000), the
# database equals learning the two batches one after the other, in either
# order (the second to commit counts its pages after the first's); with a
# commit every 25 pages (the runs' commits interleave), the database holds
# what one learn of both batches holds: the same aged page mass, 610 pages
# learned, the same fingerprints and counted pages, and `winnow check`
# passes. Control: two runs on two different sites at once both count
# fully.
set -u
winnow=${1:?usage: writers.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

gen "$tmp/first.jsonl" --format jsonl --pages 10 --start 1000 --seed 71
gen "$tmp/a.jsonl" --format jsonl --pages 300 --seed 71
gen "$tmp/b.jsonl" --format jsonl --pages 300 --start 300 --seed 71
gen "$tmp/other.jsonl" --format jsonl --pages 300 --host gazette.example --seed 72 --template B

db=$tmp/sites.db
run "first learn" 0 learn "$tmp/first.jsonl" --db "$db" -q || finish
cp "$db" "$tmp/start.db"

# expected states, one batch after the other ($tmp/NAME.db and .state)
expect() {
  local name=$1 f
  shift
  cp "$tmp/start.db" "$tmp/$name.db"
  for f in "$@"; do "$winnow" learn "$f" --db "$tmp/$name.db" -q 2>/dev/null; done
  db_state "$tmp/$name.db" >"$tmp/$name.state"
}
expect ab "$tmp/a.jsonl" "$tmp/b.jsonl"
expect ba "$tmp/b.jsonl" "$tmp/a.jsonl"

# together FILE1 FILE2 [OPTION...]: both learns at once; exit statuses in $r1 $r2
together() {
  local f1=$1 f2=$2
  shift 2
  "$winnow" learn "$f1" --db "$db" -q "$@" >/dev/null 2>"$tmp/err1" &
  local p1=$!
  "$winnow" learn "$f2" --db "$db" -q "$@" >/dev/null 2>"$tmp/err2" &
  local p2=$!
  track "$p1"
  track "$p2"
  wait "$p1"
  r1=$?
  untrack "$p1"
  wait "$p2"
  r2=$?
  untrack "$p2"
  sanitizer_spoke "$r1" "$tmp/err1" && bad "sanitizer report" "$tmp/err1"
  sanitizer_spoke "$r2" "$tmp/err2" && bad "sanitizer report" "$tmp/err2"
}

together "$tmp/a.jsonl" "$tmp/b.jsonl"
db_state "$db" >"$tmp/now.state"
learned=$(awk '$1 == "courier.example" { print $3 }' "$tmp/now.state")
if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ]; then
  if cmp -s "$tmp/now.state" "$tmp/ab.state" || cmp -s "$tmp/now.state" "$tmp/ba.state"; then
    ok "same site, two learns at once: both succeed and every page counts ($learned learned)"
  else
    pages_rows=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM pages").fetchone()[0])' "$db")
    diff "$tmp/ab.state" "$tmp/now.state" | head -10 >"$tmp/diff"
    bad "same site, two learns at once: both succeed, but the database (learned $learned, $pages_rows counted pages) is not one batch after the other" "$tmp/diff"
  fi
else
  bad "same site, two learns at once: exits $r1 and $r2, both must succeed" "$tmp/err1" "$tmp/err2"
fi

# facts DB: what does not depend on the order the pages were counted in:
# the listing's aged pages, learned pages and fingerprints, and which
# fingerprints and pages are stored
facts() {
  "$winnow" sites --db "$1" | awk 'NR > 1 { print $1, $2, $3, $4 }'
  python3 -c '
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print("keys", con.execute("SELECT count(*), sum(kind * 7 + key % 1000003) FROM keys").fetchone())
print("pages", con.execute("SELECT count(*), sum(imatch % 1000003) FROM pages").fetchone())
con.close()' "$1"
}
facts "$tmp/ab.db" >"$tmp/ab.facts"
cp "$tmp/start.db" "$db"
together "$tmp/a.jsonl" "$tmp/b.jsonl" --commit-every 25
facts "$db" >"$tmp/now.facts"
if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] && cmp -s "$tmp/now.facts" "$tmp/ab.facts" &&
  "$winnow" check --db "$db" >"$tmp/check.out" 2>&1; then
  ok "same site, two learns committing every 25 pages at once: what one learn of both gives: $(head -1 "$tmp/now.facts")"
else
  diff "$tmp/ab.facts" "$tmp/now.facts" >"$tmp/diff"
  bad "same site, two learns committing every 25 pages at once: exits $r1 $r2, or other contents" "$tmp/diff" \
    "$tmp/err1" "$tmp/err2" "$tmp/check.out"
fi

# control: two sites at once do not get in each other's way
cp "$tmp/start.db" "$db"
rm -f "$db-wal" "$db-shm"
together "$tmp/a.jsonl" "$tmp/other.jsonl"
db_state "$db" >"$tmp/now.state"
a_learned=$(awk '$1 == "courier.example" { print $3 }' "$tmp/now.state")
o_learned=$(awk '$1 == "gazette.example" { print $3 }' "$tmp/now.state")
if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] && [ "$a_learned" = 310 ] && [ "$o_learned" = 300 ]; then
  ok "two sites, two learns at once: both count fully"
else
  bad "two sites, two learns at once: exits $r1 $r2, learned $a_learned and $o_learned (expected 310 and 300)" "$tmp/err1" "$tmp/err2"
fi
finish
