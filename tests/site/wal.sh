#!/usr/bin/env bash
# Readers keep working while a writer updates the same site database (WAL).
#
# usage: wal.sh WINNOW_BINARY [WRITES]
#
# After a first learn, a writer runs `winnow learn --db DB` WRITES times in
# a row on new pages of the site (every run opens, commits one transaction
# and checkpoints on close). Meanwhile three readers loop until the writer
# is done: two run `winnow extract --db DB --site news PAGE` on changing
# pages, one runs `winnow sites --db DB`. Every read must exit 0 within its
# time limit, and produce output: the extract the page's whole article, the
# listing the site. At the end the database holds every page once, and
# no -wal or -shm file is left beside it (the last to close removes them).
set -u
winnow=${1:?usage: wal.sh WINNOW_BINARY [WRITES]}
writes=${2:-12}
. "$(dirname "$0")/lib.sh"

per_write=80
first=30
gen "$tmp/first" --pages $first --seed 31 --truth "$tmp/truth"
for ((w = 0; w < writes; w++)); do
  gen "$tmp/batch$w.jsonl" --format jsonl --pages $per_write --start $((first + w * per_write)) --seed 31
done
db=$tmp/sites.db
if run "first learn" 0 learn "$tmp/first" --db "$db" --site news -q; then ok "first learn"; fi

writer() {
  local w r
  for ((w = 0; w < writes; w++)); do
    "$winnow" learn "$tmp/batch$w.jsonl" --db "$db" --site news -q >"$tmp/writer.out" 2>"$tmp/writer.err"
    r=$?
    if [ "$r" -ne 0 ] || sanitizer_spoke "$r" "$tmp/writer.err"; then
      echo "learn run $w: exit $r: $(head -3 "$tmp/writer.err")" >>"$tmp/writer.fail"
    fi
  done
  : >"$tmp/writer.done"
}

# reader ID KIND: loops until the writer is done; one line per read in
# $tmp/reads.ID ("ok" or what went wrong)
reader() {
  local id=$1 kind=$2 n=0 k r out=$tmp/r$1.out err=$tmp/r$1.err
  while [ ! -e "$tmp/writer.done" ]; do
    k=$(printf '%05d' $(((n * 7 + id * 13) % first)))
    if [ "$kind" = extract ]; then
      timeout 60 "$winnow" extract --db "$db" --site news "$tmp/first/page-$k.html" >"$out" 2>"$err"
    else
      timeout 60 "$winnow" sites --db "$db" >"$out" 2>"$err"
    fi
    r=$?
    if [ "$r" -ne 0 ] || sanitizer_spoke "$r" "$err"; then
      echo "$kind of page $k: exit $r: $(head -2 "$err" | tr '\n' ' ')"
    elif [ ! -s "$out" ]; then
      echo "$kind of page $k: no output"
    elif [ "$kind" = extract ] && ! grep -qvxFf "$out" "$tmp/truth/page-$k.txt" 2>/dev/null; then
      echo ok
    elif [ "$kind" = extract ]; then
      echo "$kind of page $k: the article is not all there: $(grep -vxFf "$out" "$tmp/truth/page-$k.txt" | head -1 | cut -c1-60)"
    elif grep -q '^news ' "$out"; then
      echo ok
    else
      echo "sites: the site is not listed: $(head -3 "$out" | tr '\n' ' ')"
    fi
    n=$((n + 1))
  done >"$tmp/reads.$id"
}

pids=()
reader 1 extract &
pids+=($!)
reader 2 extract &
pids+=($!)
reader 3 sites &
pids+=($!)
t0=$(now_ms)
writer &
pids+=($!)
for p in "${pids[@]}"; do track "$p"; done
for p in "${pids[@]}"; do
  wait "$p"
  untrack "$p"
done
echo "$writes learn runs with readers: $(($(now_ms) - t0)) ms"

if [ -s "$tmp/writer.fail" ]; then bad "the writer failed" "$tmp/writer.fail"; else ok "$writes learn runs while the readers read"; fi
for id in 1 2 3; do
  total=$(wc -l <"$tmp/reads.$id")
  good=$(grep -cx ok "$tmp/reads.$id")
  if [ "$total" -lt 3 ]; then
    bad "reader $id: only $total reads during the writes (the writer was too quick to test anything)"
  elif [ "$good" -ne "$total" ]; then
    grep -vx ok "$tmp/reads.$id" | head -5 >"$tmp/failures"
    bad "reader $id: $((total - good)) of $total reads failed" "$tmp/failures"
  else
    ok "reader $id: $total reads during the writes, all fine"
  fi
done

if run "sites after the writes" 0 sites --db "$db"; then
  learned=$(awk '$1 == "news" { print $3 }' "$tmp/out")
  if [ "$learned" = $((first + writes * per_write)) ]; then ok "the database holds the $learned pages"
  else bad "the database holds $learned pages, expected $((first + writes * per_write))" "$tmp/out"; fi
fi
if [ -e "$db-wal" ] || [ -e "$db-shm" ]; then bad "files left beside the database: $(ls "$db"-* | tr '\n' ' ')"
else ok "no -wal or -shm file left"; fi
finish
