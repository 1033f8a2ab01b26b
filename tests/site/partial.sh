#!/usr/bin/env bash
# Site learning as map-reduce: `winnow learn --partial` on shards and
# `winnow merge` give exactly the database of one `winnow learn`.
#
# usage: partial.sh WINNOW_BINARY [CORPUS_SITES_DIR]
#
# Four small sites of the corpus (../shared/corpus/sites; the test is
# skipped, with a line saying so, when they are not there), learned:
#   - in one run (the reference), with the default half-life and with 10;
#   - in 3 shards with one site's WARC split in two (its first pages in one
#     shard, the rest in the next), with both half-lives; in 2 shards split
#     by WARC; in 3 shards with -j 2 (the parts must be -j 1's byte for byte);
#   - into an existing database (the first shard learned, the rest merged);
# and merged: a dump of every row (sites, fingerprints with df, t and
# sample, pages, ContentExtractor pages and blocks; floats exact, only the
# timestamps left out) must equal the reference byte for byte. Merging a
# part again changes nothing (its pages are duplicates).
# Bad parts: truncated, one byte changed, another format version, not a
# partial file, missing: exit 1 with a message naming the file, the
# database unchanged, and no database created where there was none.
# A damaged database: exit 5, nothing written.
set -u
winnow=${1:?usage: partial.sh WINNOW_BINARY [CORPUS_SITES_DIR]}
. "$(dirname "$0")/lib.sh"
corpus=${2:-$here/../../../shared/corpus/sites}
[ -d "$corpus" ] || corpus=$here/../../../../shared/corpus/sites
w1=$corpus/akendo.github.io.warc.gz w2=$corpus/barcampcork.ie.warc.gz
w3=$corpus/jew.ski-comics.warc.gz w4=$corpus/forum.opendcl.com.warc.gz
for f in "$w1" "$w2" "$w3" "$w4"; do
  if [ ! -f "$f" ]; then
    echo "skipped: the corpus WARC $f is not there"
    echo "0 passed, 0 failed"
    exit 0
  fi
done

# dump DB: every row of every site, by name, floats exact
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

# split_warc IN OUT1 OUT2: the gzip members (one record each) cut in two halves
split_warc() {
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
half = len(members) // 2
open(sys.argv[2], "wb").write(b"".join(members[:half]))
open(sys.argv[3], "wb").write(b"".join(members[half:]))
EOF
}

# same NAME A B: dumps equal
same() {
  if cmp -s "$2" "$3"; then
    ok "$1 ($(grep -c '^site' "$2") sites, $(wc -l <"$2") rows)"
  else
    diff "$2" "$3" | head -20 >"$tmp/diff"
    bad "$1: the databases differ" "$tmp/diff"
  fi
}

split_warc "$w1" "$tmp/w1a.warc.gz" "$tmp/w1b.warc.gz"

for hl in default 10; do
  opt=()
  [ "$hl" = default ] || opt=(--half-life "$hl")
  one=$tmp/one-$hl.db
  run "half-life $hl: one learn" 0 learn "$w1" "$w2" "$w3" "$w4" --db "$one" -q "${opt[@]}" || continue
  dump "$one" >"$tmp/one-$hl.txt"

  # k = 2, split by WARC (the default half-life only: the case below covers ageing)
  [ "$hl" = default ] && run "half-life $hl: learn --partial shard 1 of 2" 0 learn "$w1" "$w2" --partial "$tmp/a-$hl.wpart" -q "${opt[@]}" &&
    run "half-life $hl: learn --partial shard 2 of 2" 0 learn "$w3" "$w4" --partial "$tmp/b-$hl.wpart" -q "${opt[@]}" &&
    run "half-life $hl: merge 2 parts" 0 merge "$tmp/a-$hl.wpart" "$tmp/b-$hl.wpart" --db "$tmp/two-$hl.db" &&
    { dump "$tmp/two-$hl.db" >"$tmp/two-$hl.txt"; same "half-life $hl: 2 shards merged equal one learn" "$tmp/one-$hl.txt" "$tmp/two-$hl.txt"; }
  if [ "$hl" = default ]; then
    grep -q "merged 2 parts into .*: 450 pages (" "$tmp/err" && ok "merge's summary line" || bad "merge's summary line" "$tmp/err"
  fi

  # k = 3, one site's WARC split across shards 1 and 2
  run "half-life $hl: learn --partial shard 1 of 3" 0 learn "$tmp/w1a.warc.gz" --partial "$tmp/c1-$hl.wpart" -q "${opt[@]}" &&
    run "half-life $hl: learn --partial shard 2 of 3" 0 learn "$tmp/w1b.warc.gz" "$w2" --partial "$tmp/c2-$hl.wpart" -q "${opt[@]}" &&
    run "half-life $hl: learn --partial shard 3 of 3" 0 learn "$w3" "$w4" --partial "$tmp/c3-$hl.wpart" -q "${opt[@]}" &&
    run "half-life $hl: merge 3 parts" 0 merge "$tmp/c1-$hl.wpart" "$tmp/c2-$hl.wpart" "$tmp/c3-$hl.wpart" --db "$tmp/three-$hl.db" -q &&
    { dump "$tmp/three-$hl.db" >"$tmp/three-$hl.txt"; same "half-life $hl: 3 shards (a site split in two) merged equal one learn" "$tmp/one-$hl.txt" "$tmp/three-$hl.txt"; }

  # into an existing database, one part at a time
  [ "$hl" = default ] && run "half-life $hl: learn shard 1 into a database" 0 learn "$tmp/w1a.warc.gz" --db "$tmp/inc-$hl.db" -q "${opt[@]}" &&
    run "half-life $hl: merge shard 2 into it" 0 merge "$tmp/c2-$hl.wpart" --db "$tmp/inc-$hl.db" -q &&
    run "half-life $hl: merge shard 3 into it" 0 merge "$tmp/c3-$hl.wpart" --db "$tmp/inc-$hl.db" -q &&
    { dump "$tmp/inc-$hl.db" >"$tmp/inc-$hl.txt"; same "half-life $hl: learn, then merges into the database, equal one learn" "$tmp/one-$hl.txt" "$tmp/inc-$hl.txt"; }
done

# -j 2: the shards learned two sites at a time
run "-j 2: shard 1" 0 learn -j 2 "$tmp/w1a.warc.gz" --partial "$tmp/j1.wpart" -q &&
  run "-j 2: shard 2" 0 learn -j 2 "$tmp/w1b.warc.gz" "$w2" --partial "$tmp/j2.wpart" -q &&
  run "-j 2: shard 3" 0 learn -j 2 "$w3" "$w4" --partial "$tmp/j3.wpart" -q &&
  run "-j 2: merge" 0 merge "$tmp/j1.wpart" "$tmp/j2.wpart" "$tmp/j3.wpart" --db "$tmp/j.db" -q &&
  { dump "$tmp/j.db" >"$tmp/j.txt"; same "-j 2: 3 shards merged equal one learn" "$tmp/one-default.txt" "$tmp/j.txt"; }
if cmp -s "$tmp/j2.wpart" "$tmp/c2-default.wpart"; then ok "-j 2: the partial file is the one of -j 1, byte for byte"
else bad "-j 2: the partial file differs from -j 1's"; fi

# merging again: every page a duplicate, nothing changes
db=$tmp/two-default.db
if run "merge again" 0 merge "$tmp/a-default.wpart" "$tmp/b-default.wpart" --db "$db"; then
  dump "$db" >"$tmp/again.txt"
  same "merging the same parts again changes nothing" "$tmp/one-default.txt" "$tmp/again.txt"
  grep -q "(0 counted, 450 duplicates)" "$tmp/err" && ok "merge again: every page a duplicate" ||
    bad "merge again: every page a duplicate" "$tmp/err"
fi

# bad parts: the database untouched, none created
good=$tmp/a-default.wpart
python3 - "$good" "$tmp" <<'EOF'
import sys, gzip
src, tmp = sys.argv[1], sys.argv[2]
raw = open(src, "rb").read()
open(tmp + "/truncated.wpart", "wb").write(raw[: len(raw) // 2])
flipped = bytearray(raw)
flipped[len(raw) // 3] ^= 0x10
open(tmp + "/flipped.wpart", "wb").write(bytes(flipped))
body = bytearray(gzip.decompress(raw))
open(tmp + "/plain.wpart", "wb").write(bytes(body))        # not compressed: still a part
body[8] = 2                                                 # format 2
open(tmp + "/v2.wpart", "wb").write(gzip.compress(bytes(body)))
body[8] = 1
body[len(body) // 2] ^= 0x01                                # inside a site: its checksum
open(tmp + "/site.wpart", "wb").write(gzip.compress(bytes(body)))
open(tmp + "/text.wpart", "w").write("hello\n")
EOF
cp "$tmp/one-default.db" "$tmp/victim.db"
dump "$tmp/victim.db" >"$tmp/victim.before"
if run "an uncompressed part is read too" 0 merge "$tmp/plain.wpart" --db "$tmp/plain.db" -q; then
  dump "$tmp/plain.db" >"$tmp/plain.txt"
  run "same part compressed" 0 merge "$good" --db "$tmp/plain2.db" -q && dump "$tmp/plain2.db" >"$tmp/plain2.txt" &&
    same "an uncompressed part merges as the compressed one" "$tmp/plain.txt" "$tmp/plain2.txt"
fi
for case in "truncated:ends too early" "flipped:damaged partial file" "v2:partial file of format 2" \
            "site:does not match its checksum" "text:not a winnow partial file" "missing:cannot open"; do
  name=${case%%:*} want=${case#*:}
  part=$tmp/$name.wpart
  run "bad part $name into a database" 1 merge "$good" "$part" --db "$tmp/victim.db" || continue
  if grep -q "$part: .*$want" "$tmp/err" && grep -q "nothing was merged" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    ok "bad part $name: $(cat "$tmp/err")"
  else
    bad "bad part $name: the message" "$tmp/err"
  fi
  dump "$tmp/victim.db" >"$tmp/victim.after"
  cmp -s "$tmp/victim.before" "$tmp/victim.after" && ok "bad part $name: the database is unchanged" ||
    bad "bad part $name: the database changed"
  run "bad part $name, no database yet" 1 merge "$part" --db "$tmp/new-$name.db"
  [ ! -e "$tmp/new-$name.db" ] && ok "bad part $name: no database created" || bad "bad part $name: a database was created"
done
ls "$tmp"/.*.tmp >/dev/null 2>&1 && bad "a temporary file was left" || ok "no temporary file left"

# a damaged database: exit 5, nothing written into it
cp "$tmp/one-default.db" "$tmp/damaged.db"
python3 - "$tmp/damaged.db" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
# a fingerprint's count changed behind the checksums' back
con.execute("UPDATE keys SET df = df + 1 WHERE (site, kind, key) IN (SELECT site, kind, key FROM keys LIMIT 1)")
con.commit()
con.close()
EOF
sum_before=$(cksum <"$tmp/damaged.db")
run "merge into a damaged database" 5 merge "$tmp/c3-default.wpart" --db "$tmp/damaged.db" &&
  grep -q "damaged" "$tmp/err" && ok "damaged database: $(head -1 "$tmp/err")"
[ "$sum_before" = "$(cksum <"$tmp/damaged.db")" ] && ok "damaged database: not written" || bad "damaged database: written"

# usage errors
run "learn --partial with --db" 2 learn "$w1" --partial "$tmp/x.wpart" --db "$tmp/x.db"
run "merge without --db" 2 merge "$good"
run "merge without parts" 2 merge --db "$tmp/x.db"
[ ! -e "$tmp/x.db" ] && [ ! -e "$tmp/x.wpart" ] && ok "usage errors write nothing" || bad "usage errors wrote a file"
finish
