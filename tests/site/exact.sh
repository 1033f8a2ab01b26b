#!/usr/bin/env bash
# Learning is exact: reading pages again never counts them again, pages
# with no visible text (no I-Match signature) included.
#
# usage: exact.sh WINNOW_BINARY [CORPUS_SITES_DIR]
#
# adamdrake.com of the corpus (four of its 103 pages have no visible text;
# the corpus part is skipped, with a line saying so, when it is not there):
#   - learned twice: every row as learned once;
#   - its partial merged twice: every row as learned once;
#   - its first 30 records learned (a learn interrupted there), then all of
#     it: every row as learned once, uninterrupted; the same through
#     partials (the first 30 records' part merged, then the whole one's).
# Without the corpus too: a folder of pages without URLs (--site), some
# empty, learned twice counts as once.
set -u
winnow=${1:?usage: exact.sh WINNOW_BINARY [CORPUS_SITES_DIR]}
. "$(dirname "$0")/lib.sh"
corpus=${2:-$here/../../../shared/corpus/sites}
[ -d "$corpus" ] || corpus=$here/../../../../shared/corpus/sites

# dump DB: every row of every site, by name, floats exact (no timestamps)
dump() {
  python3 - "$1" <<'EOF'
import sqlite3, sys
con = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
for sid, name, clock, pages, hl in con.execute(
        "SELECT id, name, clock, pages, half_life FROM sites ORDER BY name").fetchall():
    print("site", name, repr(clock), repr(pages), repr(hl))
    for r in con.execute("SELECT kind, key, df, t, sample FROM keys WHERE site=? ORDER BY kind, key", (sid,)):
        print(" key", r[0], r[1], repr(r[2]), repr(r[3]), repr(r[4]))
    for r in con.execute("SELECT imatch, t, url FROM pages WHERE site=? ORDER BY imatch", (sid,)):
        print(" page", r[0], repr(r[1]), repr(r[2]))
    for r in con.execute("SELECT page, imatch FROM ce_pages WHERE site=? ORDER BY page", (sid,)):
        print(" ce_page", r[0], r[1])
    for r in con.execute("SELECT page, path, hex(vec) FROM ce_blocks WHERE site=? ORDER BY rowid", (sid,)):
        print(" ce_block", r[0], r[1], r[2])
EOF
}

# same NAME A B: dumps equal (the first line, the site's clock and mass, shown on a difference)
same() {
  if cmp -s "$2" "$3"; then
    ok "$1 ($(head -1 "$2"))"
  else
    { echo "want: $(head -1 "$2")"; echo "got:  $(head -1 "$3")"; diff "$2" "$3" | head -10; } >"$tmp/diff"
    bad "$1: the databases differ" "$tmp/diff"
  fi
}

# Pages without URLs: two with text, two with none (told apart by their bytes only).
mkdir -p "$tmp/dir"
printf '<html><body><p>Alpha page about rivers and their long winding courses.</p></body></html>' >"$tmp/dir/a.html"
printf '<html><body><p>Beta page about mountains and the weather high up there.</p></body></html>' >"$tmp/dir/b.html"
printf '<html><head><title>Slides</title></head><body></body></html>' >"$tmp/dir/c.html"
printf '<html><body><script>var x = 1;</script></body></html>' >"$tmp/dir/d.html"
run "folder: learn once" 0 learn -q --site docs "$tmp/dir" --db "$tmp/dir1.db" && dump "$tmp/dir1.db" >"$tmp/dir1.txt"
grep -q "^site docs 4.0 " "$tmp/dir1.txt" && ok "folder: the two empty pages count once each" ||
  bad "folder: expected a clock of 4 pages" "$tmp/dir1.txt"
run "folder: learn again" 0 learn -q --site docs "$tmp/dir" --db "$tmp/dir1.db" && dump "$tmp/dir1.db" >"$tmp/dir2.txt" &&
  same "folder: learning again counts nothing" "$tmp/dir1.txt" "$tmp/dir2.txt"

w=$corpus/adamdrake.com.warc.gz
if [ ! -f "$w" ]; then
  echo "skipped (corpus part): the corpus WARC $w is not there"
  finish
fi

# head_warc IN OUT N: the first N gzip members (one record each)
head_warc() {
  python3 - "$@" <<'EOF'
import sys, zlib
data = open(sys.argv[1], "rb").read()
members, pos = [], 0
while pos < len(data):
    d = zlib.decompressobj(31)
    d.decompress(data[pos:])
    used = len(data) - pos - len(d.unused_data)
    members.append(data[pos:pos + used])
    pos += used
open(sys.argv[2], "wb").write(b"".join(members[:int(sys.argv[3])]))
EOF
}
head_warc "$w" "$tmp/head.warc.gz" 30

run "learn once" 0 learn -q "$w" --db "$tmp/once.db" && dump "$tmp/once.db" >"$tmp/once.txt"
grep -q "^site adamdrake.com 102.0 " "$tmp/once.txt" && ok "learn once: 102 distinct pages" ||
  bad "learn once: expected a clock of 102" "$tmp/once.txt"

run "learn twice" 0 learn -q "$w" --db "$tmp/twice.db" && run "learn twice (2nd)" 0 learn -q "$w" --db "$tmp/twice.db" &&
  { dump "$tmp/twice.db" >"$tmp/twice.txt"; same "learning twice equals learning once" "$tmp/once.txt" "$tmp/twice.txt"; }

run "learn --partial" 0 learn -q "$w" --partial "$tmp/all.wpart" &&
  run "merge" 0 merge -q "$tmp/all.wpart" --db "$tmp/merged.db" &&
  { dump "$tmp/merged.db" >"$tmp/merged1.txt"; same "merging the partial equals learning once" "$tmp/once.txt" "$tmp/merged1.txt"; } &&
  run "merge again" 0 merge -q "$tmp/all.wpart" --db "$tmp/merged.db" &&
  { dump "$tmp/merged.db" >"$tmp/merged2.txt"; same "merging the same partial twice equals once" "$tmp/once.txt" "$tmp/merged2.txt"; }

run "learn the first 30 records" 0 learn -q "$tmp/head.warc.gz" --db "$tmp/resumed.db" &&
  run "learn everything after" 0 learn -q "$w" --db "$tmp/resumed.db" &&
  { dump "$tmp/resumed.db" >"$tmp/resumed.txt"; same "interrupted after 30 records and resumed equals uninterrupted" "$tmp/once.txt" "$tmp/resumed.txt"; }

run "learn --partial of the first 30 records" 0 learn -q "$tmp/head.warc.gz" --partial "$tmp/head.wpart" &&
  run "merge the first 30 records' part, then the whole one's" 0 merge -q "$tmp/head.wpart" "$tmp/all.wpart" --db "$tmp/parts.db" &&
  { dump "$tmp/parts.db" >"$tmp/parts.txt"; same "a part of the first records, then the whole part, equals learning once" "$tmp/once.txt" "$tmp/parts.txt"; }

finish
