#!/usr/bin/env bash
# kill -9 during `winnow learn`: the site database keeps the state of its
# last commit, never anything in between, and stays usable.
#
# usage: crash.sh WINNOW_BINARY [KILLS]
#
# A first batch of two sites is learned and its state recorded (`winnow
# sites` and `winnow site NAME` for each site). An uninterrupted learn of a
# large second batch (more pages of both sites and a third, new site;
# --commit-every 100, so it commits eight times) on a copy gives the
# "after" state, the run time T and the length S of the save phase (from
# the first write to the WAL beyond the header and the frame written at
# open, to the exit). Then, KILLS times, the same learn starts on a fresh
# copy of the "before" database and gets SIGKILL: odd kills at a random
# moment in [0.05 s, T/2], while pages are read; even kills at a random
# moment in [0, 1.2 S] after the WAL starts to grow, that is while a
# transaction is written, committed and checkpointed. After each kill the
# database must open (`winnow sites` exit 0), pass PRAGMA integrity_check
# and `winnow check` (every site's checksum), and be in the before state,
# the after state, or the state of a commit between them: one that learning
# the batch again (on a copy) turns into exactly the after state. Finally
# the interrupted database learns the batch to the end and must reach the
# after state. WINNOW_TEST_SEED makes the kill moments repeat (as far as
# timing allows).
set -u
winnow=${1:?usage: crash.sh WINNOW_BINARY [KILLS]}
kills=${2:-8}
. "$(dirname "$0")/lib.sh"

seed=${WINNOW_TEST_SEED:-$$}
RANDOM=$seed
echo "seed $seed (set WINNOW_TEST_SEED to repeat)"

gen "$tmp/first.jsonl" --format jsonl --pages 40 --host courier.example --seed 11
gen "$tmp/first-b.jsonl" --format jsonl --pages 25 --host gazette.example --seed 12 --template B
gen "$tmp/big.warc" --format warc --pages 500 --start 40 --host courier.example --seed 11
gen "$tmp/big-b.jsonl" --format jsonl --pages 150 --start 25 --host gazette.example --seed 12 --template B
gen "$tmp/big-c.jsonl" --format jsonl --pages 100 --host herald.example --seed 13
big=("$tmp/big.warc" "$tmp/big-b.jsonl" "$tmp/big-c.jsonl")

db=$tmp/sites.db
if run "first learn" 0 learn "$tmp/first.jsonl" "$tmp/first-b.jsonl" --db "$db"; then ok "first learn"; fi
[ -e "$db-wal" ] && bad "a WAL file is left after a clean learn" && rm -f "$db-wal" "$db-shm"
cp "$db" "$tmp/before.db"
db_state "$db" >"$tmp/before.state"

# wal_size FILE: bytes in FILE, 0 when it is missing
wal_size() { local n; n=$(stat -c %s "$1" 2>/dev/null) || n=0; echo "$n"; }
# Open writes the WAL header and one frame (page 1): 32 + 24 + 4096 = 4152
# bytes; a save writes far more. The threshold leaves room for one frame more.
wal_open_bytes=8304
# wait_save PID: returns once the WAL outgrows what open writes (0) or PID ended (1)
wait_save() {
  while kill -0 "$1" 2>/dev/null; do
    (($(wal_size "$db-wal") > wal_open_bytes)) && return 0
  done
  return 1
}

cp "$tmp/before.db" "$tmp/after.db"
db=$tmp/after.db
t0=$(now_ms)
"$winnow" learn "${big[@]}" --db "$db" --commit-every 100 >"$tmp/out" 2>"$tmp/err" &
pid=$!
track "$pid"
wait_save "$pid"
t1=$(now_ms)
wait "$pid"
r=$?
untrack "$pid"
t2=$(now_ms)
T=$((t2 - t0)) S=$((t2 - t1))
if [ "$r" -eq 0 ] && ! sanitizer_spoke "$r" "$tmp/err"; then ok "uninterrupted learn"; else bad "uninterrupted learn: exit $r" "$tmp/err"; fi
db_state "$db" >"$tmp/after.state"
db=$tmp/sites.db
echo "uninterrupted learn of the second batch: $T ms, of which $S ms from the first write"
if cmp -s "$tmp/before.state" "$tmp/after.state"; then
  bad "the second batch does not change the database: the test proves nothing"
fi
grep -q '^herald.example' "$tmp/after.state" || bad "the after state lacks the new site" "$tmp/after.state"
((S < 5)) && S=5

# check_db LABEL: opens, is intact, is the before or the after state or a
# commit between them; sets $state
check_db() {
  local label=$1
  state=broken
  "$winnow" sites --db "$db" >"$tmp/sites.out" 2>"$tmp/sites.err"
  local r=$?
  if sanitizer_spoke "$r" "$tmp/sites.err"; then bad "$label: sanitizer report in winnow sites" "$tmp/sites.err"; return; fi
  if [ "$r" -ne 0 ]; then bad "$label: winnow sites exit $r" "$tmp/sites.err"; return; fi
  db_state "$db" >"$tmp/now.state"
  if ! integrity "$db" >"$tmp/integrity.out" 2>&1; then
    bad "$label: integrity_check failed" "$tmp/integrity.out"
    return
  fi
  if ! "$winnow" check --db "$db" >"$tmp/check.out" 2>&1; then
    bad "$label: winnow check failed" "$tmp/check.out"
    return
  fi
  if cmp -s "$tmp/now.state" "$tmp/before.state"; then state=before
  elif cmp -s "$tmp/now.state" "$tmp/after.state"; then state=after
  else
    # a commit between them: learning the batch again completes it
    rm -f "$tmp/resume.db"
    cp "$db" "$tmp/resume.db"
    "$winnow" learn "${big[@]}" --db "$tmp/resume.db" --commit-every 100 -q >/dev/null 2>"$tmp/resume.err"
    db_state "$tmp/resume.db" >"$tmp/resume.state"
    if ! cmp -s "$tmp/resume.state" "$tmp/after.state"; then
      diff "$tmp/before.state" "$tmp/now.state" | head -20 >"$tmp/diff.before"
      diff "$tmp/after.state" "$tmp/resume.state" | head -20 >"$tmp/diff.after"
      bad "$label: the database is neither the before nor the after state, and learning the batch again does not reach the after state" "$tmp/diff.before" "$tmp/diff.after" "$tmp/resume.err"
      return
    fi
    state="between ($(awk 'NR > 1 { n += $3 } END { print n }' "$tmp/sites.out") pages learned)"
  fi
  ok "$label: opens, integrity and checksums ok, $state state"
}

nbefore=0 nafter=0 nbetween=0
for ((i = 1; i <= kills; i++)); do
  rm -f "$db" "$db-wal" "$db-shm"
  cp "$tmp/before.db" "$db"
  "$winnow" learn "${big[@]}" --db "$db" --commit-every 100 -q >/dev/null 2>"$tmp/learn.err" &
  pid=$!
  track "$pid"
  if ((i % 2)); then
    delay=$((50 + (RANDOM * 32768 + RANDOM) % (T > 200 ? T / 2 - 50 : 50)))
    when="$delay ms after the start"
  else
    delay=$(((RANDOM * 32768 + RANDOM) % (S * 6 / 5 + 1)))
    ((i % 4 == 2)) && delay=0 # while the transaction is being written
    wait_save "$pid"
    when="$delay ms after the first write"
  fi
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  r=$?
  untrack "$pid"
  if [ "$r" -ne 137 ] && [ "$r" -ne 0 ]; then bad "kill $i: learn ended with exit $r before the kill" "$tmp/learn.err"; fi
  wal=no
  [ -e "$db-wal" ] && wal="$(stat -c %s "$db-wal") bytes"
  check_db "kill $i $when (exit $r, WAL: $wal)"
  case $state in before) nbefore=$((nbefore + 1)) ;; after) nafter=$((nafter + 1)) ;; between*) nbetween=$((nbetween + 1)) ;; esac
done
echo "states after the kills: $nbefore before, $nbetween between, $nafter after"

# the database is still writable, and the batch completes to the after state
if run "learn after the kills" 0 learn "${big[@]}" --db "$db" --commit-every 100; then ok "learn after the kills"; fi
db_state "$db" >"$tmp/now.state"
if cmp -s "$tmp/now.state" "$tmp/after.state"; then
  ok "learning the batch to the end gives the after state"
else
  diff "$tmp/after.state" "$tmp/now.state" | head -20 >"$tmp/diff"
  bad "learning the batch to the end does not give the after state" "$tmp/diff"
fi
finish
