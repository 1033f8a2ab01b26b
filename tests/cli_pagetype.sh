#!/usr/bin/env bash
# The page type on the command line: page_type and page_type_confidence in
# -f json and -f jsonl (failure lines too, as null), --page-type TYPE forcing
# them (confidence 1), an unknown TYPE refused, annotate's summary naming the
# kind, and the text the same whichever kind is forced (reported only).
#
# usage: cli_pagetype.sh WINNOW_BINARY
set -u
winnow=${1:?usage: cli_pagetype.sh WINNOW_BINARY}
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-pagetype.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; [ -f "${2:-}" ] && sed -n '1,12p' "$2" | sed 's/^/     | /'; return 0; }

cat > "$tmp/p.html" <<'HTML'
<html><head><title>Blue kettle</title><meta property="og:type" content="product">
<script type="application/ld+json">{"@type":"Product","name":"Blue kettle","offers":{"@type":"Offer","price":"39.00"}}</script>
</head><body><h1>Blue kettle</h1><p>Price: $39.00</p><form><input type=number><button>Add to cart</button></form>
<p>A kettle of blue enamel that boils a litre of water in four minutes on any stove, gas or induction.</p></body></html>
HTML
printf '' > "$tmp/empty.html"

# key NAME FILE PYTHON_EXPR: the JSON in FILE (one object, or the lines of
# JSON lines) read as j (the first line as j, all as js); EXPR true
key() {
  python3 - "$2" "$3" <<'PY' && ok "$1" || bad "$1" "$2"
import json, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
js = [json.loads(l) for l in lines]
j = js[0]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

kinds="('article','forum','product','listing','documentation','service','other')"
"$winnow" extract -f json --url https://shop.example/products/blue-kettle "$tmp/p.html" > "$tmp/j" 2>"$tmp/err"
key "json: page_type a kind, confidence in (0, 1]" "$tmp/j" "j['page_type'] in $kinds and 0 < j['page_type_confidence'] <= 1"
key "json: the product page is a product" "$tmp/j" "j['page_type'] == 'product'"
"$winnow" extract -f json --page-type forum "$tmp/p.html" > "$tmp/jf" 2>"$tmp/err"
key "json --page-type forum: forum at confidence 1" "$tmp/jf" "j['page_type'] == 'forum' and j['page_type_confidence'] == 1"
"$winnow" extract -f jsonl --page-type documentation "$tmp/p.html" > "$tmp/l" 2>"$tmp/err"
key "jsonl --page-type documentation" "$tmp/l" "j['page_type'] == 'documentation' and j['page_type_confidence'] == 1"
"$winnow" extract -q -f jsonl "$tmp/p.html" "$tmp/empty.html" > "$tmp/l2" 2>"$tmp/err"
key "jsonl: a failed page's line has both keys, null" "$tmp/l2" \
  "js[0]['page_type'] in $kinds and js[1]['status'] == 'WINNOW_E_EMPTY' and js[1]['page_type'] is None and js[1]['page_type_confidence'] is None"

# reported only: the text is the same whatever kind is forced
"$winnow" extract "$tmp/p.html" > "$tmp/t0" 2>"$tmp/err"
same=1
for t in article forum product listing documentation service other; do
  "$winnow" extract --page-type "$t" "$tmp/p.html" > "$tmp/t1" 2>"$tmp/err"
  cmp -s "$tmp/t0" "$tmp/t1" || { bad "text with --page-type $t differs" "$tmp/t1"; same=0; }
done
[ "$same" -eq 1 ] && ok "text the same with every --page-type"

"$winnow" extract --page-type blog "$tmp/p.html" > /dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "page-type" "$tmp/err" && ok "--page-type blog: usage error" || bad "--page-type blog: exit $rc" "$tmp/err"

"$winnow" annotate --page-type listing "$tmp/p.html" > "$tmp/a.html" 2>"$tmp/err"
grep -q 'page type listing (confidence 1.00)' "$tmp/a.html" && ok "annotate names the forced kind" || bad "annotate: no page type" "$tmp/err"
"$winnow" annotate "$tmp/p.html" > "$tmp/a.html" 2>"$tmp/err"
grep -qE 'page type (article|forum|product|listing|documentation|service|other) \(confidence [01]\.[0-9]{2}\)' "$tmp/a.html" &&
  ok "annotate names the judged kind" || bad "annotate: no page type" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
