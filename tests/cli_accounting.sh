#!/usr/bin/env bash
# Nothing lost, nothing silent (issue 29): outputs never replace inputs or
# files the user had, a killed run leaves its record, every input record
# (bad JSONL lines, a cut WARC record) gets its manifest and jsonl line, a
# warning and a failing exit, a run ends with its totals, records are named
# alike everywhere, and rule values are range-checked.
#
# usage: cli_accounting.sh WINNOW_BINARY [CORPUS_SITES_DIR]
set -u
winnow=${1:?usage: cli_accounting.sh WINNOW_BINARY [CORPUS_SITES_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
corpus=${2:-$here/../../shared/corpus/sites}
[ -d "$corpus" ] || corpus=$here/../../../shared/corpus/sites
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-accounting.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() {
  failed=$((failed + 1)); echo "FAIL $1"
  shift
  for f in "$@"; do [ -f "$f" ] && sed -n '1,12p' "$f" | sed 's/^/     | /'; done
  return 0
}

# run WANT_EXIT WINNOW_ARGS...: stdout in $tmp/out, stderr in $tmp/err; 0 when the exit is WANT
run() {
  local want=$1 rc
  shift
  timeout 300 "$winnow" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if [ "$rc" -eq 86 ] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then echo "     sanitizer report"; return 1; fi
  if [ "$rc" -ne "$want" ]; then echo "     exit $rc, expected $want"; return 1; fi
  return 0
}

para='<p>The tide comes in twice a day, and the pools fill again with water, sand and small fish.</p>'
page() { printf '<!DOCTYPE html><html><head><title>%s</title></head><body><article><h1>%s</h1>%s%s</article></body></html>' "$1" "$1" "$para" "$para"; }

# --- 1. an output never replaces an input ------------------------------------
mkdir -p "$tmp/d1"
page One >"$tmp/d1/a.html"
page Two >"$tmp/d1/b.html"
cp -r "$tmp/d1" "$tmp/d1.orig"
if run 2 extract -f html "$tmp/d1" -o "$tmp/d1/" && grep -q 'would replace the input' "$tmp/err" &&
  diff -r "$tmp/d1" "$tmp/d1.orig" >/dev/null; then
  ok "-f html DIR -o DIR/: refused, nothing written"
else bad "-f html DIR -o DIR/ replaced or wrote files" "$tmp/err"; fi
page Page >"$tmp/p.html"
cp "$tmp/p.html" "$tmp/p.orig"
if run 2 extract "$tmp/p.html" -o "$tmp/p.html" && cmp -s "$tmp/p.html" "$tmp/p.orig"; then ok "PAGE -o PAGE: refused"
else bad "PAGE -o PAGE replaced the page" "$tmp/err"; fi
ln -s p.html "$tmp/p-link.html"
if run 2 extract "$tmp/p.html" -o "$tmp/p-link.html" && cmp -s "$tmp/p.html" "$tmp/p.orig"; then ok "PAGE -o LINK-TO-PAGE: refused"
else bad "PAGE -o a link to it replaced the page" "$tmp/err"; fi
if run 2 extract -f jsonl "$tmp/p.html" -o "$tmp/p.html" && cmp -s "$tmp/p.html" "$tmp/p.orig"; then ok "-f jsonl PAGE -o PAGE: refused"
else bad "-f jsonl PAGE -o PAGE replaced the page" "$tmp/err"; fi
# an input named on the command line that OUT/NAME.EXT would be
mkdir -p "$tmp/d2"
page Three >"$tmp/d2/c.html"
cp "$tmp/d2/c.html" "$tmp/c.orig"
if run 2 extract -f html "$tmp/d2/c.html" "$tmp/p.html" -o "$tmp/d2" && cmp -s "$tmp/d2/c.html" "$tmp/c.orig"; then
  ok "-f html FILES -o the folder of one: refused"
else bad "-f html FILES -o the folder of one replaced it" "$tmp/err"; fi

# --- 2. earlier files: refused, or winnow's own replaced cleanly -------------
mkdir -p "$tmp/o2"
echo "the user's own notes" >"$tmp/o2/a.txt"
if run 2 extract "$tmp/d1" -o "$tmp/o2" && grep -q -- '--overwrite' "$tmp/err" &&
  [ "$(cat "$tmp/o2/a.txt")" = "the user's own notes" ] && [ ! -e "$tmp/o2/manifest.tsv" ]; then
  ok "a folder of other files: refused, nothing written"
else bad "a folder of other files was written into" "$tmp/err"; fi
echo "keep me" >"$tmp/o2/notes.md"
if run 0 extract --overwrite "$tmp/d1" -o "$tmp/o2" && grep -q 'tide comes in' "$tmp/o2/a.txt" &&
  [ "$(cat "$tmp/o2/notes.md")" = "keep me" ]; then
  ok "--overwrite: same names replaced, other files left"
else bad "--overwrite" "$tmp/err"; fi
# winnow's own earlier output: a second run with fewer pages leaves no stale file
mkdir -p "$tmp/d3"
page One >"$tmp/d3/a.html"
if run 0 extract "$tmp/d1" -o "$tmp/o3" && run 0 extract "$tmp/d3" -o "$tmp/o3" && [ -f "$tmp/o3/a.txt" ] &&
  [ ! -e "$tmp/o3/b.txt" ] && [ "$(wc -l <"$tmp/o3/manifest.tsv")" -eq 2 ]; then
  ok "a second run into winnow's own output removes the first run's files"
else bad "a second run left the first run's files: $(ls "$tmp/o3" | tr '\n' ' ')" "$tmp/err"; fi
# kill -9 mid-run: manifest.tsv holds the lines of what was written, and
# lists every file written (a file is renamed into place only after its
# line is out, so a kill at any moment leaves none unlisted). JSON lines
# come through a FIFO held open, so the run waits for more after the first
# pages (the reader reads 256 KiB at a time)
python3 - "$tmp/many.jsonl" <<'EOF'
import json, sys
with open(sys.argv[1], "w") as f:
    for k in range(2500):
        f.write(json.dumps({"url": "https://k.example/%d" % k, "html": "<html><head><title>P%d</title></head><body><article><p>The tide comes in twice a day, and the pools fill again with water, sand and small fish, page %d.</p><p>%s</p></article></body></html>" % (k, k, "x" * 300)}) + "\n")
EOF
mkfifo "$tmp/fifo"
"$winnow" extract -q "$tmp/fifo" -o "$tmp/o4" 2>/dev/null &
wpid=$!
exec 3>"$tmp/fifo"
cat "$tmp/many.jsonl" >&3
for _ in $(seq 1 100); do
  [ "$(ls "$tmp/o4" 2>/dev/null | grep -c '\.txt$')" -ge 100 ] && break
  sleep 0.1
done
sleep 0.5
kill -9 "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
exec 3>&-
written=$(ls "$tmp/o4" 2>/dev/null | grep -c '\.txt$')
listed=$(awk -F'\t' 'NR > 1 && $1 != "" { n++ } END { print n + 0 }' "$tmp/o4/manifest.tsv" 2>/dev/null || echo 0)
if [ "$written" -ge 100 ] && [ "$listed" -ge "$written" ] && head -1 "$tmp/o4/manifest.tsv" | grep -q '^output'; then
  ok "kill -9 mid-run: manifest.tsv lists $listed of the $written files written"
else bad "kill -9 mid-run: $written files written, $listed in manifest.tsv: $(ls -a "$tmp/o4" 2>/dev/null | grep manifest | tr '\n' ' ')"; fi
# the next run into it replaces it cleanly: no temporaries, no files of the killed run
if run 0 extract "$tmp/d3" -o "$tmp/o4" && [ "$(ls -A "$tmp/o4" | tr '\n' ' ')" = "a.txt manifest.tsv " ]; then
  ok "the run after a killed one leaves only its own files"
else bad "the run after a killed one: $(ls -A "$tmp/o4" | head -5 | tr '\n' ' ')" "$tmp/err"; fi

# kill -9 while two threads run at full speed, pages of uneven length so they
# finish out of order: at no moment may a file be in place before its line
python3 - "$tmp/uneven.jsonl" <<'EOF'
import json, sys
with open(sys.argv[1], "w") as f:
    for k in range(3000):
        f.write(json.dumps({"url": "https://u.example/%d" % k, "html": "<html><body><article><p>Page %d of the tide tables.</p><p>%s</p></article></body></html>" % (k, "ebb flow " * (150 + (k % 7) * 1500))}) + "\n")
EOF
unlisted=0
for pause in 0.2 0.3 0.4 0.5 0.6 0.7; do
  rm -rf "$tmp/o5"
  "$winnow" extract -q -j 2 "$tmp/uneven.jsonl" -o "$tmp/o5" 2>/dev/null &
  wpid=$!
  sleep "$pause"
  kill -9 "$wpid" 2>/dev/null
  wait "$wpid" 2>/dev/null
  ls "$tmp/o5" 2>/dev/null | grep '\.txt$' | sort >"$tmp/o5-files"
  awk -F'\t' 'NR > 1 { print $1 }' "$tmp/o5/manifest.tsv" 2>/dev/null | sort >"$tmp/o5-listed"
  unlisted=$((unlisted + $(comm -23 "$tmp/o5-files" "$tmp/o5-listed" | wc -l)))
done
if [ "$unlisted" -eq 0 ]; then ok "six kills at full speed (-j 2): every file written is in manifest.tsv"
else bad "six kills at full speed (-j 2): $unlisted files written that manifest.tsv does not list"; fi

# --- 3. every JSONL line is a record: a bad one gets its lines and exit 1 ----
{
  python3 -c 'import json,sys; print(json.dumps({"url": "https://j.example/1", "html": sys.argv[1]}))' "$(page One)"
  echo 'not json at all'
  printf '{"url": "https://j.example/3", "html": "an unterminated string\n'
  python3 -c 'import json,sys; print(json.dumps({"url": "https://j.example/4", "html": sys.argv[1]}))' "$(page Four)"
  echo '{"url": "https://j.example/5", "title": "no page in it"}'
} >"$tmp/bad.jsonl"
if run 1 extract -q "$tmp/bad.jsonl" -o "$tmp/o5" && [ "$(tail -n +2 "$tmp/o5/manifest.tsv" | cut -f3 | tr '\n' ' ')" = "1 2 3 4 5 " ] &&
  [ "$(awk -F'\t' '$6 == "WINNOW_E_FORMAT"' "$tmp/o5/manifest.tsv" | wc -l)" -eq 3 ] &&
  grep -q 'bad-00002: malformed JSON' "$tmp/err" && grep -q 'bad-00005: no "html"' "$tmp/err" &&
  ! grep -q 'bad.jsonl:[0-9]' "$tmp/err" "$tmp/o5/manifest.tsv"; then
  ok "bad JSONL lines: a manifest line each, an error each (even with -q), exit 1"
else bad "bad JSONL lines: manifest records $(tail -n +2 "$tmp/o5/manifest.tsv" 2>/dev/null | cut -f3 | tr '\n' ' ')" "$tmp/err"; fi
if run 1 extract -f jsonl "$tmp/bad.jsonl" &&
  [ "$(python3 -c 'import json,sys; print(" ".join("%s:%s" % (j["source"]["record"], j["status"]) for j in map(json.loads, open(sys.argv[1]))))' "$tmp/out")" = \
    "1:WINNOW_OK 2:WINNOW_E_FORMAT 3:WINNOW_E_FORMAT 4:WINNOW_OK 5:WINNOW_E_FORMAT" ]; then
  ok "bad JSONL lines: a -f jsonl failure line each"
else bad "bad JSONL lines in -f jsonl: $(cut -c1-80 "$tmp/out" | head -5)" "$tmp/err"; fi

# --- 4. a WARC cut short: the cut record has its line, exit 1 even with -q ----
ars=$corpus/arstechnica.com.warc.gz
if [ -f "$ars" ]; then
  size=$(wc -c <"$ars")
  head -c $((size * 2 / 3)) "$ars" >"$tmp/cut.warc.gz"
  if run 1 extract -q "$tmp/cut.warc.gz" -o "$tmp/o6" && tail -1 "$tmp/o6/manifest.tsv" | grep -q 'WINNOW_E_FORMAT.*truncated' &&
    grep -q 'cut-[0-9]*: last record cut short' "$tmp/err" && ! grep -q 'cut.warc.gz#' "$tmp/err" "$tmp/o6/manifest.tsv"; then
    ok "a truncated WARC: the cut record's manifest line, an error, exit 1"
  else bad "a truncated WARC: $(tail -1 "$tmp/o6/manifest.tsv" 2>/dev/null | cut -c1-120)" "$tmp/err"; fi
  if run 1 extract -f jsonl "$tmp/cut.warc.gz" && tail -1 "$tmp/out" | grep -q '"status":"WINNOW_E_FORMAT"'; then
    ok "a truncated WARC: the cut record's -f jsonl line"
  else bad "a truncated WARC in -f jsonl: $(tail -1 "$tmp/out" | cut -c1-120)" "$tmp/err"; fi
else
  echo "note $ars not found: the truncated WARC cases are not run"
fi

# --- 5. a run over many pages ends with its totals (not with -q) -------------
mkdir -p "$tmp/d7"
page One >"$tmp/d7/a.html"
page Two >"$tmp/d7/b.html"
: >"$tmp/d7/c.html"
printf '<html><head><title>F</title></head><frameset><frame src="x.html"></frameset></html>' >"$tmp/d7/d.html"
if run 1 extract "$tmp/d7" -o "$tmp/o7" &&
  grep -q '^totals: 4 pages: 3 written, 1 empty, 1 failed, 0 skipped; warnings: 0 repaired input (WINNOW_PARTIAL), 1 no text (WINNOW_NO_CONTENT), 0 no main content (WINNOW_NO_MAIN), 0 little main content (WINNOW_THIN_MAIN), 0 damaged input$' "$tmp/err"; then
  ok "totals at the end of a run over many pages"
else bad "no totals, or wrong ones" "$tmp/err"; fi
if run 1 extract -q "$tmp/d7" -o "$tmp/o8" && ! grep -q '^totals' "$tmp/err"; then ok "no totals with -q"
else bad "totals with -q" "$tmp/err"; fi

# --- 6. one name for a record everywhere: CONTAINER-RECORD, as extract -o ----
mkdir -p "$tmp/w1" "$tmp/w2"
{
  python3 -c 'import json,sys; print(json.dumps({"url": "https://k.example/a", "html": sys.argv[1]}))' "$(page 'Tides and pools of the northern shore')"
  echo '{"url": "https://k.example/f", "html": "<html><frameset><frame src=\"x\"></frameset></html>"}'
} >"$tmp/w1/crawl.jsonl"
sed 's/northern/southern/' "$tmp/w1/crawl.jsonl" >"$tmp/w2/other.jsonl"
if run 3 keywords "$tmp/w1/crawl.jsonl" "$tmp/w2/other.jsonl" && grep -q '^# crawl-00001 ' "$tmp/out" &&
  grep -q '^# other-00001 ' "$tmp/out" && grep -q 'crawl-00002: warning' "$tmp/err"; then
  ok "keywords: records named CONTAINER-RECORD, in outputs and warnings"
else bad "keywords names: $(grep '^#' "$tmp/out" | tr '\n' ' ')" "$tmp/err"; fi
if run 3 extract "$tmp/w1/crawl.jsonl" -o "$tmp/o9" && grep -q 'crawl-00002: warning' "$tmp/err" &&
  [ -f "$tmp/o9/crawl-00002.txt" ]; then
  ok "extract: a record's warning names its output (crawl-00002)"
else bad "extract warning names" "$tmp/err"; fi

# --- 7. rule values are checked against the rule's range: exit 2 -----------
for bad_rule in SELECT_DECAY=-5 SITE_TEMPLATE_PERCENT=500 LINK_LIST_SHARE=nan FRAGMENT_CHARS=-1; do
  if run 2 extract --rule "$bad_rule" "$tmp/p.html" && grep -q "takes" "$tmp/err"; then ok "--rule $bad_rule refused (exit 2)"
  else bad "--rule $bad_rule accepted" "$tmp/err"; fi
done
if run 0 extract --rule SELECT_DECAY=1 --rule SITE_TEMPLATE_PERCENT=1e30 --rule SITE_TEMPLATE_PERCENT=50 "$tmp/p.html"; then
  ok "--rule values in range, and off values, taken"
else bad "--rule values in range refused" "$tmp/err"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
