#!/usr/bin/env bash
# extract --format jsonl: one JSON object per input page, in input order,
# as a stream (issue 12).
#
# usage: cli_jsonl.sh WINNOW_BINARY [CORPUS_SITES_DIR]
#
# Inputs made here (python3): a directory of pages with an empty one and a
# binary one among them, a WARC file of three records, a JSONL file, a
# missing input and a page over --max-bytes; and four corpus WARCs when the
# corpus is there. Checks: every line parses as JSON (python3) with the same
# keys; one line per page in input order, failed pages and inputs that gave
# no page included (their status and error); -j 2 writes the same bytes as
# -j 1, to stdout, to -o FILE and to -o FILE.gz (gzip, read back by
# python3); --blocks and --comments add their keys; ids are the output
# names and unique; -o DIR is refused; a full disk stops the run with one
# message.
set -u
winnow=${1:?usage: cli_jsonl.sh WINNOW_BINARY [CORPUS_SITES_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
corpus=${2:-$here/../../shared/corpus/sites}
[ -d "$corpus" ] || corpus=$here/../../../shared/corpus/sites
command -v python3 >/dev/null || { echo "python3 not found: skipped"; echo "0 passed, 0 failed"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-jsonl.XXXXXX")
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

# run NAME EXIT WINNOW_ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
  local name=$1 want=$2 rc
  shift 2
  timeout 300 "$winnow" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 86 ] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then bad "$name: sanitizer report" "$tmp/err"; return 1; fi
  if [ "$rc" -ne "$want" ]; then bad "$name: exit $rc, expected $want" "$tmp/err"; return 1; fi
  return 0
}

# lines FILE [--gz] [EXTRA_KEYS]: every line JSON with the keys; prints "N" lines
lines() {
  python3 - "$@" <<'EOF'
import gzip, json, sys
path = sys.argv[1]
gz = len(sys.argv) > 2 and sys.argv[2] == "--gz"
extra = [k for k in sys.argv[2:] if k != "--gz"]
keys = ["id", "source", "url", "site", "status", "warning", "error", "language", "metadata",
        "content_source", "page_type", "page_type_confidence", "confidence", "text", "posts"] + extra
data = gzip.open(path, "rb").read() if gz else open(path, "rb").read()
text = data.decode("utf-8")
if text and not text.endswith("\n"):
    sys.exit("the last line has no line end")
n = 0
for i, line in enumerate(text.splitlines(), 1):
    try:
        d = json.loads(line)
    except ValueError as e:
        sys.exit("line %d is not JSON: %s" % (i, e))
    if list(d.keys()) != keys:
        sys.exit("line %d has the keys %s, expected %s" % (i, list(d.keys()), keys))
    if set(d["source"]) != {"file", "record", "record_id"}:
        sys.exit("line %d: source has %s" % (i, sorted(d["source"])))
    if (d["error"] is None) != (not d["status"].startswith("WINNOW_E_")):
        sys.exit("line %d: status %s with error %r" % (i, d["status"], d["error"]))
    if d["error"] is not None and (d["text"] is not None or d["posts"] is not None):
        sys.exit("line %d: a failed page with text or posts" % i)
    if d["error"] is None and not isinstance(d["posts"], list):
        sys.exit("line %d: posts %r, not a list" % (i, d["posts"]))
    n += 1
print(n)
EOF
}

# ---- inputs ----
mkdir -p "$tmp/dir"
for i in 1 2 3 4 5; do
  printf '<html><head><title>Page %s</title></head><body><nav><a href="/">Home</a> <a href="/x">More</a></nav><article><h1>Headline %s</h1><p>Paragraph number %s of this page has enough words to be kept as the main content of the page, with a "quote" and a tab\there.</p><p>A second paragraph follows with more words about nothing in particular, to make the text long enough.</p></article><footer>Copyright</footer></body></html>\n' "$i" "$i" "$i" >"$tmp/dir/p$i.html"
done
: >"$tmp/dir/p2b-empty.html"
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02\x00\x00\x00' >"$tmp/dir/p3b-binary.html"
python3 - "$tmp" <<'EOF'
import json, sys
tmp = sys.argv[1]
page = ('<html><head><title>W%d</title></head><body><article><h1>Record %d</h1><p>The record number %d '
        'of this WARC file has a paragraph with enough words to be the main content of its page.</p>'
        '</article></body></html>')
with open(tmp + "/w.warc", "wb") as f:
    for i in range(3):
        body = page % (i, i, i)
        http = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body).encode()
        head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://www.Example.org/w/%d\r\n"
                "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000%d>\r\n"
                "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n") % (i, i, len(http))
        f.write(head.encode() + http + b"\r\n\r\n")
with open(tmp + "/j.jsonl", "w") as f:
    for i in range(3):
        f.write(json.dumps({"url": "https://j.example/%d" % i, "html": page % (i, i, i)}) + "\n")
EOF
head -c 3000 /dev/zero | tr '\0' 'x' | sed 's/^/<p>/' >"$tmp/big.html"
inputs=("$tmp/dir" "$tmp/w.warc" "$tmp/missing.html" "$tmp/j.jsonl" "$tmp/big.html")

# ---- one line per page, in input order, failures included ----
if run "jsonl of mixed inputs" 1 extract -f jsonl --max-bytes 2000 -q "${inputs[@]}"; then
  cp "$tmp/out" "$tmp/mixed.jsonl"
  n=$(lines "$tmp/mixed.jsonl" 2>"$tmp/why") && ok "every line is JSON with the same keys ($n lines)" || bad "the lines" "$tmp/why"
  python3 - "$tmp/mixed.jsonl" >"$tmp/order" 2>&1 <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
got = [(r["id"], r["status"], r["site"]) for r in rows]
want = [("p1", "WINNOW_OK", None), ("p2", "WINNOW_OK", None), ("p2b-empty", "WINNOW_E_EMPTY", None),
        ("p3", "WINNOW_OK", None), ("p3b-binary", "WINNOW_E_BINARY", None), ("p4", "WINNOW_OK", None),
        ("p5", "WINNOW_OK", None),
        ("w-00000", "WINNOW_OK", "example.org"), ("w-00001", "WINNOW_OK", "example.org"),
        ("w-00002", "WINNOW_OK", "example.org"),
        (None, "WINNOW_E_IO", None),
        ("j-00001", "WINNOW_OK", "j.example"), ("j-00002", "WINNOW_OK", "j.example"),
        ("j-00003", "WINNOW_OK", "j.example"),
        (None, "WINNOW_E_TOO_LARGE", None)]
if got != want:
    print("got  %s\nwant %s" % (got, want))
    sys.exit(1)
w1 = rows[8]
assert w1["source"]["record"] == 1 and w1["source"]["record_id"].endswith("01>"), w1["source"]
assert w1["url"] == "https://www.Example.org/w/1" and "record number 1" in w1["text"], w1
assert rows[2]["error"] and rows[2]["text"] is None and rows[2]["source"]["file"].endswith("p2b-empty.html")
assert rows[10]["source"]["file"].endswith("missing.html") and "missing.html" in rows[10]["error"]
assert rows[0]["metadata"]["title"] == "Page 1" and "\n" in rows[0]["text"] and '"quote"' in rows[0]["text"]
print("ok")
EOF
  [ $? -eq 0 ] && ok "one line per page in input order, failed pages and inputs included" || bad "order and failures" "$tmp/order"
fi

# ---- -j 2 against -j 1 ----
for j in 1 2; do
  run "-j $j to stdout" 1 extract -f jsonl -j "$j" --max-bytes 2000 -q "${inputs[@]}" && cp "$tmp/out" "$tmp/stdout-$j"
  run "-j $j to a file" 1 extract -f jsonl -j "$j" --max-bytes 2000 -q "${inputs[@]}" -o "$tmp/file-$j.jsonl"
  run "-j $j to a .gz file" 1 extract -f jsonl -j "$j" --max-bytes 2000 -q "${inputs[@]}" -o "$tmp/file-$j.jsonl.gz"
done
cmp -s "$tmp/stdout-1" "$tmp/stdout-2" && ok "-j 2 writes the bytes of -j 1 (stdout)" || bad "-j 2 differs from -j 1 on stdout"
cmp -s "$tmp/stdout-1" "$tmp/file-1.jsonl" && cmp -s "$tmp/file-1.jsonl" "$tmp/file-2.jsonl" &&
  ok "-o FILE: the bytes of stdout, -j 1 and -j 2" || bad "-o FILE differs"
python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())' "$tmp/file-2.jsonl.gz" >"$tmp/gz-2" 2>"$tmp/why" &&
  cmp -s "$tmp/gz-2" "$tmp/stdout-1" && ok "-o FILE.gz: gzip (python3 reads it) of the same lines" || bad "-o FILE.gz" "$tmp/why"
[ "$(head -c 2 "$tmp/file-1.jsonl.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] && ok "-o FILE.gz is gzip" || bad "FILE.gz is not gzip"

# ---- --blocks, --comments ----
if run "--blocks --comments" 0 extract -f jsonl --blocks --comments -q "$tmp/w.warc"; then
  n=$(lines "$tmp/out" comments blocks 2>"$tmp/why") && [ "$n" -eq 3 ] && ok "--comments and --blocks add their keys" ||
    bad "--blocks --comments" "$tmp/why"
fi
run "--blocks needs jsonl" 2 extract --blocks "$tmp/w.warc" && ok "--blocks without jsonl is a usage error"
run "-o a directory" 2 extract -f jsonl "$tmp/w.warc" -o "$tmp/dir/" && grep -q "names a file" "$tmp/err" &&
  ok "-o DIR/ is refused: $(cat "$tmp/err")"
if [ -w /dev/full ]; then
  run "a full disk" 1 extract -f jsonl -q "$tmp/dir" -o /dev/full &&
    [ "$(grep -c "cannot write /dev/full" "$tmp/err")" -eq 1 ] && ok "a full disk: one message: $(grep "cannot write" "$tmp/err")" ||
    bad "a full disk" "$tmp/err"
fi

# ---- the corpus: many pages, ids unique, -j 2 = -j 1 ----
set -- "$corpus"/akendo.github.io.warc.gz "$corpus"/barcampcork.ie.warc.gz "$corpus"/jew.ski-comics.warc.gz \
       "$corpus"/forum.opendcl.com.warc.gz
if [ -f "$1" ] && [ -f "$4" ]; then
  # exit 3: some comic pages have no text
  run "corpus -j 1" 3 extract -f jsonl -q "$@" "$1" -o "$tmp/c1.jsonl.gz"
  run "corpus -j 2" 3 extract -f jsonl -j 2 -q "$@" "$1" -o "$tmp/c2.jsonl.gz"
  python3 - "$tmp/c1.jsonl.gz" "$tmp/c2.jsonl.gz" >"$tmp/why" 2>&1 <<'EOF'
import gzip, json, sys
a = gzip.open(sys.argv[1]).read()
b = gzip.open(sys.argv[2]).read()
assert a == b, "-j 2 differs from -j 1"
rows = [json.loads(l) for l in a.decode("utf-8").splitlines()]
ids = [r["id"] for r in rows]
assert len(ids) == len(set(ids)), "ids repeat"
assert ids[-1].startswith("akendo.github.io~2-"), ids[-1]  # the first WARC again: its name taken
print(len(rows))
EOF
  [ $? -eq 0 ] && ok "corpus: $(cat "$tmp/why") lines, -j 2 = -j 1, ids unique (a WARC given twice: NAME~2-RECORD)" || bad "corpus" "$tmp/why"
else
  echo "skip: the corpus WARCs are not in $corpus"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
