#!/usr/bin/env bash
# extract --body: the json and jsonl formats carry the main content in the
# formats asked for, each in a key named after its format (issue 30).
#
# usage: cli_body.sh WINNOW_BINARY SOURCE_DIR
#
# On samples/git-am.html and on a WARC file made here (python3) from three
# sample pages and an empty record: each body key's string is byte for byte
# what -f FORMAT writes for the same page ("markdown" = -f markdown, "text"
# = -f text, "html" = -f html, "fulltext" = -f fulltext), in json and in
# jsonl, to stdout and to -o DIR/; the keys stand where "text" stands, in
# the order text, markdown, html, fulltext whatever the order asked; --body
# text writes the same bytes as no --body; a failed page's line has null
# for each body key; a bad --body value, or --body with another format, is
# refused with a message naming --body and exit status 2.
set -u
winnow=${1:?usage: cli_body.sh WINNOW_BINARY SOURCE_DIR}
src=${2:?usage: cli_body.sh WINNOW_BINARY SOURCE_DIR}
command -v python3 >/dev/null || { echo "python3 not found: skipped"; echo "0 passed, 0 failed"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-body.XXXXXX")
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

# run NAME EXIT OUT WINNOW_ARGS...: stdout in OUT, stderr in $tmp/err
run() {
  local name=$1 want=$2 out=$3 rc
  shift 3
  timeout 300 "$winnow" "$@" >"$out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 86 ] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then bad "$name: sanitizer report" "$tmp/err"; return 1; fi
  if [ "$rc" -ne "$want" ]; then bad "$name: exit $rc, expected $want" "$tmp/err"; return 1; fi
  return 0
}

# same.py JSON_FILE KEYS DIR_OR_FILE...: the JSON object (json) or each
# line (jsonl) has the body keys KEYS (comma-separated, in that order, where
# "text" stands by default) and no others, and each key's string equals the
# bytes of the file given for it: for a single object `KEY=FILE`, for lines
# `KEY=DIR/` (DIR/ID.EXT, EXT by the key; a line with an error has null)
cat >"$tmp/same.py" <<'EOF'
import json, os, sys
path, keys = sys.argv[1], sys.argv[2].split(",")
refs = dict(a.split("=", 1) for a in sys.argv[3:])
ext = {"text": "txt", "markdown": "md", "html": "html", "fulltext": "txt"}
data = open(path, "rb").read().decode("utf-8")
objs = [json.loads(l) for l in data.splitlines() if l] if path.endswith(".jsonl") else [json.loads(data)]
if not objs:
    sys.exit("%s: no JSON" % path)
compared = 0
for n, d in enumerate(objs, 1):
    have = list(d.keys())
    if "posts" not in have:
        sys.exit("%s:%d: no posts key" % (path, n))
    cut = have.index("posts") - len(keys)
    if have[cut:cut + len(keys)] != keys:
        sys.exit("%s:%d: keys before posts %s, expected %s" % (path, n, have[max(cut, 0):have.index("posts")], keys))
    for k in ("text", "markdown", "html", "fulltext"):
        if k not in keys and k in have:
            sys.exit("%s:%d: key %s not asked for" % (path, n, k))
    for k in keys:
        ref = refs[k]
        if ref.endswith("/"):
            if d.get("error") is not None:
                if d[k] is not None:
                    sys.exit("%s:%d: failed page with %s %r" % (path, n, k, d[k][:40]))
                continue
            ref = os.path.join(ref, "%s.%s" % (d["id"], ext[k]))
        want = open(ref, "rb").read().decode("utf-8")
        if d[k] != want:
            i = next((i for i, (a, b) in enumerate(zip(d[k], want)) if a != b), min(len(d[k]), len(want)))
            sys.exit("%s:%d: %s differs from %s at char %d: %r vs %r" % (path, n, k, ref, i, d[k][i:i + 40],
                                                                       want[i:i + 40]))
        compared += 1
print(compared)
EOF
same() { python3 "$tmp/same.py" "$@" >"$tmp/same.out" 2>&1; }

page=$src/samples/git-am.html
for f in text markdown html fulltext; do
  run "-f $f git-am.html" 0 "$tmp/page.$f" extract -q -f "$f" "$page" || exit 1
done

# --- one page: json and jsonl, each body format alone and all together ------
for fmt in json jsonl; do
  for body in markdown text html fulltext; do
    if run "-f $fmt --body $body" 0 "$tmp/b.$fmt" extract -q -f "$fmt" --body "$body" "$page"; then
      if same "$tmp/b.$fmt" "$body" "$body=$tmp/page.$body"; then
        ok "-f $fmt --body $body: \"$body\" is -f $body byte for byte"
      else bad "-f $fmt --body $body" "$tmp/same.out"; fi
    fi
  done
  if run "-f $fmt --body fulltext,html,md,text" 0 "$tmp/all.$fmt" extract -q -f "$fmt" --body fulltext,html,md,text "$page"; then
    if same "$tmp/all.$fmt" text,markdown,html,fulltext text="$tmp/page.text" markdown="$tmp/page.markdown" \
      html="$tmp/page.html" fulltext="$tmp/page.fulltext"; then
      ok "-f $fmt --body fulltext,html,md,text: four keys in the order text, markdown, html, fulltext"
    else bad "-f $fmt, four body keys" "$tmp/same.out"; fi
  fi
  # the default is "text", and --body text is the default
  if run "-f $fmt" 0 "$tmp/d.$fmt" extract -q -f "$fmt" "$page" &&
    run "-f $fmt --body text,txt" 0 "$tmp/t.$fmt" extract -q -f "$fmt" --body text,txt "$page"; then
    if cmp -s "$tmp/d.$fmt" "$tmp/t.$fmt" && same "$tmp/d.$fmt" text "text=$tmp/page.text"; then
      ok "-f $fmt: --body text writes what no --body writes, \"text\" alone"
    else bad "-f $fmt: --body text is not the default" "$tmp/same.out"; fi
  fi
done

# --- a WARC file: every record, json to a directory and jsonl as a stream ----
python3 - "$tmp/crawl.warc.gz" "$src/samples/git-am.html" - "$src/samples/python-poplib.html" \
  "$src/samples/postgresql-triggers.html" <<'EOF' || { echo "FAIL cannot write the WARC file"; exit 1; }
import gzip, sys
def record(fields, block):
    head = "WARC/1.1\r\nWARC-Type: response\r\n" + "".join("%s: %s\r\n" % kv for kv in fields)
    head += "Content-Length: %d\r\n\r\n" % len(block)
    return gzip.compress(head.encode() + block + b"\r\n\r\n")
with open(sys.argv[1], "wb") as f:
    for k, p in enumerate(sys.argv[2:], 1):
        html = open(p, "rb").read() if p != "-" else b""  # "-": an empty record, which fails
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(html)
        f.write(record([("WARC-Record-ID", "<urn:uuid:body-%d>" % k), ("WARC-Target-URI", "http://docs.example/p/%d" % k),
                        ("Content-Type", "application/http; msgtype=response")], http + html))
EOF
warc=$tmp/crawl.warc.gz
# one record is empty: exit 1 for every run over the WARC
for f in text markdown html fulltext; do
  run "-f $f the WARC -o DIR" 1 "$tmp/null" extract -q -f "$f" "$warc" -o "$tmp/$f/" || exit 1
done
if run "-f jsonl --body markdown the WARC" 1 "$tmp/warc-md.jsonl" extract -q -f jsonl --body markdown "$warc"; then
  if same "$tmp/warc-md.jsonl" markdown "markdown=$tmp/markdown/" && [ "$(cat "$tmp/same.out")" = 3 ] &&
    [ "$(grep -c '"markdown":null' "$tmp/warc-md.jsonl")" = 1 ]; then
    ok "-f jsonl --body markdown, a WARC: each record's \"markdown\" is -f markdown's file; the empty one's null"
  else bad "-f jsonl --body markdown, a WARC" "$tmp/same.out"; fi
fi
if run "-f jsonl -j 2 --body text,markdown,html the WARC" 1 "$tmp/warc-3.jsonl" extract -q -j 2 -f jsonl \
  --body text,markdown,html "$warc"; then
  if same "$tmp/warc-3.jsonl" text,markdown,html "text=$tmp/text/" "markdown=$tmp/markdown/" "html=$tmp/html/" &&
    [ "$(cat "$tmp/same.out")" = 9 ]; then
    ok "-f jsonl -j 2 --body text,markdown,html, a WARC: three keys, each the page's file"
  else bad "-f jsonl --body text,markdown,html, a WARC" "$tmp/same.out"; fi
fi
if run "-f json --body markdown,text the WARC -o DIR" 1 "$tmp/null" extract -q -f json --body markdown,text "$warc" \
  -o "$tmp/json/"; then
  n=0 good=1
  for j in "$tmp"/json/*.json; do
    id=$(basename "$j" .json)
    if ! same "$j" text,markdown "text=$tmp/text/$id.txt" "markdown=$tmp/markdown/$id.md"; then good=0; break; fi
    n=$((n + 1))
  done
  if [ "$good" = 1 ] && [ "$n" = 3 ]; then
    ok "-f json --body markdown,text -o DIR, a WARC: $n files, \"text\" and \"markdown\" as -f text and -f markdown"
  else bad "-f json --body markdown,text -o DIR ($n files)" "$tmp/same.out"; fi
fi

# --- refused ----------------------------------------------------------------
for v in foo "" "text," ",markdown" "text,,md" json blocks jsonl segments "Markdown" "text markdown"; do
  if run "--body '$v'" 2 "$tmp/out" extract -q -f json --body "$v" "$page"; then
    if grep -q -- "--body" "$tmp/err" && [ ! -s "$tmp/out" ]; then ok "--body '$v': exit 2, and why"
    else bad "--body '$v': no message naming --body, or output" "$tmp/err"; fi
  fi
done
for f in text markdown html fulltext; do
  if run "-f $f --body markdown" 2 "$tmp/out" extract -q -f "$f" --body markdown "$page"; then
    if grep -q -- "--body is for" "$tmp/err" && [ ! -s "$tmp/out" ]; then ok "-f $f --body markdown: exit 2, and why"
    else bad "-f $f --body markdown: no message" "$tmp/err"; fi
  fi
done
run "winnow blocks --body markdown" 2 "$tmp/out" blocks --body markdown "$page" && ok "winnow blocks --body: exit 2"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
