#!/usr/bin/env bash
# Two `winnow learn` runs on one site database at the same time (two
# crawlers feeding one database, or a cron job that overlaps the next).
#
# usage: writers.sh WINNOW_BINARY
#
# Both runs start from a database that already knows the site and learn
# disjoint batches of 300 pages. Allowed outcomes: both succeed and the
# database equals learning the two batches one after the other (in either
# order), or one fails with a one-line message naming the database and the
# database equals learning only the other batch. Not allowed: both report
# success and one batch's pages are lost. Control: two runs on two
# different sites at once both count fully.
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

# expected states, one batch after the other
expect() {
  local name=$1 f
  shift
  cp "$tmp/start.db" "$tmp/$name.db"
  for f in "$@"; do "$winnow" learn "$f" --db "$tmp/$name.db" -q 2>/dev/null; done
  db_state "$tmp/$name.db" >"$tmp/$name.state"
}
expect ab "$tmp/a.jsonl" "$tmp/b.jsonl"
expect ba "$tmp/b.jsonl" "$tmp/a.jsonl"
expect a "$tmp/a.jsonl"
expect b "$tmp/b.jsonl"

# together FILE1 FILE2: both learns at once; exit statuses in $r1 $r2
together() {
  "$winnow" learn "$1" --db "$db" -q >/dev/null 2>"$tmp/err1" &
  local p1=$!
  "$winnow" learn "$2" --db "$db" -q >/dev/null 2>"$tmp/err2" &
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
    bad "same site, two learns at once: both report success, but the database counts $learned pages learned (expected 610) while its pages table lists $pages_rows"
  fi
elif [ "$r1" -eq 0 ] || [ "$r2" -eq 0 ]; then
  if [ "$r1" -eq 0 ]; then err=$tmp/err2 want=a; else err=$tmp/err1 want=b; fi
  if [ "$(wc -l <"$err")" -eq 1 ] && grep -q "$db" "$err" && cmp -s "$tmp/now.state" "$tmp/$want.state"; then
    ok "same site, two learns at once: one fails with a clear message, the other counts: $(head -c 150 "$err")"
  else
    bad "same site, two learns at once: one failed, but not cleanly or the database is not the other's state" "$err"
  fi
else
  bad "same site, two learns at once: both fail" "$tmp/err1" "$tmp/err2"
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
