#!/usr/bin/env bash
# A site database that is not one this winnow can use gets a clear error,
# not a crash, and is left as it was.
#
# usage: baddb.sh WINNOW_BINARY
#
# Files: random bytes; a winnow database truncated to half its size; one
# with every page but the first overwritten with noise (the header reads
# fine, the tables do not); an SQLite database of another application; a
# winnow database with PRAGMA user_version 99 (a newer format) and one with
# user_version 0 (an older one); a directory. For each, `winnow sites`,
# `winnow site NAME`, `winnow extract --db`, `winnow learn --db` and
# `winnow check --db` must exit with status 5 for a damaged database and 1
# otherwise, write exactly one line on stderr that names the file and says
# what is wrong, raise no sanitizer report, and leave the file's bytes
# unchanged.
set -u
winnow=${1:?usage: baddb.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

gen "$tmp/pages" --pages 12 --seed 21
cd "$tmp" || exit 1
if run "learn a good database" 0 learn pages --db good.db --site news -q; then ok "learn a good database"; fi
[ -e good.db-wal ] && bad "a WAL file is left after a clean learn"

python3 - <<'EOF'
import random, shutil, sqlite3
r = random.Random(4242)
with open("random.db", "wb") as f:
    f.write(bytes(r.randrange(256) for _ in range(65536)))
good = open("good.db", "rb").read()
with open("truncated.db", "wb") as f:
    f.write(good[: len(good) // 2])
b = bytearray(good)
for off in range(4096, len(b), 4096):  # pages 2.. (the schema page stays)
    for i in range(0, 4096, 5):
        b[off + i] = r.randrange(256)
with open("damaged.db", "wb") as f:
    f.write(b)
con = sqlite3.connect("other-app.db")
con.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
con.execute("INSERT INTO notes(title, body) VALUES('shopping', 'bread, cheese, apples')")
con.commit()
con.close()
for name, version in (("newer.db", 99), ("older.db", 0)):
    shutil.copy("good.db", name)
    con = sqlite3.connect(name)
    con.execute("PRAGMA user_version=%d" % version)
    con.commit()
    con.close()
EOF
mkdir dir.db

# case FILE EXIT REASON_REGEX
case_db() {
  local f=$1 want=$2 reason=$3 label cmd
  cp -r "$f" "$f.orig"
  for cmd in "sites" "site" "extract" "learn" "check"; do
    label="$cmd on $f"
    case $cmd in
    sites) args=(sites --db "$f") ;;
    site) args=(site news --db "$f") ;;
    extract) args=(extract --db "$f" --site news pages/page-00003.html) ;;
    learn) args=(learn --db "$f" --site news pages) ;;
    check) args=(check --db "$f") ;;
    esac
    run "$label" "$want" "${args[@]}" || continue
    local lines problems=()
    lines=$(wc -l <"$tmp/err")
    [ "$lines" -eq 1 ] || problems+=("$lines lines on stderr, expected 1")
    grep -q "^winnow: .*$f" "$tmp/err" || problems+=("the message does not name $f")
    grep -qiE -- "$reason" "$tmp/err" || problems+=("the message does not say /$reason/")
    if [ -d "$f" ]; then [ -z "$(ls -A "$f")" ] || problems+=("the directory was written to")
    elif ! cmp -s "$f" "$f.orig"; then problems+=("the file was modified")
    fi
    [ -e "$f-journal" ] && problems+=("a rollback journal was left")
    if [ ${#problems[@]} -eq 0 ]; then
      ok "$label: $(head -c 160 "$tmp/err")"
    else
      bad "$label: $(IFS=';'; echo "${problems[*]}")" "$tmp/err"
    fi
    cp -r "$f.orig/." "$f" 2>/dev/null || cp "$f.orig" "$f"
  done
}

case_db random.db 1 'not a (winnow site )?database'
case_db truncated.db 5 'malformed|damaged|corrupt|truncated'
case_db damaged.db 5 'malformed|damaged|corrupt'
case_db other-app.db 1 'not a winnow site database'
case_db newer.db 1 'format 99.*newer'
case_db older.db 1 'format 0'
case_db dir.db 1 'directory|cannot open|unable to open|I/O error'

# the good database still works after all this
if run "sites on the good database" 0 sites --db good.db && grep -q '^news ' "$tmp/out"; then
  ok "sites on the good database"
fi
finish
