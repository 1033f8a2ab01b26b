#!/usr/bin/env bash
# The page type on the command line: page_type and page_type_confidence in
# -f json and -f jsonl (failure lines too, as null), --page-type TYPE forcing
# them (confidence 1), an unknown TYPE refused, annotate's summary naming the
# kind, the text the same whichever kind is forced (reported only), and
# train --page-types --predictions: one line per held-out page, with the
# verdicts the printed accuracy counts; --models keeping the held-out
# models, and extract --page-type-model reading them.
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

# the kind chooses the selection: a product keeps its price line (product
# strategy), and so does a thread (region strategy: a thread is never an
# article after all); a listing, documentation, landing page, article or
# other keeps the running text alone (one paragraph holding nearly all the
# text: an article after all); the model's own verdict (product) reads as
# the forced product. The strategies' choices, so the learned unit
# decision after them is off for the thread (its model, fitted on real
# threads, drops a lone price line from one)
"$winnow" extract "$tmp/p.html" > "$tmp/t0" 2>"$tmp/err"
for t in forum product; do
  "$winnow" extract --rule UNIT_MODEL=0 --page-type "$t" "$tmp/p.html" > "$tmp/t1" 2>"$tmp/err"
  grep -qx 'Price: \$39.00' "$tmp/t1" && ok "--page-type $t: the price line kept" || bad "--page-type $t: no price line" "$tmp/t1"
done
for t in listing documentation service article other; do
  "$winnow" extract --page-type "$t" "$tmp/p.html" > "$tmp/t1" 2>"$tmp/err"
  if grep -q 'Price' "$tmp/t1" || ! grep -q 'boils a litre' "$tmp/t1"; then bad "--page-type $t: not the article's text" "$tmp/t1"
  else ok "--page-type $t: the article's text"; fi
done
"$winnow" extract --page-type product "$tmp/p.html" > "$tmp/t1" 2>"$tmp/err"
cmp -s "$tmp/t0" "$tmp/t1" && ok "the model's product reads as the forced one" || bad "model's verdict and forced product differ" "$tmp/t0"

"$winnow" extract --page-type blog "$tmp/p.html" > /dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "page-type" "$tmp/err" && ok "--page-type blog: usage error" || bad "--page-type blog: exit $rc" "$tmp/err"

"$winnow" annotate --page-type listing "$tmp/p.html" > "$tmp/a.html" 2>"$tmp/err"
grep -q 'page type listing (confidence 1.00)' "$tmp/a.html" && ok "annotate names the forced kind" || bad "annotate: no page type" "$tmp/err"
"$winnow" annotate "$tmp/p.html" > "$tmp/a.html" 2>"$tmp/err"
grep -qE 'page type (article|forum|product|listing|documentation|service|other) \(confidence [01]\.[0-9]{2}\)' "$tmp/a.html" &&
  ok "annotate names the judged kind" || bad "annotate: no page type" "$tmp/err"

# train --page-types --eval ... --predictions FILE on two tiny corpora: mixed
# (page_type column: articles, products, a collection, a page without HTML)
# and plain (no page_type: articles)
mkdir -p "$tmp/mixed/html" "$tmp/plain/html"
printf 'id\turl\tsite\tpage_type\n' > "$tmp/mixed/manifest.tsv"
printf 'id\turl\tsite\n' > "$tmp/plain/manifest.tsv"
article() {
  cat > "$1" <<HTML
<html><head><title>$2</title><meta property="og:type" content="article"></head><body><nav><a href="/">Home</a></nav>
<article><h1>$2</h1><p>By a reporter, 3 May 2021.</p><p>The council met on Tuesday to discuss $2, and after a long debate
it voted to carry on with the plan that had been set out in the spring, despite the objections of several members.</p>
<p>Residents who spoke at the meeting said that they had not been told enough about $2 and asked for another hearing.</p></article></body></html>
HTML
}
product() {
  cat > "$1" <<HTML
<html><head><title>$2</title><meta property="og:type" content="product">
<script type="application/ld+json">{"@type":"Product","name":"$2","offers":{"@type":"Offer","price":"19.00"}}</script>
</head><body><h1>$2</h1><p>Price: \$19.00</p><form><input type=number><button>Add to cart</button></form>
<p>$2, made of steel, in three sizes.</p></body></html>
HTML
}
n=0
# (sites a, c, e fall in fold 0 of 2 and b, d in fold 1: each fold trains on the other)
for s in site-a site-b site-c site-d site-e; do
  n=$((n + 1)); article "$tmp/mixed/html/a$n.html" "story $n"
  printf 'a%s\thttps://%s/news/story-%s\t%s\tarticle\n' "$n" "$s" "$n" "$s" >> "$tmp/mixed/manifest.tsv"
  product "$tmp/mixed/html/p$n.html" "kettle $n"
  printf 'p%s\thttps://%s/products/kettle-%s\t%s\tproduct\n' "$n" "$s" "$n" "$s" >> "$tmp/mixed/manifest.tsv"
done
product "$tmp/mixed/html/c1.html" "kettles"
printf 'c1\thttps://site-a/collections/kettles\tsite-a\tcollection\n' >> "$tmp/mixed/manifest.tsv"
printf 'gone\thttps://site-b/gone\tsite-b\tarticle\n' >> "$tmp/mixed/manifest.tsv"
for k in 1 2; do
  article "$tmp/plain/html/q$k.html" "plain story $k"
  printf 'q%s\thttps://plain.example/q%s\tplain.example\n' "$k" "$k" >> "$tmp/plain/manifest.tsv"
done

# check NAME FILE STDOUT CORPORA: the predictions in FILE well formed (header,
# kinds, confidence in (0, 1], corpus among CORPORA, true kind as the
# manifests have it, every page with HTML of CORPORA there once, the one
# without absent), and as many right as the accuracy line of STDOUT says
check_predictions() {
  python3 - "$2" "$3" "$4" "$tmp" <<'PY' && ok "$1" || bad "$1" "$2"
import re, sys
pred, stdout, corpora, tmp = sys.argv[1], sys.argv[2], sys.argv[3].split(','), sys.argv[4]
kinds = {'article', 'forum', 'product', 'listing', 'documentation', 'service', 'other'}
lines = open(pred).read().splitlines()
assert lines[0] == 'corpus\tid\tpredicted\tconfidence\ttrue', lines[0]
truth = {}
for c in corpora:
    rows = [l.split('\t') for l in open(f'{tmp}/{c}/manifest.tsv').read().splitlines()]
    for r in rows[1:]:
        if r[0] != 'gone':
            t = r[3] if len(r) > 3 else 'article'
            truth[(c, r[0])] = 'listing' if t == 'collection' else t
seen, right = set(), 0
for l in lines[1:]:
    c, i, p, conf, t = l.split('\t')
    assert (c, i) in truth and (c, i) not in seen, l
    seen.add((c, i))
    assert p in kinds and t == truth[(c, i)] and 0 < float(conf) <= 1, l
    right += p == t
assert seen == set(truth), sorted(set(truth) - seen)
m = re.findall(r'accuracy (\d+) / (\d+)', open(stdout).read())
assert m and (int(m[-1][0]), int(m[-1][1])) == (right, len(seen)), (m, right, len(seen))
PY
}
"$winnow" train --page-types --eval corpora --predictions "$tmp/pc.tsv" "$tmp/mixed/manifest.tsv" "$tmp/plain/manifest.tsv" \
  > "$tmp/pc.out" 2>"$tmp/err" && check_predictions "train --eval corpora --predictions" "$tmp/pc.tsv" "$tmp/pc.out" mixed,plain ||
  bad "train --eval corpora --predictions: exit $?" "$tmp/err"
"$winnow" train --page-types --eval sites:mixed --folds 2 --predictions "$tmp/ps.tsv" "$tmp/mixed/manifest.tsv" \
  "$tmp/plain/manifest.tsv" > "$tmp/ps.out" 2>"$tmp/err" &&
  check_predictions "train --eval sites:mixed --predictions: mixed's pages only" "$tmp/ps.tsv" "$tmp/ps.out" mixed ||
  bad "train --eval sites:mixed --predictions: exit $?" "$tmp/err"
# --models DIR keeps each held-out model, and extract --page-type-model with
# a fold's model gives each page of the fold the verdict --predictions
# wrote (the manifest's URL passed, as training read it)
"$winnow" train --page-types --eval sites:mixed --folds 2 --models "$tmp/m" --predictions "$tmp/pm.tsv" \
  "$tmp/mixed/manifest.tsv" > /dev/null 2>"$tmp/err" || bad "train --eval sites:mixed --models: exit $?" "$tmp/err"
if [ -f "$tmp/m/mixed.fold0.wmodel" ] && [ -f "$tmp/m/mixed.fold1.wmodel" ]; then
  ok "--models: one model per fold"
  same=1
  while IFS=$'\t' read -r id url site _; do
    [ "$id" = id ] || [ "$id" = gone ] && continue
    case $site in site-b | site-d) f=1 ;; *) f=0 ;; esac
    "$winnow" extract -f json --page-type-model "$tmp/m/mixed.fold$f.wmodel" --url "$url" "$tmp/mixed/html/$id.html" \
      > "$tmp/pj" 2>"$tmp/err" || same=0
    python3 - "$tmp/pj" "$tmp/pm.tsv" "$id" <<'PY' || same=0
import json, sys
j = json.load(open(sys.argv[1]))
row = [l.split('\t') for l in open(sys.argv[2]).read().splitlines() if l.split('\t')[1] == sys.argv[3]][0]
sys.exit(0 if j['page_type'] == row[2] and abs(j['page_type_confidence'] - float(row[3])) < 0.002 else 1)
PY
  done < "$tmp/mixed/manifest.tsv"
  [ "$same" = 1 ] && ok "--page-type-model: each page typed as its held-out verdict" ||
    bad "--page-type-model: a verdict differs" "$tmp/pj"
else
  bad "--models: no fold models" "$tmp/err"
fi
"$winnow" train --page-types --eval corpora --models "$tmp/m2" "$tmp/mixed/manifest.tsv" "$tmp/plain/manifest.tsv" \
  > /dev/null 2>"$tmp/err"
[ -f "$tmp/m2/mixed.wmodel" ] && [ -f "$tmp/m2/plain.wmodel" ] && ok "--models with --eval corpora: one model per corpus" ||
  bad "--models with --eval corpora: missing" "$tmp/err"
"$winnow" extract --page-type-model "$tmp/p.html" "$tmp/p.html" > /dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "page type model" "$tmp/err" && ok "--page-type-model with a page: refused" ||
  bad "--page-type-model with a page: exit $rc" "$tmp/err"
"$winnow" train --page-types --predictions "$tmp/px.tsv" "$tmp/mixed/manifest.tsv" > /dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "needs --eval" "$tmp/err" && ok "--predictions without --eval: usage error" ||
  bad "--predictions without --eval: exit $rc" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
