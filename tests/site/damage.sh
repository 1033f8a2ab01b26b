#!/usr/bin/env bash
# Damaged site databases: a command either says so or prints the truth,
# and nothing is written into a damaged file.
#
# usage: damage.sh WINNOW_BINARY [COPIES]
#
# A small database is learned (two sites, 12 and 8 pages) and the outputs
# of `sites`, `site news`, `site gazette --all`, `extract --db` of a page
# of each site and `check` are recorded. Then COPIES copies (default 48)
# get one byte changed: 4 in the file header, 4 elsewhere on the first
# page (the schema), the rest anywhere in the file, at offsets and values
# from a fixed seed (WINNOW_TEST_SEED changes it). Each copy is classed
# intact (SQLite's integrity check passes and every row, the schema,
# application_id and user_version read the same as the original's: the
# byte was one nobody reads) or damaged. On each copy:
#  - sites, site, extract, check: exit 0 with the reference output (check:
#    only for an intact copy), or a non-zero exit (5 when the message says
#    the database is damaged) with one line on stderr that names the file
#    and says what is wrong; the file's bytes stay as they were;
#  - learn (the same pages again and 4 new ones): on a damaged copy, a
#    non-zero exit with such a line and no byte changed; on an intact copy
#    either that, or exit 0 and the state learning on the original gives.
# And a site with one fingerprint's count changed (its rows no longer match
# its checksum), its 12 pages extracted with --db (-o DIR, -f jsonl), dedup
# and index: exit 5, the error said once (not once per page), and every
# page's manifest or JSONL line has WINNOW_E_DB_DAMAGED.
set -u
winnow=${1:?usage: damage.sh WINNOW_BINARY [COPIES]}
copies=${2:-48}
. "$(dirname "$0")/lib.sh"

seed=${WINNOW_TEST_SEED:-4711}
echo "seed $seed (set WINNOW_TEST_SEED to change)"

gen "$tmp/news" --pages 12 --seed 81
gen "$tmp/gazette" --pages 8 --seed 82 --template B
gen "$tmp/more" --pages 4 --start 12 --seed 81
good=$tmp/good.db
run "learn news" 0 learn "$tmp/news" --db "$good" --site news -q || finish
run "learn gazette" 0 learn "$tmp/gazette" --db "$good" --site gazette -q || finish
ls "$tmp"/*.db-* >/dev/null 2>&1 && bad "files left beside the database after learn"

# cmd_args NAME DB: the command line of check NAME on DB
cmd_args() {
  case $1 in
  sites) args=(sites --db "$2") ;;
  site) args=(site news --db "$2") ;;
  site-all) args=(site gazette --all --db "$2") ;;
  extract-news) args=(extract --db "$2" --site news "$tmp/news/page-00004.html") ;;
  extract-gazette) args=(extract --db "$2" --site gazette "$tmp/gazette/page-00002.html") ;;
  check) args=(check --db "$2") ;;
  learn) args=(learn "$tmp/news" "$tmp/more" --db "$2" --site news -q) ;;
  esac
}
readers=(sites site site-all extract-news extract-gazette check)
for c in "${readers[@]}"; do
  cmd_args "$c" "$good"
  run "reference $c" 0 "${args[@]}" || finish
  sed "s|$good|DB|g" "$tmp/out" >"$tmp/ref.$c"
done
cp "$good" "$tmp/learned.db"
run "reference learn" 0 learn "$tmp/news" "$tmp/more" --db "$tmp/learned.db" --site news -q || finish
db_state "$tmp/learned.db" >"$tmp/ref.learn"

# the copies, and which are intact
mkdir "$tmp/copies"
python3 - "$good" "$tmp/copies" "$copies" "$seed" <<'EOF' >"$tmp/copies.tsv" 2>"$tmp/copies.err" || bad "making the copies" "$tmp/copies.err"
import random, sqlite3, sys
good, out, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(good, "rb").read()
r = random.Random(seed)

def content(path):
    # immutable: nothing is created beside the file, nothing recovered
    con = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    con.text_factory = bytes  # the bytes as stored, valid UTF-8 or not
    try:
        if con.execute("PRAGMA integrity_check").fetchall() != [(b"ok",)]:
            return None
        c = {"pragma": [con.execute("PRAGMA %s" % p).fetchall() for p in ("application_id", "user_version", "encoding")]}
        schema = con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()
        c["schema"] = schema
        for (kind, name, _, _) in schema:
            if kind == b"table":
                table = name.decode("utf-8", "replace")
                c[table] = sorted(con.execute('SELECT * FROM "%s"' % table).fetchall(), key=repr)
        if set(c) != {"pragma", "schema", "meta", "sites", "keys", "pages", "ce_pages", "ce_blocks", "sums"}:
            return None
        return c
    except (sqlite3.Error, ValueError):
        return None
    finally:
        con.close()

want = content(good)
if want is None:
    sys.exit("the undamaged database does not read back")
for i in range(n):
    if i < 4:
        off = r.randrange(0, 100)
    elif i < 8:
        off = r.randrange(100, 4096)
    else:
        off = r.randrange(0, len(data))
    b = bytearray(data)
    new = r.randrange(255)
    if new >= b[off]:
        new += 1
    old, b[off] = b[off], new
    path = "%s/copy%02d.db" % (out, i)
    open(path, "wb").write(b)
    print("%s\t%d\t%d\t%d\t%s" % (path, off, old, new, "intact" if content(path) == want else "damaged"))
EOF

nintact=0 ndamaged=0 learn_refused=0 learn_ok=0
declare -A caught
while IFS=$'\t' read -r copy off old new class; do
  label="$(basename "$copy") (byte $off: $old -> $new, $class)"
  [ "$class" = intact ] && nintact=$((nintact + 1)) || ndamaged=$((ndamaged + 1))
  cp "$copy" "$copy.orig"
  first_catch=
  for c in "${readers[@]}" learn; do
    cmd_args "$c" "$copy"
    "$winnow" "${args[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
    r=$?
    problems=()
    if sanitizer_spoke "$r" "$tmp/err"; then problems+=("sanitizer report (exit $r)")
    elif [ "$r" -eq 0 ]; then
      if [ "$c" = learn ]; then
        if [ "$class" != intact ]; then
          problems+=("learn exit 0 on a damaged copy")
        else
          db_state "$copy" >"$tmp/now.learn"
          cmp -s "$tmp/now.learn" "$tmp/ref.learn" || problems+=("learn exit 0, but not the state learning on the original gives")
        fi
      else
        sed "s|$copy|DB|g" "$tmp/out" >"$tmp/out.db"
        cmp -s "$tmp/out.db" "$tmp/ref.$c" || problems+=("exit 0 with other output than the undamaged database's")
        [ "$c" = check ] && [ "$class" != intact ] && problems+=("check says sound")
      fi
    else
      [ -z "$first_catch" ] && first_catch=$c
      lines=$(grep -vc '^totals: ' "$tmp/err")  # a run's totals line is no error
      [ "$lines" -eq 1 ] || problems+=("$lines lines on stderr, expected 1")
      grep -q "^winnow: .*$copy" "$tmp/err" || problems+=("the message does not name the file")
      grep -qiE 'damaged|malformed|corrupt|not a (winnow site )?database|format|cannot open|cannot read|no site named' "$tmp/err" ||
        problems+=("the message does not say what is wrong")
      if grep -qi damaged "$tmp/err" && [ "$r" -ne 5 ]; then problems+=("exit $r for a damaged database, expected 5"); fi
      [ "$c" = learn ] && learn_refused=$((learn_refused + 1))
    fi
    [ "$c" = learn ] && [ "$r" -eq 0 ] && learn_ok=$((learn_ok + 1))
    if [ "$c" != learn ] || [ "$r" -ne 0 ]; then
      cmp -s "$copy" "$copy.orig" || problems+=("the file was modified")
    fi
    ls "$copy"-* >/dev/null 2>&1 && problems+=("files left beside it: $(ls "$copy"-* | tr '\n' ' ')")
    if [ ${#problems[@]} -gt 0 ]; then
      bad "$label: $c: $(IFS=';'; echo "${problems[*]}")" "$tmp/err"
    fi
    cp "$copy.orig" "$copy"
  done
  caught[${first_catch:-none}]=$((${caught[${first_catch:-none}]:-0} + 1))
  if [ -n "$first_catch" ]; then ok "$label: first refused by $first_catch"
  else ok "$label: every command gave the undamaged output"; fi
done <"$tmp/copies.tsv"
# a damaged site's pages: WINNOW_E_DB_DAMAGED each, the error said once
cp "$good" "$tmp/rows.db"
python3 - "$tmp/rows.db" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
sid = con.execute("SELECT id FROM sites WHERE name = 'news'").fetchone()[0]
key = con.execute("SELECT kind, key FROM keys WHERE site = ? ORDER BY kind, key LIMIT 1", (sid,)).fetchone()
con.execute("UPDATE keys SET df = df + 1 WHERE site = ? AND kind = ? AND key = ?", (sid,) + key)
con.commit()
con.close()
EOF
rows_damaged() { # NAME ERRFILE: exit 5 and one line on stderr saying the database is damaged
  local lines
  lines=$(grep -vc '^totals: ' "$2")  # a run's totals line is no error
  [ "$rc" -eq 5 ] && [ "$lines" -eq 1 ] && grep -q "damaged" "$2" && ok "$1: exit 5, the error said once" ||
    bad "$1: exit $rc with $lines lines on stderr, expected 5 and 1" "$2"
}
"$winnow" extract --db "$tmp/rows.db" --site news "$tmp/news" -o "$tmp/rows-out" >/dev/null 2>"$tmp/rows.err"
rc=$?
rows_damaged "damaged site: extract -o" "$tmp/rows.err"
n=$(awk -F'\t' 'NR > 1 && $6 == "WINNOW_E_DB_DAMAGED"' "$tmp/rows-out/manifest.tsv" | wc -l)
[ "$n" -eq 12 ] && ok "damaged site: 12 manifest lines with WINNOW_E_DB_DAMAGED" ||
  bad "damaged site: $n of 12 manifest lines with WINNOW_E_DB_DAMAGED" "$tmp/rows-out/manifest.tsv"
"$winnow" extract --db "$tmp/rows.db" --site news "$tmp/news" -f jsonl >"$tmp/rows.jsonl" 2>"$tmp/rows.err"
rc=$?
rows_damaged "damaged site: extract -f jsonl" "$tmp/rows.err"
n=$(grep -c '"status":"WINNOW_E_DB_DAMAGED"' "$tmp/rows.jsonl")
[ "$n" -eq 12 ] && ok "damaged site: 12 JSONL lines with WINNOW_E_DB_DAMAGED" ||
  bad "damaged site: $n of 12 JSONL lines with WINNOW_E_DB_DAMAGED" "$tmp/rows.jsonl"
"$winnow" dedup -q --db "$tmp/rows.db" --site news "$tmp/news" >/dev/null 2>"$tmp/rows.err"
rc=$?
rows_damaged "damaged site: dedup" "$tmp/rows.err"
"$winnow" index -q --site-db "$tmp/rows.db" --site news "$tmp/news" --db "$tmp/rows.idx" >/dev/null 2>"$tmp/rows.err"
rc=$?
rows_damaged "damaged site: index" "$tmp/rows.err"

summary=""
for k in "${!caught[@]}"; do summary+=" $k:${caught[$k]}"; done
echo "$copies copies: $nintact intact, $ndamaged damaged; first command to refuse:$summary; learn refused $learn_refused, succeeded on $learn_ok (intact copies only)"
[ "$ndamaged" -gt 0 ] || bad "no copy was damaged: the test proves nothing"
finish
