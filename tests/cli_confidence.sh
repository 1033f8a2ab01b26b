#!/usr/bin/env bash
# confidence on the command line: in -f json and -f jsonl (a failed page's
# line null), a page of links below a story; and winnow train --confidence
# on two tiny corpora made here: --texts writes each page's main text (what
# extract writes), --labels with --predictions gives one line per labelled
# page with held-out probabilities in [0, 1] (unlabelled pages absent), -o
# writes a model naming the features of the shipped one, and bad labels or
# a missing --labels are refused.
#
# usage: cli_confidence.sh WINNOW_BINARY
set -u
winnow=${1:?usage: cli_confidence.sh WINNOW_BINARY}
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 0; }
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-confidence.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; [ -f "${2:-}" ] && sed -n '1,12p' "$2" | sed 's/^/     | /'; return 0; }

story=$here/tests/data/pages/aeb-aljazeera.com.html
cat > "$tmp/menu.html" <<'HTML'
<html><head><title>Home</title></head><body><nav><ul><li><a href=/a>News</a></li><li><a href=/b>Sport</a></li>
<li><a href=/c>Weather</a></li><li><a href=/d>About us</a></li></ul></nav><footer><a href=/e>Contact</a>
<a href=/f>Privacy</a></footer></body></html>
HTML
printf '' > "$tmp/empty.html"

"$winnow" extract -f json "$story" > "$tmp/s.json" 2> "$tmp/err"
"$winnow" extract -f json "$tmp/menu.html" > "$tmp/m.json" 2>> "$tmp/err"
"$winnow" extract -f jsonl "$story" "$tmp/empty.html" > "$tmp/l.jsonl" 2>> "$tmp/err"
python3 - "$tmp" <<'PY' && ok "json and jsonl: confidence, a story's above 0.9, a menu's below 0.3, null on a failed line" || bad "confidence in json/jsonl" "$tmp/err"
import json, sys
t = sys.argv[1]
s, m = json.load(open(t + "/s.json")), json.load(open(t + "/m.json"))
keys = list(s)
assert keys.index("confidence") == keys.index("page_type_confidence") + 1, keys
assert 0.9 <= s["confidence"] <= 1 and 0 <= m["confidence"] < 0.3, (s["confidence"], m["confidence"])
lines = [json.loads(l) for l in open(t + "/l.jsonl")]
assert lines[0]["confidence"] == s["confidence"], lines[0]["confidence"]
assert lines[1]["status"] == "WINNOW_E_EMPTY" and lines[1]["confidence"] is None
PY

# two corpora of stories and menus, one site each page
mkdir -p "$tmp/one/html" "$tmp/two/html"
for c in one two; do
  printf 'id\turl\tsite\n' > "$tmp/$c/manifest.tsv"
  for k in 1 2 3 4; do
    cp "$story" "$tmp/$c/html/s$k.html"
    cp "$tmp/menu.html" "$tmp/$c/html/m$k.html"
    printf 's%s\thttps://%s-s%s.example/news/s\t%s-s%s.example\n' "$k" "$c" "$k" "$c" "$k" >> "$tmp/$c/manifest.tsv"
    printf 'm%s\thttps://%s-m%s.example/\t%s-m%s.example\n' "$k" "$c" "$k" "$c" "$k" >> "$tmp/$c/manifest.tsv"
  done
done
mans=("$tmp/one/manifest.tsv" "$tmp/two/manifest.tsv")
"$winnow" train --confidence --texts "$tmp/texts" "${mans[@]}" > "$tmp/out" 2> "$tmp/err"
rc=$?
"$winnow" extract "$story" > "$tmp/s.txt" 2>/dev/null
if [ $rc -eq 0 ] && cmp -s "$tmp/texts/one/s1.txt" "$tmp/s.txt" && [ -f "$tmp/texts/two/m4.txt" ]; then
  ok "train --confidence --texts: each page's text, as extract writes it"
else
  bad "train --confidence --texts (exit $rc)" "$tmp/err"
fi

# labels: stories good, menus not; m4 of corpus two left unlabelled
printf 'corpus\tid\ttoken_f1\n' > "$tmp/labels.tsv"
for c in one two; do
  for k in 1 2 3 4; do
    printf '%s\ts%s\t0.95\n' "$c" "$k" >> "$tmp/labels.tsv"
    [ "$c$k" = two4 ] || printf '%s\tm%s\t0.1\n' "$c" "$k" >> "$tmp/labels.tsv"
  done
done
"$winnow" train --confidence --labels "$tmp/labels.tsv" --predictions "$tmp/pred.tsv" --folds 2 -o "$tmp/c.wmodel" \
  "${mans[@]}" > "$tmp/out" 2> "$tmp/err"
rc=$?
python3 - "$tmp/pred.tsv" <<'PY' && [ $rc -eq 0 ] && ok "train --confidence --predictions: one line per labelled page, held out" || bad "predictions (exit $rc)" "$tmp/err"
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
assert rows[0] == ["corpus", "id", "site", "label", "p_corpus", "p_site"], rows[0]
got = {(r[0], r[1]): r for r in rows[1:]}
assert len(got) == 15 and ("two", "m4") not in got, sorted(got)
for (c, i), r in got.items():
    assert r[3] == ("1" if i.startswith("s") else "0")
    assert 0 <= float(r[4]) <= 1 and 0 <= float(r[5]) <= 1
    # the other corpus's stories and menus teach it: a story above a menu
for c in ("one", "two"):
    assert float(got[(c, "s1")][4]) > float(got[(c, "m1")][4])
PY
shipped=$(grep '^features ' "$here/models/confidence.wmodel")
if [ "$(grep '^features ' "$tmp/c.wmodel" 2>/dev/null)" = "$shipped" ] && grep -q '^trained liblinear L2R_LR C=1 on one:8 two:7$' "$tmp/c.wmodel" &&
  grep -q '^label token_f1>=0.80$' "$tmp/c.wmodel"; then
  ok "train --confidence -o: a model with the shipped one's features, saying what it was fitted on"
else
  bad "train --confidence -o" "$tmp/c.wmodel"
fi

# refusals
"$winnow" train --confidence -o "$tmp/x.wmodel" "${mans[@]}" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'need --labels' "$tmp/err" && ok "-o without --labels: usage error" || bad "-o without --labels (exit $rc)" "$tmp/err"
printf 'corpus\tid\ttoken_f1\none\ts1\thigh\n' > "$tmp/bad.tsv"
"$winnow" train --confidence --labels "$tmp/bad.tsv" -o "$tmp/x.wmodel" "${mans[@]}" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'bad.tsv:2: token_f1' "$tmp/err" && ok "a label that is no number: refused, naming the line" || bad "bad label (exit $rc)" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
