#!/usr/bin/env bash
# winnow train and the node classifier, end to end on generated sites:
# labels from site-level detection, a model file that is deterministic for
# a seed and readable by extract, cross-site validation's recall_at_p90
# line, every model kind, refused model files, and `winnow segments`.
winnow=${1:?usage: train.sh WINNOW}
source "$(dirname "$0")/lib.sh"

# four sites of two designs; the fifth, unseen, to extract from
gen "$tmp/s1.warc" --pages 12 --seed 11 --template A --format warc --host one.example
gen "$tmp/s2.warc" --pages 12 --seed 12 --template B --format warc --host two.example
gen "$tmp/s3.warc" --pages 12 --seed 13 --template A --format warc --host three.example
gen "$tmp/s4.warc" --pages 12 --seed 14 --template B --format warc --host four.example
gen "$tmp/unseen" --pages 3 --start 100 --seed 15 --template A --truth "$tmp/truth"
sites=("$tmp"/s1.warc "$tmp"/s2.warc "$tmp"/s3.warc "$tmp"/s4.warc)

if run "train boost" 0 train "${sites[@]}" --kind boost --rounds 20 --seed 3 -o "$tmp/m1.wmodel"; then
  if grep -q "labelled 4 sites, 48 pages" "$tmp/err" && grep -qE "\(([1-9][0-9]*) template, ([1-9][0-9]*) content\)" "$tmp/err"; then
    ok "train labels both classes on 4 sites"
  else bad "train summary" "$tmp/err"; fi
  head -1 "$tmp/m1.wmodel" | grep -qx "winnow-model 1" && grep -q "^kind boost" "$tmp/m1.wmodel" &&
    grep -q "^digest xxh3:" "$tmp/m1.wmodel" && grep -q "^settings .*seed=3" "$tmp/m1.wmodel" &&
    ok "model file records format, kind, corpus digest and settings" || bad "model header" "$tmp/m1.wmodel"
fi
if run "train again" 0 train "${sites[@]}" --kind boost --rounds 20 --seed 3 -o "$tmp/m2.wmodel"; then
  cmp -s "$tmp/m1.wmodel" "$tmp/m2.wmodel" && ok "same seed, same model file" || bad "training is not deterministic"
fi
for k in nb logreg forest; do
  if run "train $k" 0 train "${sites[@]}" --kind $k --rounds 10 -o "$tmp/$k.wmodel"; then
    grep -q "^kind $k" "$tmp/$k.wmodel" && ok "train --kind $k" || bad "kind $k not recorded" "$tmp/$k.wmodel"
    run "extract with $k" 0 extract --model "$tmp/$k.wmodel" "$tmp/unseen" -o "$tmp/out-$k" && ok "extract --model ($k)"
  fi
done

if run "cv" 0 train "${sites[@]}" --cv 2 --kind logreg --curve "$tmp/curve.tsv"; then
  v=$(awk '$1 == "recall_at_p90" { print $2 }' "$tmp/out")
  if [ -n "$v" ] && python3 -c "import sys; v=float('$v'); sys.exit(0 if 0 <= v <= 1 else 1)"; then
    ok "train --cv prints recall_at_p90 ($v)"
  else bad "no recall_at_p90 line" "$tmp/out"; fi
  [ "$(head -1 "$tmp/curve.tsv")" = "$(printf 'threshold\tprecision\trecall')" ] && [ "$(wc -l <"$tmp/curve.tsv")" -gt 2 ] &&
    ok "precision-recall curve written" || bad "curve file" "$tmp/curve.tsv"
fi
run "cv needs sites" 2 train "$tmp/s1.warc" --cv 10 && ok "--cv with too few sites is a usage error"

# the trained model on a site it never saw: the article stays
if run "extract unseen" 0 extract --model "$tmp/m1.wmodel" "$tmp/unseen" -o "$tmp/out-boost"; then
  miss=0
  for f in "$tmp"/truth/*.txt; do
    id=$(basename "$f" .txt)
    while IFS= read -r line; do
      grep -qF -- "$line" "$tmp/out-boost/$id.txt" || miss=$((miss + 1))
    done <"$f"
  done
  [ "$miss" -eq 0 ] && ok "unseen site: every article line kept" || bad "$miss article lines lost"
fi

# model files that must be refused with a message naming the file
printf 'winnow-model 1\nkind boost\n' >"$tmp/trunc.wmodel"
head -c $(($(wc -c <"$tmp/m1.wmodel") / 2)) "$tmp/m1.wmodel" >"$tmp/cut.wmodel"
sed 's/^feature_version 1$/feature_version 99/' "$tmp/m1.wmodel" >"$tmp/layout.wmodel"
sed 's/^winnow-model 1$/winnow-model 7/' "$tmp/m1.wmodel" >"$tmp/format.wmodel"
head -c 4096 /dev/urandom >"$tmp/noise.wmodel"
for m in trunc cut layout format noise missing; do
  if run "bad model $m" 1 extract --model "$tmp/$m.wmodel" "$tmp/unseen"; then
    grep -q "$m.wmodel" "$tmp/err" && ok "model '$m' refused: $(head -1 "$tmp/err" | cut -c1-90)" || bad "no file name in the error" "$tmp/err"
  fi
done

# segmentation
page=$(ls "$tmp"/unseen/*.html | head -1)
if run "segments" 0 segments "$page"; then
  python3 - "$tmp/out" <<'PY' && ok "segments: nested JSON, scores in [0,1], children at least their parent" || bad "segments JSON" "$tmp/out"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tree_nodes"] > 3 and d["segments"], d
stack = [(s, 0.0) for s in d["segments"]]
n = 0
while stack:
    s, parent = stack.pop()
    n += 1
    assert 0 <= s["smoothed"] <= 1 and 0 <= s["score"] <= 1
    assert s["smoothed"] >= parent - 1e-6, (s, parent)
    stack += [(c, s["smoothed"]) for c in s["children"]]
assert n >= 2, n
PY
fi
finish
