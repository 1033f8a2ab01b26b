#!/usr/bin/env bash
# SIGINT and SIGTERM during `winnow learn`: the run keeps what it read.
#
# usage: interrupt.sh WINNOW_BINARY [RUNS]
#
# Four generated sites (1,000 pages) are learned into a new database with
# --commit-every 40; an uninterrupted run gives the "after" state and its
# run time T. Then RUNS times the same learn starts on a new database and
# gets SIGINT (the last run: SIGTERM) at a random moment up to T/3 after
# its first commit shows in the database (`winnow sites`, which reads
# while it writes); a run that ends before the signal starts again. It
# must exit with 130 (143 for SIGTERM) and end with the line "winnow:
# interrupted by SIGINT: saved P pages of S sites in DB (R pages read);
# ...", with P > 0 and S > 0; the database must pass PRAGMA
# integrity_check and `winnow check`, list S sites whose learned pages sum
# to P, and have no -wal or -shm file beside it. Learning the same inputs
# again must then reach the after state exactly (the pages saved count as
# duplicates, the rest are counted in the same order). The second run, and
# an uninterrupted one, use -j 2 (sites learned side by side; a save waits
# for the queued pages): the same states. WINNOW_TEST_SEED makes the
# moments repeat (as far as timing allows).
set -u
winnow=${1:?usage: interrupt.sh WINNOW_BINARY [RUNS]}
runs=${2:-4}
. "$(dirname "$0")/lib.sh"

seed=${WINNOW_TEST_SEED:-$$}
RANDOM=$seed
echo "seed $seed (set WINNOW_TEST_SEED to repeat)"

gen "$tmp/a.jsonl" --format jsonl --pages 250 --host courier.example --seed 51
gen "$tmp/b.warc" --format warc --pages 250 --host gazette.example --seed 52 --template B
gen "$tmp/c.jsonl" --format jsonl --pages 250 --host herald.example --seed 53
gen "$tmp/d.jsonl" --format jsonl --pages 250 --host tribune.example --seed 54 --template B
inputs=("$tmp/a.jsonl" "$tmp/b.warc" "$tmp/c.jsonl" "$tmp/d.jsonl")

mkdir "$tmp/after"
t0=$(now_ms)
if run "uninterrupted learn" 0 learn "${inputs[@]}" --db "$tmp/after/sites.db" --commit-every 40 -q; then
  ok "uninterrupted learn"
fi
T=$(($(now_ms) - t0))
db_state "$tmp/after/sites.db" >"$tmp/after.state"
echo "uninterrupted learn: $T ms"
((T < 50)) && T=50
mkdir "$tmp/after-j2"
if run "uninterrupted learn -j 2" 0 learn "${inputs[@]}" --db "$tmp/after-j2/sites.db" --commit-every 40 -j 2 -q; then
  db_state "$tmp/after-j2/sites.db" >"$tmp/after-j2.state"
  if cmp -s "$tmp/after-j2.state" "$tmp/after.state"; then ok "uninterrupted learn -j 2: the state of -j 1"
  else diff "$tmp/after.state" "$tmp/after-j2.state" | head >"$tmp/diff"; bad "uninterrupted learn -j 2: another state" "$tmp/diff"; fi
fi

# first_commit PID DB: waits until DB lists a site (the first commit) or PID ended
first_commit() {
  while kill -0 "$1" 2>/dev/null; do
    [ -e "$2" ] && "$winnow" sites --db "$2" 2>/dev/null | awk 'NR > 1 { found = 1 } END { exit !found }' && return 0
    sleep 0.01
  done
  return 1
}

for ((i = 1; i <= runs; i++)); do
  sig=INT want=130
  ((i == runs)) && sig=TERM want=143
  d=$tmp/run$i
  db=$d/sites.db
  jobs=()
  ((i == 2)) && jobs=(-j 2)
  # after the first commit, at a random moment; a run that ends before the
  # signal (a loaded machine makes T unreliable) is started again
  for attempt in 1 2 3; do
    rm -rf "$d"
    mkdir "$d"
    delay=$(((RANDOM * 32768 + RANDOM) % (T / 3 + 1)))
    label="SIG$sig $delay ms after the first commit${jobs[*]:+, ${jobs[*]}}"
    "$winnow" learn "${inputs[@]}" --db "$db" --commit-every 40 "${jobs[@]}" -q >"$tmp/out" 2>"$tmp/err" </dev/null &
    pid=$!
    track "$pid"
    first_commit "$pid" "$db"
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    r=$?
    untrack "$pid"
    [ "$r" -ne 0 ] && break
    echo "attempt $attempt: the learn finished before the signal; again"
  done
  if sanitizer_spoke "$r" "$tmp/err"; then bad "$label: sanitizer report" "$tmp/err"; continue; fi
  if [ "$r" -eq 0 ]; then bad "$label: the learn finished before the signal (the test proves nothing)"; continue; fi
  line=$(tail -n 1 "$tmp/err")
  re="^winnow: interrupted by SIG$sig: saved ([0-9]+) pages? of ([0-9]+) sites? in $db \\(([0-9]+) pages read\\)"
  if [ "$r" -ne "$want" ] || ! [[ $line =~ $re ]]; then
    bad "$label: exit $r (expected $want), last line: $line" "$tmp/err"
    continue
  fi
  saved=${BASH_REMATCH[1]} sites=${BASH_REMATCH[2]} read=${BASH_REMATCH[3]}
  problems=()
  ((saved > 0 && sites > 0)) || problems+=("nothing saved")
  ((saved <= read)) || problems+=("more pages saved than read")
  integrity "$db" >"$tmp/integrity" 2>&1 || problems+=("integrity_check: $(head -c 100 "$tmp/integrity")")
  "$winnow" check --db "$db" >"$tmp/check" 2>&1 || problems+=("winnow check: $(head -c 150 "$tmp/check")")
  "$winnow" sites --db "$db" >"$tmp/sites" 2>&1 || problems+=("winnow sites failed")
  listed=$(awk 'NR > 1 && $3 > 0 { n++; s += $3 } END { printf "%d %d", n, s }' "$tmp/sites")
  [ "$listed" = "$sites $saved" ] || problems+=("the database lists (sites, pages) $listed, the message says $sites $saved")
  left=$(cd "$d" && ls -A | grep -vxF sites.db | tr '\n' ' ')
  [ -z "$left" ] || problems+=("files left: $left")
  if [ ${#problems[@]} -eq 0 ]; then
    ok "$label: exit $r, $saved pages of $sites sites saved of $read read, database sound"
  else
    bad "$label: $(IFS=';'; echo "${problems[*]}")" "$tmp/err" "$tmp/sites"
  fi
  if run "$label: learning again" 0 learn "${inputs[@]}" --db "$db" --commit-every 40 "${jobs[@]}" -q; then
    db_state "$db" >"$tmp/now.state"
    if cmp -s "$tmp/now.state" "$tmp/after.state"; then
      ok "$label: learning the inputs again reaches the uninterrupted state"
    else
      diff "$tmp/after.state" "$tmp/now.state" | head -20 >"$tmp/diff"
      bad "$label: learning the inputs again does not reach the uninterrupted state" "$tmp/diff"
    fi
  fi
done
finish
