#!/usr/bin/env bash
# Golden renderer test: the text, Markdown, HTML, JSON and full-text output of the
# pages listed in tests/golden/pages.tsv compared byte for byte with the
# files kept in tests/golden/ (NAME.txt, NAME.md, NAME.html, NAME.json, NAME.full.txt).
# Pages are read from stdin, so the JSON's source names no path.
#
# usage: tests/golden.sh WINNOW            compare (exit 1 on a difference)
#        tests/golden.sh WINNOW --update   rewrite the kept files (make golden)
#
# When a change to extraction or to a renderer is meant to change these
# outputs, run `make golden`, read `git diff tests/golden/` and commit the
# files with the change.
set -uo pipefail
winnow=${1:?usage: golden.sh WINNOW [--update]}
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
gold=$here/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0
while IFS=$'\t' read -r name src _; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ ! -f $root/$src ]]; then echo "FAIL $name: no page $src"; fail=1; continue; fi
  for fmt in text markdown html json fulltext; do
    case $fmt in text) ext=txt ;; markdown) ext=md ;; fulltext) ext=full.txt ;; *) ext=$fmt ;; esac
    out=$tmp/$name.$ext
    if ! "$winnow" extract -q --input-format html -f "$fmt" - <"$root/$src" >"$out" 2>"$tmp/err"; then
      echo "FAIL $name ($fmt): winnow exited non-zero: $(head -c 500 "$tmp/err")"
      fail=1
      continue
    fi
    if [[ $update == --update ]]; then
      cp "$out" "$gold/$name.$ext"
    elif ! cmp -s "$gold/$name.$ext" "$out"; then
      echo "FAIL $name.$ext differs from tests/golden/$name.$ext (make golden rewrites it when the change is meant):"
      diff -u "$gold/$name.$ext" "$out" | head -40
      fail=1
    fi
    checked=$((checked + 1))
  done
done <"$gold/pages.tsv"
if [[ $update == --update ]]; then echo "rewrote $checked files in tests/golden/"; exit "$fail"; fi
[[ $checked -ge 24 ]] || { echo "FAIL only $checked outputs compared"; fail=1; }
[[ $fail -eq 0 ]] && echo "$checked outputs as kept in tests/golden/"
exit "$fail"
