#!/usr/bin/env bash
# Two learns creating one new database at once: both sites saved, every time.
#
# usage: create.sh WINNOW_BINARY
#
# 60 trials (a few in 100 failed before the fix): the database removed, then two `winnow learn` of different
# sites started together on it. One creates the tables while the other
# checks what the file holds; the checker must see either an empty file or
# the whole schema, never tables without the winnow application id ("is an
# SQLite database but not a winnow site database", and its pages lost).
# Each trial: both exit 0 with nothing on stderr, `winnow sites` lists both
# sites, `winnow check` passes and no -wal or -shm file is left.
set -u
winnow=${1:?usage: create.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"
samples=$here/../../samples

trials=60 lost=0 errors=0 leftover=0 unsound=0
for i in $(seq "$trials"); do
  db=$tmp/r.db
  rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
  "$winnow" learn -q --db "$db" --site a "$samples/git-am.html" >/dev/null 2>"$tmp/a.err" &
  pa=$!
  track "$pa"
  "$winnow" learn -q --db "$db" --site b "$samples/python-poplib.html" >/dev/null 2>"$tmp/b.err"
  rb=$?
  wait "$pa"
  ra=$?
  untrack "$pa"
  if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ] || [ -s "$tmp/a.err" ] || [ -s "$tmp/b.err" ]; then
    errors=$((errors + 1))
    [ "$errors" -eq 1 ] && { echo "exit statuses $ra, $rb"; cat "$tmp/a.err" "$tmp/b.err"; } >"$tmp/first.err"
  fi
  sites=$("$winnow" sites --db "$db" 2>/dev/null | awk 'NR > 1 { print $1 }' | LC_ALL=C sort | tr '\n' ' ')
  [ "$sites" = "a b " ] || lost=$((lost + 1))
  "$winnow" check --db "$db" >/dev/null 2>&1 || unsound=$((unsound + 1))
  { [ -e "$db-wal" ] || [ -e "$db-shm" ]; } && leftover=$((leftover + 1))
done
[ "$errors" -eq 0 ] && ok "$trials trials: both learns exit 0 and say nothing" ||
  bad "$errors of $trials trials: a learn failed or spoke" "$tmp/first.err"
[ "$lost" -eq 0 ] && ok "$trials trials: both sites saved" || bad "$lost of $trials trials lost a site"
[ "$unsound" -eq 0 ] && ok "$trials trials: winnow check passes" || bad "$unsound of $trials trials: winnow check fails"
[ "$leftover" -eq 0 ] && ok "$trials trials: no -wal or -shm left" || bad "$leftover of $trials trials left -wal or -shm"
finish
