#!/usr/bin/env bash
# Output files and the manifest of the command-line tool (issue 11: data
# loss and traceability).
#
# usage: cli_outputs.sh WINNOW_BINARY
#
# Every page of a run that writes a directory gets a file of its own, whatever
# the inputs' names (two WARCs named blog.a and blog.b, the same file name in
# two directories, x.html beside x.htm, ...), the same names with one thread
# or two, and no file mixes two pages. OUT/manifest.tsv has one line per page,
# in input order, with the output name, the input file, the record number, the
# WARC-Record-ID, the URL, the status and the message; failed pages too. JSON
# output carries the same source fields. Inputs are made at run time in a
# temporary directory (python3 writes the WARC and JSONL files).
set -u
winnow=${1:?usage: cli_outputs.sh WINNOW_BINARY}
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-outputs.XXXXXX")
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

# run NAME EXIT WINNOW_ARGS...: runs winnow (stderr in $tmp/err); 0 when it
# exited as expected without a sanitizer report
run() {
  local name=$1 want=$2 rc
  shift 2
  timeout 120 "$winnow" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 86 ] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then bad "$name: sanitizer report" "$tmp/err"; return 1; fi
  if [ "$rc" -ne "$want" ]; then bad "$name: exit $rc, expected $want" "$tmp/err"; return 1; fi
  return 0
}

# outputs DIR EXT: how many output files DIR holds (the manifest and hidden
# files not counted)
outputs() { find "$1" -maxdepth 1 -type f -name "*$2" ! -name '.*' | wc -l; }

# lines DIR: manifest lines after the header
lines() { if [ -f "$1/manifest.tsv" ]; then tail -n +2 "$1/manifest.tsv" | wc -l; else echo 0; fi; }

# the same number of output files and manifest lines as pages, no temporary
# file left, and no output holding the marker of two pages
expect_pages() { # NAME DIR PAGES [EXT]
  local name=$1 dir=$2 want=$3 ext=${4:-.txt} n m mixed leftovers
  n=$(outputs "$dir" "$ext")
  m=$(lines "$dir")
  # every page's text carries "marker-K-" tokens of its own K
  mixed=$(for f in "$dir"/*"$ext"; do
            [ -f "$f" ] || continue
            k=$(grep -oE 'marker-[0-9a-z]+-' "$f" | sort -u | wc -l)
            [ "$k" -gt 1 ] && echo "$f"
          done | head -3)
  leftovers=$(find "$dir" -maxdepth 1 -name '.*' -type f | head -3)
  if [ "$n" -eq "$want" ] && [ "$m" -eq "$want" ] && [ -z "$mixed" ] && [ -z "$leftovers" ]; then
    ok "$name: $n files, $m manifest lines for $want pages"
  else
    bad "$name: $n files and $m manifest lines for $want pages${mixed:+; mixed pages in $mixed}${leftovers:+; left over: $leftovers}" "$tmp/err"
  fi
}

# page TOKEN: an HTML page whose article names TOKEN in every paragraph
page() {
  printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page %s</title></head><body>' "$1"
  printf '<nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Page %s</h1>' "$1"
  for i in 1 2 3 4 5 6; do
    printf '<p>Paragraph %d of marker-%s- tells how the tide comes in twice a day and the pools fill again with sand and fish.</p>' "$i" "$1"
  done
  printf '</article></body></html>'
}

# python3 writes WARC (one gzip member per record, a warcinfo record first)
# and JSONL files: make.py KIND OUT PREFIX N [SPECIAL...]
cat >"$tmp/make.py" <<'EOF'
import gzip, json, sys
kind, out, prefix, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
special = sys.argv[5:]  # per page: "" (normal), "empty", "binary"

def page(tok):
    paras = ''.join('<p>Paragraph %d of marker-%s- tells how the tide comes in twice a day and the pools fill '
                    'again with sand and fish.</p>' % (i, tok) for i in range(1, 7))
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page %s</title></head><body>'
            '<nav><a href="/">Home</a></nav><article><h1>Page %s</h1>%s</article></body></html>' % (tok, tok, paras))

def body(k):
    s = special[k] if k < len(special) else ''
    if s == 'empty': return b''
    if s == 'binary': return b'\x89PNG\r\n\x1a\n' + bytes(range(256)) * 16
    if s == 'big': return page('%s%d' % (prefix, k + 1)).replace('</article>', '<p>%s</p></article>' % ('x ' * 100000)).encode()
    return page('%s%d' % (prefix, k + 1)).encode()

def record(typ, fields, block):
    head = 'WARC/1.1\r\nWARC-Type: %s\r\n' % typ
    for k, v in fields: head += '%s: %s\r\n' % (k, v)
    head += 'Content-Length: %d\r\n\r\n' % len(block)
    return gzip.compress(head.encode() + block + b'\r\n\r\n')

with open(out, 'wb') as f:
    if kind == 'warc':
        f.write(record('warcinfo', [('WARC-Record-ID', '<urn:uuid:%s-info>' % prefix),
                                    ('Content-Type', 'application/warc-fields')], b'software: test\r\n'))
        for k in range(n):
            b = body(k)
            http = (b'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n'
                    % len(b)) + b
            f.write(record('response', [('WARC-Record-ID', '<urn:uuid:%s-%d>' % (prefix, k + 1)),
                                        ('WARC-Target-URI', 'http://%s.example/p/%d' % (prefix, k + 1)),
                                        ('Content-Type', 'application/http; msgtype=response')], http))
    else:
        # jsonlg: each page also holds one of three "group" paragraphs, shared
        # by an irregular subset of the pages, so that with ageing a site's
        # counts depend on the order its pages were learned in
        for k in range(n):
            html = body(k).decode('latin-1')
            if kind == 'jsonlg':
                html = html.replace('</article>', '<p>Group %d note: the harbour office opens at eight and closes '
                                    'when the last boat is in, every day.</p></article>' % (k * k % 7 % 3))
            f.write((json.dumps({'url': 'http://%s.example/p/%d' % (prefix, k + 1), 'html': html}) + '\n').encode())
EOF
make() { python3 "$tmp/make.py" "$@" || { echo "FAIL cannot make $2"; exit 1; }; }

# --- collisions: every page gets a file -----------------------------------------
mkdir -p "$tmp/in"
make warc "$tmp/in/blog.a.warc.gz" a 3
make warc "$tmp/in/blog.b.warc.gz" b 3
run "blog.a and blog.b WARCs" 0 extract -q "$tmp/in/blog.a.warc.gz" "$tmp/in/blog.b.warc.gz" -o "$tmp/o1" &&
  expect_pages "blog.a.warc.gz and blog.b.warc.gz" "$tmp/o1" 6

make jsonl "$tmp/in/example.com.jsonl" c 3
make jsonl "$tmp/in/example.org.jsonl" d 3
run "example.com and example.org JSONL" 0 extract -q "$tmp/in/example.com.jsonl" "$tmp/in/example.org.jsonl" -o "$tmp/o2" &&
  expect_pages "example.com.jsonl and example.org.jsonl" "$tmp/o2" 6
run "learn --batch on two JSONL" 0 learn -q --batch --site s "$tmp/in/example.com.jsonl" "$tmp/in/example.org.jsonl" -o "$tmp/o3" &&
  expect_pages "learn --batch on example.com.jsonl and example.org.jsonl" "$tmp/o3" 6

mkdir -p "$tmp/d1" "$tmp/d2"
page e1 >"$tmp/d1/page.html"
page e2 >"$tmp/d2/page.html"
run "d1/page.html and d2/page.html" 0 extract -q "$tmp/d1" "$tmp/d2" -o "$tmp/o4" &&
  expect_pages "d1/page.html and d2/page.html (directories)" "$tmp/o4" 2
run "d1/page.html and d2/page.html as files" 0 extract -q "$tmp/d1/page.html" "$tmp/d2/page.html" -o "$tmp/o5" &&
  expect_pages "d1/page.html and d2/page.html (files)" "$tmp/o5" 2

mkdir -p "$tmp/x"
page f1 >"$tmp/x/x.html"
page f2 >"$tmp/x/x.htm"
run "x.html beside x.htm" 0 extract -q "$tmp/x" -o "$tmp/o6" && expect_pages "x.html beside x.htm" "$tmp/o6" 2

mkdir -p "$tmp/j/d"
make jsonl "$tmp/j/x.jsonl" g 1
page g9 >"$tmp/j/d/x-00001.html"
run "x.jsonl beside d/x-00001.html" 0 extract -q "$tmp/j/x.jsonl" "$tmp/j/d" -o "$tmp/o7" &&
  expect_pages "x.jsonl beside d/x-00001.html" "$tmp/o7" 2

mkdir -p "$tmp/dots"
page h1 >"$tmp/dots/a..b.html"
page h2 >"$tmp/dots/a_.b.html"
run "a..b.html and a_.b.html" 0 extract -q "$tmp/dots" -o "$tmp/o8" && expect_pages "a..b.html and a_.b.html" "$tmp/o8" 2

# names that differ only in case would share a file on a case-insensitive
# file system
mkdir -p "$tmp/case"
page i1 >"$tmp/case/Page.html"
page i2 >"$tmp/case/page.html"
run "Page.html and page.html" 0 extract -q "$tmp/case" -o "$tmp/o9" && expect_pages "Page.html and page.html" "$tmp/o9" 2

# a suffix that is some file's own name, and names too long to keep whole
mkdir -p "$tmp/tilde" "$tmp/long"
page k1 >"$tmp/tilde/page.htm"
page k2 >"$tmp/tilde/page.html"
page k3 >"$tmp/tilde/page~2.html"
run "page.htm, page.html, page~2.html" 0 extract -q "$tmp/tilde" -o "$tmp/o10" &&
  expect_pages "page.htm, page.html and page~2.html" "$tmp/o10" 3
long=$(printf 'n%.0s' $(seq 245))
page l1 >"$tmp/long/${long}a.html"
page l2 >"$tmp/long/${long}b.html"
run "two 251-byte names" 0 extract -q -f json "$tmp/long" -o "$tmp/o11" &&
  expect_pages "two names alike in their first 245 bytes" "$tmp/o11" 2 .json

# --- two threads: every page whole in a file of its own, the same names ---------
make warc "$tmp/in/www.a.warc.gz" ja 40
make warc "$tmp/in/www.b.warc.gz" jb 40
run "www.a and www.b, -j 2" 0 extract -q -j 2 "$tmp/in/www.a.warc.gz" "$tmp/in/www.b.warc.gz" -o "$tmp/j2" &&
  expect_pages "www.a.warc.gz and www.b.warc.gz with -j 2" "$tmp/j2" 80
if run "www.a and www.b, -j 1" 0 extract -q -j 1 "$tmp/in/www.a.warc.gz" "$tmp/in/www.b.warc.gz" -o "$tmp/j1"; then
  if diff -r "$tmp/j1" "$tmp/j2" >"$tmp/diff"; then ok "-j 1 and -j 2 write the same files and manifest"
  else bad "-j 1 and -j 2 differ" "$tmp/diff"; fi
fi
# every file holds the page its manifest line names (the record's marker)
wrong=$(tail -n +2 "$tmp/j2/manifest.tsv" 2>/dev/null | cut -f 1-3 | while IFS=$'\t' read -r name file rec; do
          case $file in *www.a.warc.gz) p=ja ;; *) p=jb ;; esac
          grep -q "marker-$p$((10#$rec))-" "$tmp/j2/$name" 2>/dev/null || echo "$name"
        done | head -3)
[ -f "$tmp/j2/manifest.tsv" ] && [ -z "$wrong" ] && ok "-j 2: every file holds the page its manifest line names" ||
  bad "-j 2: files that do not hold their manifest line's page: ${wrong:-no manifest}"
# a second run into the same directory replaces the files, adds none
run "www.a and www.b again" 0 extract -q -j 2 "$tmp/in/www.a.warc.gz" "$tmp/in/www.b.warc.gz" -o "$tmp/j2" &&
  expect_pages "the same run again into the same directory" "$tmp/j2" 80

# --- the manifest -----------------------------------------------------------------
# five pages, the third empty and the fourth a PNG: exit 1, five lines
make warc "$tmp/in/mixed.warc.gz" m 5 '' '' empty binary ''
if run "WARC with failed pages" 1 extract -q -j 2 "$tmp/in/mixed.warc.gz" "$tmp/x" -o "$tmp/m"; then
  man=$tmp/m/manifest.tsv
  header=$(head -n 1 "$man" 2>/dev/null)
  [ "$header" = $'output\tinput\trecord\trecord_id\turl\tstatus\tmessage' ] && ok "manifest header" ||
    bad "manifest header is '$header'"
  [ "$(lines "$tmp/m")" -eq 7 ] && ok "manifest: 7 lines for 5 WARC records and 2 files" || bad "manifest: $(lines "$tmp/m") lines, expected 7" "$man"
  # the good first record: every field
  line=$(sed -n 2p "$man" 2>/dev/null)
  want=$(printf 'mixed-00001.txt\t%s\t1\t<urn:uuid:m-1>\thttp://m.example/p/1\tWINNOW_OK\t' "$tmp/in/mixed.warc.gz")
  [ "$line" = "$want" ] && ok "manifest: a page's line has its name, file, record, record id, URL and status" ||
    bad "manifest: first line is '$line', expected '$want'"
  [ -f "$tmp/m/mixed-00001.txt" ] && grep -q 'marker-m1-' "$tmp/m/mixed-00001.txt" &&
    ok "manifest: the named file holds the page" || bad "manifest: mixed-00001.txt does not hold page m1"
  # the failed ones: no output, their error (read tells no empty field from
  # a tab; cut does)
  f() { sed -n "$1p" "$man" | cut -f "$2"; }
  [ -z "$(f 4 1)" ] && [ "$(f 4 3)" = 3 ] && [ "$(f 4 4)" = '<urn:uuid:m-3>' ] && [ "$(f 4 6)" = WINNOW_E_EMPTY ] &&
    [ -n "$(f 4 7)" ] && ok "manifest: the empty page's line: no output, WINNOW_E_EMPTY, '$(f 4 7)'" ||
    bad "manifest: empty page line is '$(sed -n 4p "$man")'"
  [ -z "$(f 5 1)" ] && [ "$(f 5 3)" = 4 ] && [ "$(f 5 6)" = WINNOW_E_BINARY ] && [ -n "$(f 5 7)" ] &&
    ok "manifest: the binary page's line: WINNOW_E_BINARY, '$(f 5 7)'" || bad "manifest: binary page line is '$(sed -n 5p "$man")'"
  # input order, whatever the threads did; files: no record number, no id
  recs=$(tail -n +2 "$man" | cut -f 3 | tr '\n' ' ')
  [ "$recs" = "1 2 3 4 5   " ] && ok "manifest: input order" || bad "manifest: records in order '$recs'"
  files=$(tail -n 2 "$man" | cut -f 1,2 | tr '\t\n' ' |')
  [ "$files" = "x.txt $tmp/x/x.htm|x~2.txt $tmp/x/x.html|" ] && ok "manifest: files of a directory, with their names" ||
    bad "manifest: directory lines are '$files'"
  [ "$(outputs "$tmp/m" .txt)" -eq 5 ] && ok "manifest run: 5 files for 5 pages that produced content" ||
    bad "manifest run: $(outputs "$tmp/m" .txt) files, expected 5"
fi

# an input that cannot be read is a page that failed: its line too
if run "a missing input among others" 1 extract -q "$tmp/x/x.html" "$tmp/no-such.html" -o "$tmp/miss"; then
  line=$(grep -F "$tmp/no-such.html" "$tmp/miss/manifest.tsv" 2>/dev/null)
  [ "$(lines "$tmp/miss")" -eq 2 ] && case $line in *$'\t'WINNOW_E_*$'\t'*cannot\ open*) true ;; *) false ;; esac &&
    ok "manifest: a missing input has its line with the error" || bad "manifest: missing input line is '$line'" "$tmp/miss/manifest.tsv"
fi

# the status says what failed: a file that cannot be opened, one that is not
# what it was read as
printf 'no WARC here\n' >"$tmp/not-a.warc"
if run "a missing input and a .warc that is not WARC" 1 extract -q "$tmp/no-such.html" "$tmp/not-a.warc" -o "$tmp/kinds"; then
  st() { grep -F "$1" "$tmp/kinds/manifest.tsv" 2>/dev/null | cut -f 6; }
  [ "$(st no-such.html)" = WINNOW_E_IO ] && [ "$(st not-a.warc)" = WINNOW_E_FORMAT ] &&
    ok "manifest: WINNOW_E_IO for an input that cannot be opened, WINNOW_E_FORMAT for one of the wrong format" ||
    bad "manifest: statuses '$(st no-such.html)' and '$(st not-a.warc)'" "$tmp/kinds/manifest.tsv"
fi

# one page to one named file: no manifest beside it
run "one page with -o FILE" 0 extract -q "$tmp/x/x.html" -o "$tmp/one.txt"
[ -s "$tmp/one.txt" ] && [ ! -e "$tmp/manifest.tsv" ] && ok "one page, -o FILE: the file, no manifest" ||
  bad "one page, -o FILE: $(ls "$tmp" | tr '\n' ' ')"

# --- JSON carries the source ----------------------------------------------------------
if run "JSON of a WARC" 0 extract -q -f json "$tmp/in/blog.a.warc.gz" -o "$tmp/js"; then
  if python3 - "$tmp/js" "$tmp/in/blog.a.warc.gz" >"$tmp/pyout" 2>&1 <<'EOF'
import csv, json, os, sys
out, warc = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(os.path.join(out, 'manifest.tsv')), delimiter='\t'))[1:]
assert len(rows) == 3, rows
for name, file, rec, rid, url, st, msg in rows:
    doc = json.load(open(os.path.join(out, name)))
    src = doc['source']
    assert src == {'file': warc, 'record': int(rec), 'record_id': rid, 'url': url}, (src, rec, rid, url)
    assert url == 'http://a.example/p/%d' % int(rec), url
EOF
  then ok "JSON output: source file, record, record id and URL, as in the manifest"
  else bad "JSON output lacks its source" "$tmp/pyout"; fi
fi
if run "JSON of one file" 0 extract -q -f json --url http://one.example/ "$tmp/x/x.html"; then
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["source"]; assert s["file"]==sys.argv[2] and s["url"]=="http://one.example/" and s["record"] is None and s["record_id"] is None, s' \
    "$tmp/out" "$tmp/x/x.html" 2>"$tmp/pyout" && ok "JSON of one file: its source, no record" || bad "JSON of one file: source" "$tmp/pyout"
fi


# --- stdin: told by its first bytes ----------------------------------------------
make jsonl "$tmp/in/s.jsonl" s 3
if run "JSON lines on stdin" 0 extract -q - <"$tmp/in/s.jsonl"; then
  if grep -q 'marker-s1-' "$tmp/out" && grep -q 'marker-s3-' "$tmp/out" && ! grep -q '"html"' "$tmp/out"; then
    ok "JSON lines on stdin: each page's text, not the JSON"
  else bad "JSON lines on stdin printed" "$tmp/out"; fi
fi
if run "JSON lines through a pipe, -o" 0 extract -q - -o "$tmp/sj" < <(cat "$tmp/in/s.jsonl"); then
  expect_pages "JSON lines through a pipe" "$tmp/sj" 3
  [ -f "$tmp/sj/stdin-00001.txt" ] && [ -f "$tmp/sj/stdin-00003.txt" ] &&
    [ "$(tail -n +2 "$tmp/sj/manifest.tsv" | cut -f 1-3 | head -1)" = $'stdin-00001.txt\t-\t1' ] &&
    ok "JSON lines on stdin: stdin-LINE names, input - and the line in the manifest" ||
    bad "JSON lines on stdin: names" "$tmp/sj/manifest.tsv"
fi
if run "a .warc.gz on stdin" 0 extract -q - -o "$tmp/sw" <"$tmp/in/blog.a.warc.gz"; then
  expect_pages "a .warc.gz on stdin" "$tmp/sw" 3
  [ -f "$tmp/sw/stdin-00001.txt" ] && grep -q 'marker-a1-' "$tmp/sw/stdin-00001.txt" &&
    ok "a .warc.gz on stdin: stdin-RECORD names" || bad "a .warc.gz on stdin: names" "$tmp/sw/manifest.tsv"
fi
# --input-format overrides the bytes (and the name)
if run "--input-format html on JSON lines" 0 extract -q --input-format html - <"$tmp/in/s.jsonl"; then
  grep -q '"html"' "$tmp/out" && ok "--input-format html: stdin is one page, JSON and all" || bad "--input-format html" "$tmp/out"
fi
if run "--input-format warc on a JSONL file" 1 extract -q --input-format warc "$tmp/in/s.jsonl"; then
  grep -q 'not a WARC file' "$tmp/err" && ok "--input-format warc on JSON lines: not a WARC file" ||
    bad "--input-format warc on JSON lines" "$tmp/err"
fi
run "--input-format pdf" 2 extract --input-format pdf "$tmp/in/s.jsonl" && ok "--input-format pdf: usage error"
# a file whose name says nothing: a WARC by its bytes, named after the file
cp "$tmp/in/blog.a.warc.gz" "$tmp/in/crawl-dump"
if run "a WARC named crawl-dump" 0 extract -q "$tmp/in/crawl-dump" -o "$tmp/cd"; then
  expect_pages "a WARC named crawl-dump" "$tmp/cd" 3
  [ -f "$tmp/cd/crawl-dump-00001.txt" ] && ok "a WARC without its name: FILE-RECORD names" || bad "crawl-dump names" "$tmp/cd/manifest.tsv"
fi

# --- gzip-compressed pages, recursive directories, input lists ---------------------
mkdir -p "$tmp/gz"
page n1 >"$tmp/gz/x.html"
page n2 | gzip -c >"$tmp/gz/x.html.gz"
page n3 | gzip -c >"$tmp/gz/y.htm.gz"
if run "a directory with .html.gz pages" 0 extract -q "$tmp/gz" -o "$tmp/ogz"; then
  expect_pages "x.html, x.html.gz and y.htm.gz" "$tmp/ogz" 3
  [ "$(tail -n +2 "$tmp/ogz/manifest.tsv" | cut -f 1 | tr '\n' ' ')" = "x.txt x~2.txt y.txt " ] &&
    grep -q 'marker-n2-' "$tmp/ogz/x~2.txt" && ok "x.html and x.html.gz: x.txt and x~2.txt" ||
    bad "x.html beside x.html.gz" "$tmp/ogz/manifest.tsv"
fi
mkdir -p "$tmp/tree/a/c" "$tmp/tree/b"
page r1 >"$tmp/tree/top.html"
page r2 >"$tmp/tree/a/b.html"
page r3 >"$tmp/tree/a/c/d.html"
page r4 | gzip -c >"$tmp/tree/b/top.html.gz"
run "a tree without -r" 0 extract -q "$tmp/tree" -o "$tmp/t0" && expect_pages "a tree without -r: its top only" "$tmp/t0" 1
if run "a tree with -r" 0 extract -q -r "$tmp/tree" -o "$tmp/t1"; then
  expect_pages "a tree with -r" "$tmp/t1" 4
  names=$(tail -n +2 "$tmp/t1/manifest.tsv" | cut -f 1,2 | tr '\t\n' ' |')
  want="a_b.txt $tmp/tree/a/b.html|a_c_d.txt $tmp/tree/a/c/d.html|b_top.txt $tmp/tree/b/top.html.gz|top.txt $tmp/tree/top.html|"
  [ "$names" = "$want" ] && ok "-r: names from the path below the directory, in path order" || bad "-r names: $names"
  if run "the tree again, -j 2" 0 extract -q -r -j 2 "$tmp/tree" -o "$tmp/t2"; then
    diff -r "$tmp/t1" "$tmp/t2" >"$tmp/diff" && ok "-r: the same names and files again with 2 threads" || bad "-r: runs differ" "$tmp/diff"
  fi
fi
printf '%s\n' "$tmp/tree/top.html" "$tmp/gz" "" "$tmp/in/blog.b.warc.gz" >"$tmp/list"
if run "--input-list" 0 extract -q --input-list "$tmp/list" -o "$tmp/il"; then
  expect_pages "--input-list: a file, a directory and a WARC" "$tmp/il" 7
fi
if run "--input-list - with an input on the command line" 0 extract -q "$tmp/d1/page.html" --input-list - -o "$tmp/il2" <"$tmp/list"; then
  expect_pages "--input-list - and an input" "$tmp/il2" 8
  [ "$(sed -n 2p "$tmp/il2/manifest.tsv" | cut -f 2)" = "$tmp/d1/page.html" ] &&
    ok "--input-list: the command line's inputs first" || bad "--input-list order" "$tmp/il2/manifest.tsv"
fi
printf '%s\n' "$tmp/tree/top.html" "$tmp/no-such-input.html" >"$tmp/list2"
if run "--input-list with a missing path" 1 extract -q --input-list "$tmp/list2" -o "$tmp/il3"; then
  [ "$(lines "$tmp/il3")" -eq 2 ] && grep -q "no-such-input.html.*cannot open" "$tmp/il3/manifest.tsv" &&
    ok "--input-list: a missing path has its manifest line" || bad "--input-list missing path" "$tmp/il3/manifest.tsv"
fi
if run "--input-list that does not exist" 1 extract --input-list "$tmp/no-such-list"; then
  grep -q 'cannot open input list' "$tmp/err" && ok "--input-list that does not exist: exit 1, said so" || bad "--input-list missing" "$tmp/err"
fi
run "--input-list - and -" 2 extract --input-list - - <"$tmp/list" && ok "--input-list - with - as an input: usage error"

# --- several pages to stdout: a form feed line between them ---------------------
for fmt in text markdown; do
  if run "three pages to stdout ($fmt)" 0 extract -q -f $fmt "$tmp/tree/top.html" "$tmp/d1/page.html" "$tmp/d2/page.html"; then
    ff=$(grep -c $'^\f$' "$tmp/out")
    order=$(awk 'BEGIN { RS = "\f\n" } { match($0, /marker-[a-z0-9]+-/); printf "%s ", substr($0, RSTART, RLENGTH) }' "$tmp/out")
    [ "$ff" -eq 2 ] && [ "$order" = "marker-r1- marker-e1- marker-e2- " ] &&
      ok "$fmt to stdout: 3 records split by form feed lines, in input order" || bad "$fmt to stdout: $ff form feeds, records '$order'" "$tmp/out"
  fi
done
if run "one page to stdout" 0 extract -q "$tmp/tree/top.html"; then
  ! grep -q $'\f' "$tmp/out" && ok "one page: no form feed" || bad "one page: a form feed" "$tmp/out"
fi
if run "JSON to stdout" 0 extract -q -f json "$tmp/tree/top.html" "$tmp/d1/page.html"; then
  ! grep -q $'\f' "$tmp/out" && ok "JSON to stdout: no form feed" || bad "JSON to stdout: a form feed" "$tmp/out"
fi
if run "learn --batch to stdout" 0 learn -q --batch --site s "$tmp/tree/top.html" "$tmp/d1/page.html"; then
  [ "$(grep -c $'^\f$' "$tmp/out")" -eq 1 ] && ok "learn --batch to stdout: a form feed between pages" || bad "learn --batch stdout" "$tmp/out"
fi

# --- -o DIR/ with one page ----------------------------------------------------------
if run "-o DIR/ with one page" 0 extract -q "$tmp/tree/top.html" -o "$tmp/od/"; then
  [ -f "$tmp/od/top.txt" ] && [ "$(lines "$tmp/od")" -eq 1 ] && ok "-o DIR/: the page's file and the manifest in DIR" ||
    bad "-o DIR/: $(ls "$tmp/od" 2>&1 | tr '\n' ' ')"
fi
mkdir -p "$tmp/od2"
if run "-o an existing directory with one page" 0 extract -q "$tmp/tree/top.html" -o "$tmp/od2"; then
  [ -f "$tmp/od2/top.txt" ] && ok "-o naming a directory: the page's file in it" || bad "-o naming a directory: $(ls "$tmp/od2")"
fi

# --- pages over --max-bytes: skipped with a warning, exit 4 ----------------------------
make warc "$tmp/in/sizes.warc.gz" z 3 '' big ''
if run "a WARC record over --max-bytes" 4 extract --max-bytes 100000 "$tmp/in/sizes.warc.gz" -o "$tmp/mb"; then
  grep -q 'warning: .*over the 100000-byte limit; skipped' "$tmp/err" && ok "over --max-bytes: a warning" || bad "over --max-bytes: no warning" "$tmp/err"
  [ "$(outputs "$tmp/mb" .txt)" -eq 2 ] && [ "$(cut -f 6 "$tmp/mb/manifest.tsv" | grep -c WINNOW_E_TOO_LARGE)" -eq 1 ] &&
    ok "over --max-bytes: the other pages written, the record's manifest line WINNOW_E_TOO_LARGE" ||
    bad "over --max-bytes: outputs and manifest" "$tmp/mb/manifest.tsv"
fi
run "over --max-bytes and a failure" 1 extract -q --max-bytes 100000 "$tmp/in/sizes.warc.gz" "$tmp/in/mixed.warc.gz" -o "$tmp/mb2" &&
  ok "over --max-bytes and a failed page: the failure's exit 1"
run "a file over --max-bytes" 4 extract -q --max-bytes 100 "$tmp/tree/top.html" && ok "a file over --max-bytes: exit 4"

# --- site mode: --db needed, a site the database lacks warned about once --------
make jsonl "$tmp/in/docs.jsonl" w 6
if run "learn docs" 0 learn -q --db "$tmp/sites.db" --site docs "$tmp/in/docs.jsonl"; then
  if run "site mode, the site in the database" 0 extract --mode site --db "$tmp/sites.db" --site docs "$tmp/in/docs.jsonl" -o "$tmp/sm1"; then
    ! grep -q 'has no pages' "$tmp/err" && ok "--mode site with a known site: no warning" || bad "--mode site, known site: a warning" "$tmp/err"
  fi
  if run "site mode, a site not in the database" 0 extract --mode site --db "$tmp/sites.db" --site manual "$tmp/in/docs.jsonl" -o "$tmp/sm2"; then
    [ "$(grep -c "has no pages of site manual" "$tmp/err")" -eq 1 ] && ok "--mode site with an unknown site: one warning for 6 pages" ||
      bad "--mode site with an unknown site" "$tmp/err"
  fi
fi

# --- winnow sites: pages learned and their aged weight, labelled -----------------
make jsonl "$tmp/in/www.jsonl" www.hl 3
if run "learn 3 pages, half-life 2" 0 learn -q --db "$tmp/hl.db" --half-life 2 "$tmp/in/www.jsonl" &&
   run "sites" 0 sites --db "$tmp/hl.db"; then
  # ages 2, 1, 0 pages: 2^-1 + 2^-0.5 + 1 = 2.21
  read -r -a head <"$tmp/out"
  row=$(awk '$1 == "hl.example" { print $2, $3 }' "$tmp/out")
  [ "${head[1]}" = weight ] && [ "${head[2]}" = learned ] && [ "$row" = "2.21 3" ] &&
    ok "sites: weight 2.21 and 3 learned, in labelled columns" || bad "sites: header '${head[*]}', row '$row'" "$tmp/out"
fi
# site NAME: www. or not, whichever the database has
if run "site www.hl.example" 0 site www.hl.example --db "$tmp/hl.db"; then
  grep -q '^site hl.example: 3 pages learned, weight 2.21' "$tmp/out" && ok "site www.hl.example finds hl.example" ||
    bad "site www.hl.example" "$tmp/out" "$tmp/err"
fi
if run "learn as www.docs.example" 0 learn -q --db "$tmp/hl.db" --site www.docs.example "$tmp/in/docs.jsonl"; then
  if run "site docs.example" 0 site docs.example --db "$tmp/hl.db"; then
    grep -q '^site www.docs.example: 6 pages learned' "$tmp/out" && ok "site docs.example finds www.docs.example" ||
      bad "site docs.example" "$tmp/out" "$tmp/err"
  fi
fi
if run "site not in the database" 1 site nosuch.example --db "$tmp/hl.db"; then
  grep -q 'has no site named nosuch.example' "$tmp/err" && ok "site of an unknown name: exit 1, said so" || bad "site of an unknown name" "$tmp/err"
fi

# --- learn -j: sites side by side, the same models as one thread ------------------------
# (a half-life of 2 pages makes the counts depend on each site's page order)
for p in ja jb jc; do make jsonlg "$tmp/in/learn-$p.jsonl" $p 12; done
make jsonlg "$tmp/in/learn-www.jsonl" www.jd 3
learn_in=("$tmp/in/learn-ja.jsonl" "$tmp/in/learn-jb.jsonl" "$tmp/in/learn-jc.jsonl" "$tmp/in/learn-www.jsonl")
if run "learn -j 1" 0 learn -q -j 1 --half-life 2 --db "$tmp/j1.db" "${learn_in[@]}" &&
   run "learn -j 3" 0 learn -q -j 3 --half-life 2 --db "$tmp/j3.db" "${learn_in[@]}"; then
  same=1
  "$winnow" sites --db "$tmp/j1.db" | awk '{ $NF = ""; print }' >"$tmp/s1"
  "$winnow" sites --db "$tmp/j3.db" | awk '{ $NF = ""; print }' >"$tmp/s3"
  cmp -s "$tmp/s1" "$tmp/s3" || same=0
  for site in ja.example jb.example jc.example jd.example; do
    "$winnow" site "$site" --all --db "$tmp/j1.db" >"$tmp/st1" 2>&1
    "$winnow" site "$site" --all --db "$tmp/j3.db" >"$tmp/st3" 2>&1
    cmp -s "$tmp/st1" "$tmp/st3" && [ -s "$tmp/st1" ] || same=0
  done
  [ "$same" = 1 ] && [ "$(grep -c example "$tmp/s1")" -eq 4 ] && ok "learn -j 3: the same 4 sites and fingerprints as -j 1" ||
    bad "learn -j 3 differs from -j 1" "$tmp/s1" "$tmp/s3"
fi
if run "learn --batch -j 1" 0 learn -q --batch -j 1 --half-life 2 "${learn_in[@]}" -o "$tmp/lb1" &&
   run "learn --batch -j 3" 0 learn -q --batch -j 3 --half-life 2 "${learn_in[@]}" -o "$tmp/lb3"; then
  expect_pages "learn --batch -j 3" "$tmp/lb3" 39
  diff -r "$tmp/lb1" "$tmp/lb3" >"$tmp/diff" && ok "learn --batch -j 3: the same files and manifest as -j 1" || bad "learn --batch -j differs" "$tmp/diff"
fi

# --- the progress line: on a terminal only, never with -q -------------------------------
# JSON lines trickle in over 2.6 s through a pipe; script(1) gives winnow a
# terminal for stderr
if command -v script >/dev/null && script -qc true /dev/null </dev/null >/dev/null 2>&1; then
  head -n 1 "$tmp/in/s.jsonl" >"$tmp/l1"
  slow="cat $tmp/l1; sleep 1.3; cat $tmp/l1; sleep 1.3; cat $tmp/l1"
  script -qc "sh -c '($slow) | \"$winnow\" extract - -o \"$tmp/pr1\"'" /dev/null </dev/null >"$tmp/tty.out" 2>&1
  grep -qE 'winnow extract: [0-9]+ pages?, [0-9.]+ pages/s' "$tmp/tty.out" && ok "progress line on a terminal after 2 s" ||
    bad "no progress line on a terminal" "$tmp/tty.out"
  script -qc "sh -c '($slow) | \"$winnow\" extract -q - -o \"$tmp/pr2\"'" /dev/null </dev/null >"$tmp/tty.out" 2>&1
  ! grep -q 'pages/s' "$tmp/tty.out" && ok "-q: no progress line on a terminal" || bad "-q: a progress line" "$tmp/tty.out"
  # a directory whose first page is a named pipe that opens after 3 s: the
  # sizes are known, so the line has the share done and the time left
  mkdir -p "$tmp/slow"
  mkfifo "$tmp/slow/a.html"
  for k in 1 2 3 4; do page "s$k" >"$tmp/slow/p$k.html"; done
  script -qc "sh -c '(sleep 3; : >\"$tmp/slow/a.html\") & \"$winnow\" extract \"$tmp/slow\" -o \"$tmp/pr3\"'" /dev/null </dev/null >"$tmp/tty.out" 2>&1
  grep -qE 'winnow extract: [0-9]+ pages?, [0-9.]+ pages/s, [0-9]+%, [0-9:]+ left' "$tmp/tty.out" &&
    ok "progress line with the share done and the time left" || bad "no share and time left in the progress line" "$tmp/tty.out"
else
  echo "note script(1) cannot run here: the progress line on a terminal is not checked"
fi
( sleep 1.3; cat "$tmp/l1"; sleep 1.3; cat "$tmp/l1" ) | "$winnow" extract - -o "$tmp/pr4" 2>"$tmp/err" >/dev/null
! grep -q 'pages/s' "$tmp/err" && ok "stderr not a terminal: no progress line" || bad "progress line on a pipe" "$tmp/err"

# --- Markdown: a code block's language is its fence's info string ----------------
if run "markdown fence language" 0 extract -q -f markdown "$(dirname "$0")/data/markdown/lists-code-tables.html"; then
  grep -qx '```c' "$tmp/out" && grep -qx '    return 0;' "$tmp/out" &&
    ok "markdown: class=language-c is the fence's info string; the code keeps its indentation" || bad "markdown fence language" "$tmp/out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
