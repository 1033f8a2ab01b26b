#!/usr/bin/env bash
# A full disk: learn, learn --partial and extract -o say so, exit 1, claim
# nothing they did not keep, and leave a sound database.
#
# usage: fulldisk.sh WINNOW_BINARY
#
# A 256 KiB tmpfs is mounted (as root, or else in a private user and mount
# namespace where `unshare -rm` is allowed; the test is skipped, with a line
# saying so, where neither is permitted) and 200 generated pages
# (a 300 KB database) are learned and extracted onto it:
#   - learn --db: exit 1, "the disk is full" on stderr, no "learned N
#     pages" line; `winnow check` finds the database sound; the -wal file
#     SQLite keeps is said to stay, and once room is made the next command
#     folds it back (no -wal or -shm left, the database still sound, and
#     learning works again);
#   - learn --partial: exit 1, the partial file not there (nor a temporary
#     file), no "learned" line;
#   - merge: exit 1, "the disk is full", no "merged" line, the database sound;
#   - extract -o: exit 1, and stderr says the manifest could not be written
#     (an earlier run's manifest there is not left to describe this one).
set -u
winnow=${1:?usage: fulldisk.sh WINNOW_BINARY}
# not root: the same test as root of a private user and mount namespace
if [ "$(id -u)" -ne 0 ] && [ -z "${WINNOW_FULLDISK_NS:-}" ] && unshare -rm true 2>/dev/null; then
  WINNOW_FULLDISK_NS=1 exec unshare -rm bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

disk=$tmp/disk
mkdir -p "$disk"
if ! mount -t tmpfs -o size=256k tmpfs "$disk" 2>"$tmp/mount.err"; then
  echo "skipped: cannot mount a small tmpfs here ($(head -1 "$tmp/mount.err")): run as root to test a full disk"
  echo "0 passed, 0 failed"
  exit 0
fi
# unmounted before lib.sh removes $tmp
trap 'umount "$disk" 2>/dev/null; cleanup' EXIT

gen "$tmp/site" --pages 200 --seed 5

# learn --db onto the full disk (64 KiB of it taken, to be given back later)
db=$disk/sites.db
head -c 65536 /dev/zero >"$disk/filler"
run "learn onto a full disk" 1 learn --site news "$tmp/site" --db "$db"
cp "$tmp/err" "$tmp/learn.err"
grep -q "the disk is full" "$tmp/learn.err" && ok "learn: says the disk is full" ||
  bad "learn: the message does not say the disk is full" "$tmp/learn.err"
grep -q "^learned " "$tmp/learn.err" && bad "learn: claims pages learned after the save failed" "$tmp/learn.err" ||
  ok "learn: no 'learned N pages' claim"
if [ -e "$db-wal" ]; then
  grep -q -- "-wal and -shm stay beside" "$tmp/learn.err" && ok "learn: says the -wal file stays and why" ||
    bad "learn: a -wal file is left and not mentioned" "$tmp/learn.err"
fi
run "check after the failed learn" 0 check --db "$db" && ok "check: the database is sound on the full disk"
# room made: the next command folds the WAL back
rm -f "$disk/filler"
run "check once there is room" 0 check --db "$db" && ok "check: sound once there is room"
ls "$disk"/sites.db-* >/dev/null 2>&1 && bad "files beside the database after check: $(ls "$disk" | tr '\n' ' ')" ||
  ok "check: the WAL folded back, no -wal or -shm left"
run "learn a few pages once there is room" 0 learn -q --site news "$tmp/site/page-00000.html" "$tmp/site/page-00001.html" --db "$db" &&
  run "check after" 0 check --db "$db" && ok "learn works again, the database sound"
rm -f "$db" "$db-wal" "$db-shm"

# learn --partial onto the full disk: fill it first
head -c 200000 /dev/zero >"$disk/filler" 2>/dev/null
run "learn --partial onto a full disk" 1 learn --site news "$tmp/site" --partial "$disk/p.wpart"
grep -qi "no space left" "$tmp/err" && ok "learn --partial: says the disk is full" ||
  bad "learn --partial: the message does not say the disk is full" "$tmp/err"
grep -q "^learned " "$tmp/err" && bad "learn --partial: claims pages learned the file does not hold" "$tmp/err" ||
  ok "learn --partial: no 'learned N pages' claim"
[ -n "$(ls -A "$disk" | grep -v '^filler$')" ] && bad "learn --partial: files left: $(ls -A "$disk" | tr '\n' ' ')" ||
  ok "learn --partial: no partial or temporary file left"
rm -f "$disk/filler"

# merge onto the full disk
run "learn --partial (elsewhere)" 0 learn -q --site news "$tmp/site" --partial "$tmp/all.wpart"
head -c 65536 /dev/zero >"$disk/filler"
run "merge onto a full disk" 1 merge "$tmp/all.wpart" --db "$db"
grep -q "the disk is full" "$tmp/err" && ok "merge: says the disk is full" ||
  bad "merge: the message does not say the disk is full" "$tmp/err"
grep -q "^merged " "$tmp/err" && bad "merge: claims pages merged after it failed" "$tmp/err" || ok "merge: no 'merged' claim"
rm -f "$disk/filler"
run "check after the failed merge" 0 check --db "$db" && ok "merge: the database sound after"
rm -f "$db" "$db-wal" "$db-shm"

# extract -o onto the full disk, over an earlier run's manifest
mkdir -p "$disk/out"
printf 'output\tinput\trecord\trecord_id\turl\tstatus\tmessage\nold\t\t\t\t\tWINNOW_OK\t\n' >"$disk/out/manifest.tsv"
run "extract onto a full disk" 1 extract -q --site news "$tmp/site" -o "$disk/out"
# the manifest is written as the run goes: either it lists this run's pages
# (the earlier run's "old" line gone, every output it names present) or an
# error says it could not be written and none is left
if grep -q "manifest.tsv: .*no manifest" "$tmp/err"; then
  [ -e "$disk/out/manifest.tsv" ] && bad "extract: an earlier run's manifest describes this run's outputs" ||
    ok "extract: says the manifest could not be written, no stale manifest left"
elif [ -s "$disk/out/manifest.tsv" ] && ! grep -q '^old' "$disk/out/manifest.tsv" &&
  tail -n +2 "$disk/out/manifest.tsv" | awk -F'\t' '$1 != "" {print $1}' | while read -r f; do [ -e "$disk/out/$f" ] || exit 1; done; then
  ok "extract: the manifest lists this run's pages only, each output present"
else
  bad "extract: the manifest is missing without a word, or stale" "$tmp/err"
fi
finish
