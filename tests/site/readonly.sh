#!/usr/bin/env bash
# Read-only site databases, and nothing left beside a database.
#
# usage: readonly.sh WINNOW_BINARY
#
# 1. After each command (learn creating a database, learn adding to it,
#    learn --batch, sites, site, extract --db, check, and a learn that
#    fails on a bad page), the database's folder holds the database file
#    and nothing else: no -wal, -shm or -journal file. The same for a file
#    left in WAL mode by an older winnow (format 1).
# 2. A database that cannot be written, in four ways: file 0444 in a
#    folder 0555 (run as user nobody when the test runs as root, since root
#    writes anyway); file 0666 in a folder 0555 (SQLite cannot create its
#    journal); a folder on a read-only bind mount (in a user and mount
#    namespace, `unshare -rm`, where the system allows it); and a format 1
#    file left in WAL mode in a folder 0555. On each,
#    `sites`, `site NAME`, `extract --db` and `check` exit 0 and print what
#    they print for a writable copy, and create no file; `learn` exits 1
#    with one line, "winnow: database is read-only: PATH (why)", and
#    changes no byte.
# Cases that the system cannot set up (no setpriv, no user namespaces) are
# reported as skipped.
set -u
winnow=${1:?usage: readonly.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

gen "$tmp/pages" --pages 12 --seed 21
gen "$tmp/more.jsonl" --format jsonl --pages 6 --start 12 --seed 21
page=$tmp/pages/page-00003.html

# only_db DIR NAME LABEL: DIR holds NAME and nothing else
only_db() {
  local left
  left=$(cd "$1" && ls -A | grep -vxF "$2" | tr '\n' ' ')
  if [ -z "$left" ]; then ok "$3: the folder holds only $2"; else bad "$3: files left beside $2: $left"; fi
}

# --- 1. nothing left beside the database ------------------------------------
d=$tmp/w
mkdir "$d"
db=$d/sites.db
run "learn creating the database" 0 learn "$tmp/pages" --db "$db" --site news -q && only_db "$d" sites.db "learn creating the database"
run "learn adding pages" 0 learn "$tmp/more.jsonl" --db "$db" --site news -q && only_db "$d" sites.db "learn adding pages"
run "learn --batch with --db" 0 learn --batch "$tmp/pages" --db "$db" --site news -q -o "$tmp/batch-out" &&
  only_db "$d" sites.db "learn --batch --db"
run "sites" 0 sites --db "$db" && only_db "$d" sites.db "sites"
run "site" 0 site news --db "$db" && only_db "$d" sites.db "site"
run "extract --db" 0 extract --db "$db" --site news "$page" && only_db "$d" sites.db "extract --db"
run "extract --db of a directory, 2 threads" 0 extract --db "$db" --site news "$tmp/pages" -j 2 -o "$tmp/x-out" -q &&
  only_db "$d" sites.db "extract --db -j 2"
run "check" 0 check --db "$db" && only_db "$d" sites.db "check"
printf '\x89PNG\r\n\x1a\n' >"$tmp/bad.html"
run "learn with a failing page" 1 learn "$tmp/bad.html" --db "$db" --site news -q && only_db "$d" sites.db "learn with a failing page"

# reference outputs, from the writable database
"$winnow" sites --db "$db" >"$tmp/ref.sites" 2>/dev/null
"$winnow" site news --db "$db" >"$tmp/ref.site" 2>/dev/null
"$winnow" extract --db "$db" --site news "$page" >"$tmp/ref.extract" 2>/dev/null
grep -q '^news ' "$tmp/ref.sites" || bad "the reference listing lacks the site" "$tmp/ref.sites"

# a format 1 file, as its writers left it: in WAL mode
old=$tmp/old
mkdir "$old"
cp "$db" "$old/sites.db"
python3 - "$old/sites.db" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript("DROP TABLE sums; DELETE FROM meta WHERE key = 'sites'; PRAGMA user_version = 1;")
con.execute("PRAGMA journal_mode = WAL")
con.close()
EOF
rm -f "$old/sites.db-wal" "$old/sites.db-shm"
cp "$old/sites.db" "$tmp/old-format.db"
if run "sites on a format 1 file in WAL mode" 0 sites --db "$old/sites.db"; then
  cmp -s "$tmp/out" "$tmp/ref.sites" && ok "sites on a format 1 file lists what the format 2 file lists" ||
    bad "sites on a format 1 file lists something else" "$tmp/out"
  only_db "$old" sites.db "sites on a format 1 file in WAL mode"
fi

# --- 2. databases that cannot be written -------------------------------------
# the binary where user nobody can run it
mkdir "$tmp/bin"
cp "$winnow" "$tmp/bin/winnow"
chmod 0755 "$tmp" "$tmp/bin" "$tmp/bin/winnow" "$tmp/pages"
chmod 0644 "$tmp/pages"/*.html

# readonly_case LABEL DIR REAL RUNNER...: the commands through RUNNER (a
# prefix that runs a command without write access to DIR/sites.db); REAL
# is the folder where this shell sees the same file (DIR, or what is
# mounted on DIR)
readonly_case() {
  local label=$1 dir=$2 real=$3 cmd name r problems
  shift 3
  local runner=("$@") rdb=$dir/sites.db
  local before
  before=$(cd "$real" && ls -A | tr '\n' ' ')
  cp "$real/sites.db" "$tmp/ro-before.db"
  for cmd in sites site extract check learn; do
    case $cmd in
    sites) args=(sites --db "$rdb") ref=$tmp/ref.sites want=0 ;;
    site) args=(site news --db "$rdb") ref=$tmp/ref.site want=0 ;;
    extract) args=(extract --db "$rdb" --site news "$page") ref=$tmp/ref.extract want=0 ;;
    check) args=(check --db "$rdb") ref= want=0 ;;
    learn) args=(learn "$tmp/pages" --db "$rdb" --site news) ref= want=1 ;;
    esac
    name="$label: $cmd"
    "${runner[@]}" "$tmp/bin/winnow" "${args[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
    r=$?
    problems=()
    if sanitizer_spoke "$r" "$tmp/err"; then problems+=("sanitizer report"); fi
    [ "$r" -eq "$want" ] || problems+=("exit status $r, expected $want")
    if [ -n "$ref" ] && ! cmp -s "$tmp/out" "$ref"; then problems+=("the output differs from the writable database's"); fi
    if [ "$cmd" = check ] && ! grep -q ': sound: ' "$tmp/out"; then problems+=("check does not say sound"); fi
    if [ "$cmd" = learn ]; then
      [ "$(wc -l <"$tmp/err")" -eq 1 ] || problems+=("$(wc -l <"$tmp/err") lines on stderr, expected 1")
      grep -qF "winnow: database is read-only: $rdb (" "$tmp/err" || problems+=("no 'database is read-only: $rdb' message")
    fi
    cmp -s "$real/sites.db" "$tmp/ro-before.db" || problems+=("the file was modified")
    [ "$(cd "$real" && ls -A | tr '\n' ' ')" = "$before" ] || problems+=("files appeared: $(cd "$real" && ls -A | tr '\n' ' ')")
    if [ ${#problems[@]} -eq 0 ]; then
      ok "$name${want:+ (exit $r)}$([ "$cmd" = learn ] && echo ": $(head -c 150 "$tmp/err")")"
    else
      bad "$name: $(IFS=';'; echo "${problems[*]}")" "$tmp/err" "$tmp/out"
    fi
  done
}

ro=$tmp/ro
mkdir "$ro"
cp "$db" "$ro/sites.db"
chmod 0444 "$ro/sites.db"
chmod 0555 "$ro"
runner=()
if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups true 2>/dev/null &&
    setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$tmp/bin/winnow" version >/dev/null 2>&1; then
    runner=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
  else
    echo "skip file 0444 in folder 0555: running as root without a way to run as nobody (setpriv)"
    runner=(skip)
  fi
fi
[ "${runner[0]:-}" = skip ] || readonly_case "file 0444, folder 0555" "$ro" "$ro" "${runner[@]}"

# a file anyone may write, in a folder nobody may (SQLite needs the folder
# for its journal)
ro_dir=$tmp/ro-dir
mkdir "$ro_dir"
cp "$db" "$ro_dir/sites.db"
chmod 0666 "$ro_dir/sites.db"
chmod 0555 "$ro_dir"
[ "${runner[0]:-}" = skip ] || readonly_case "file 0666, folder 0555" "$ro_dir" "$ro_dir" "${runner[@]}"

# a format 1 file in WAL mode in the same kind of folder
ro_old=$tmp/ro-old
mkdir "$ro_old"
cp "$tmp/old-format.db" "$ro_old/sites.db"
chmod 0444 "$ro_old/sites.db"
chmod 0555 "$ro_old"
[ "${runner[0]:-}" = skip ] || readonly_case "format 1 file in WAL mode, folder 0555" "$ro_old" "$ro_old" "${runner[@]}"

# a read-only bind mount, in namespaces of its own (nothing to undo)
mnt=$tmp/mnt src=$tmp/mnt-src
mkdir "$mnt" "$src"
cp "$db" "$src/sites.db"
ro_mount() {
  unshare -rm sh -c 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && shift 2 && exec "$@"' sh "$src" "$mnt" "$@"
}
if command -v unshare >/dev/null && ro_mount sh -c '! touch "$0/x" 2>/dev/null' "$mnt" 2>/dev/null; then
  readonly_case "read-only bind mount" "$mnt" "$src" ro_mount
else
  echo "skip read-only bind mount: user and mount namespaces are not available here"
fi
chmod 0755 "$ro" "$ro_old" "$ro_dir"
finish
