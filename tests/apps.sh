#!/usr/bin/env bash
# winnow keywords and winnow classify through the command line, on real pages:
# the article's terms and none of its site's navigation words, a DF table
# built and read back, bad DF and model files refused with a clear message,
# and classifiers that must tell topics apart (cross-validated, and trained
# on documentation pages then applied to other pages of the same manuals).
#
#   apps.sh WINNOW SOURCE_DIR
set -uo pipefail
winnow=$1 src=$2
pages=$src/tests/data/pages
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

has() { grep -qx -- "$2" <<<"$1"; }

# ---- keywords of a real page: the article's terms, not the site's navigation ----
page=$pages/aeb-aljazeera.com.html
main=$("$winnow" keywords -q -k 20 "$page" | cut -f1)
full=$("$winnow" keywords -q -k 20 --fulltext "$page" | cut -f1)
for t in taliban helicopter afghan "helicopter crash"; do
  if has "$main" "$t"; then ok; else bad "keywords of $page lack '$t': $(tr '\n' '|' <<<"$main")"; fi
done
# navigation and footer words of Al Jazeera's template: in the full text's keywords, not in the main text's
for t in "al jazeera" aj documentaries cookie podcasts; do
  if has "$full" "$t"; then ok; else bad "full-text keywords lack the navigation word '$t' (the check below means nothing)"; fi
  if has "$main" "$t"; then bad "keywords of the main text hold the navigation word '$t'"; else ok; fi
done
# JSON: one object a line with the documented fields
json=$("$winnow" keywords -q -f json -k 3 "$page" "$pages/aeb-thespacereview.com.html")
if python3 -c '
import json, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 2, lines
for l in lines:
    o = json.loads(l)
    assert set(o) == {"name", "source", "url", "keywords"}, o
    assert len(o["keywords"]) == 3
    for k in o["keywords"]:
        assert set(k) == {"term", "score", "tf", "df", "words"}, k
assert json.loads(lines[1])["keywords"][0]["term"] == "sls", lines[1]
' <<<"$json"; then ok; else bad "keywords -f json: $json"; fi
# several pages in text: a '# NAME' line each, a form feed between records
text=$("$winnow" keywords -q -k 2 "$page" "$pages/aeb-thespacereview.com.html")
if [ "$(grep -c '^# ' <<<"$text")" = 2 ] && [ "$(grep -c $'^\f$' <<<"$text")" = 1 ]; then ok; else bad "two records: $text"; fi

# ---- a DF table built and read back ----
mkdir -p "$work/docs"
printf 'Rocket launch. The rocket engine.\n' > "$work/docs/a.txt"
printf 'The rocket launch\n' > "$work/docs/b.txt"
printf 'The cat food\n' > "$work/docs/c.txt"
printf 'The day\n' > "$work/docs/d.txt"
if "$winnow" keywords -q --build-df --plain --min-df 1 "$work/docs" -o "$work/t.df"; then ok; else bad "--build-df failed"; fi
# phrases need 2 * min_df documents: "the day" and "cat food" are left out
expect=$(printf 'winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t9\ncat\t1\nday\t1\nengine\t1\nfood\t1\nlaunch\t2\nrocket\t2\nrocket launch\t2\nthe\t4\nthe rocket\t2')
if [ "$(cat "$work/t.df")" = "$expect" ]; then ok; else bad "DF table: $(cat "$work/t.df")"; fi
"$winnow" keywords -q --build-df --plain --min-df 1 "$work/docs" -o "$work/t.df.gz"
if [ "$(gzip -dc "$work/t.df.gz")" = "$expect" ]; then ok; else bad "gzip DF table differs from the plain one"; fi
kw=$("$winnow" keywords --df "$work/t.df.gz" --plain "$work/docs/a.txt" --stop-share 0.9 | cut -f1 | tr '\n' ' ')
# "the" is in all 4 documents (a stopword); "rocket launch" occurs once (no phrase)
if [ "$kw" = "rocket engine launch " ]; then ok; else bad "keywords with the built table: '$kw'"; fi

# ---- bad DF files: exit 1 and a message that says what is wrong ----
check_bad_df() {  # CONTENT EXPECTED-MESSAGE-PART
  printf '%b' "$1" > "$work/bad.df"
  err=$("$winnow" keywords --df "$work/bad.df" "$page" 2>&1 >/dev/null); rc=$?
  if [ $rc = 1 ] && grep -qF -- "$2" <<<"$err"; then ok; else bad "bad DF '$1': exit $rc, '$err' (expected '$2')"; fi
}
check_bad_df '<html></html>\n' "not a winnow DF table"
check_bad_df 'winnow-df\t7\ndocs\t1\nmin_df\t1\nterms\t0\n' "this winnow reads version 1"
check_bad_df 'winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t3\ncat\t1\n' "cut short"
check_bad_df 'winnow-df\t1\ndocs\t4\nmin_df\t1\nterms\t2\ndog\t1\ncat\t1\n' "line 6"
err=$("$winnow" keywords --df "$work/none.df" "$page" 2>&1 >/dev/null); rc=$?
if [ $rc = 1 ] && grep -q "cannot open" <<<"$err"; then ok; else bad "missing DF: exit $rc, $err"; fi

# ---- classification: two topics that text tells apart, cross-validated ----
mkdir -p "$work/topics"
for i in 1 2 3 4 5 6; do
  printf 'The rocket number %s reached orbit. Astronauts and the launch crew watched the engine burn.\n' "$i" > "$work/topics/space_$i.txt"
  printf 'The soup number %s needs tomato, bread and cheese. The cook serves it with butter.\n' "$i" > "$work/topics/food_$i.txt"
done
out=$("$winnow" classify -q --cv 3 --label-by-name --plain "$work/topics")
if [ "$out" = "accuracy 1.0000 correct 12 pages 12 labels 2 folds 3" ]; then ok; else bad "classify --cv: $out"; fi
out=$("$winnow" classify -q --cv 3 --pairs --label-by-name --plain "$work/topics" | tail -1)
if [[ $out == "pairs 1 folds 3 mean_accuracy 1.0000 "* ]]; then ok; else bad "classify --pairs: $out"; fi
# labels that say nothing about the text cannot be learnt: the check above can fail
for i in 1 2 3 4 5 6; do
  printf 'space_%s\t%s\nfood_%s\t%s\n' "$i" $((i % 2)) "$i" $(((i + 1) % 2)); done > "$work/noise.tsv"
out=$("$winnow" classify -q --cv 3 --labels "$work/noise.tsv" --plain "$work/topics")
acc=$(awk '{print $2}' <<<"$out")
if awk -v a="$acc" 'BEGIN {exit !(a <= 0.75)}'; then ok; else bad "noise labels learnt: $out"; fi

# trained on pages of three manuals, applied to other pages of the same manuals
# (the PostgreSQL class learns two pages: the triggers sample is a chapter's
# short introduction, and git-am, kept whole, speaks of indexes too)
mkdir -p "$work/manuals"
ln -s "$src/samples/git-am.html" "$src/samples/python-poplib.html" "$src/samples/postgresql-auth-ldap.html" \
  "$pages/postgresql-doc-indexes-ordering.html" "$work/manuals/"
printf 'postgresql-auth-ldap\tpostgresql\npostgresql-doc-indexes-ordering\tpostgresql\ngit-am\tgit\npython-poplib\tpython\n' > "$work/manuals.tsv"
if "$winnow" classify -q --train --labels "$work/manuals.tsv" "$work/manuals" -o "$work/manuals.nb.gz"; then ok; else bad "classify --train"; fi
out=$("$winnow" classify -q --nb "$work/manuals.nb.gz" "$src/samples/postgresql-triggers.html" \
      "$pages/git-doc-git-stripspace.html" "$pages/python-doc-library-html.html" | cut -f1,2 | tr '\t\n' ': ')
if [ "$out" = "postgresql-triggers:postgresql git-doc-git-stripspace:git python-doc-library-html:python " ]; then ok
else bad "classify --nb: $out"; fi
printf 'winnow-nb\t1\nalpha\t0.1\nlabels\t1\nlabel\ta\t1\t2\nterms\t1\ncat\n' > "$work/bad.nb"
err=$("$winnow" classify --nb "$work/bad.nb" "$page" 2>&1 >/dev/null); rc=$?
if [ $rc = 1 ] && grep -q "line 6" <<<"$err"; then ok; else bad "bad model: exit $rc, $err"; fi

# ---- usage ----
for c in keywords classify; do
  if "$winnow" help "$c" | grep -q "^usage: winnow $c"; then ok; else bad "winnow help $c"; fi
done
"$winnow" keywords --build-df "$page" >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then ok; else bad "--build-df without -o: exit $rc"; fi
"$winnow" classify --plain "$work/topics" >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then ok; else bad "classify without a mode: exit $rc"; fi
"$winnow" keywords -k 0 "$page" >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then ok; else bad "-k 0: exit $rc"; fi
"$winnow" keywords --fulltext --db x.db "$page" >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then ok; else bad "--fulltext --db: exit $rc"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
