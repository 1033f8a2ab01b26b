#!/usr/bin/env bash
# Leave-one-out: `winnow extract --exclude-self` on a learned page gives what
# extracting it with a database learned from the other pages only gives.
#
# usage: loo.sh WINNOW_BINARY
#
# A generated site of 24 pages is learned into one database; for pages 0,
# 5, 12 and 23, a database of the 23 other pages (same order) is learned
# too, and the text of the left-out page must be the same both ways (default
# method and mode). The same on sites of 5 and 6 pages, at the edge of auto
# mode's 5-page minimum: leaving the page out must not change whether the
# model is used. Pages 5, 6 and 7 share a correction paragraph: on 3 of 24
# pages it is template, on 2 of 23 it is not, so for page 5 --exclude-self
# must keep what a plain site-mode extract drops. Also: --exclude-self on a
# page the model never learned changes nothing, and works on a directory.
set -u
winnow=${1:?usage: loo.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

gen "$tmp/pages" --pages 24 --seed 51
gen "$tmp/new" --pages 2 --start 100 --seed 51
correction="Correction: an earlier version of this story gave the wrong date for the council meeting, which will take place on the first Tuesday of next month in the library hall."
for k in 5 6 7; do
  python3 - "$tmp/pages/page-0000$k.html" "$correction" <<'EOF'
import sys
path, text = sys.argv[1], sys.argv[2]
html = open(path, encoding="utf-8").read()
at = html.index("</h1>") + len("</h1>")
open(path, "w", encoding="utf-8").write(html[:at] + "\n<p>" + text + "</p>" + html[at:])
EOF
done

# loo N K...: site of pages 0..N-1; leave each K out
loo() {
  local n=$1 k j
  shift
  local all=$tmp/all-$n.db
  mkdir -p "$tmp/site-$n"
  for ((j = 0; j < n; j++)); do cp "$tmp/pages/page-$(printf %05d "$j").html" "$tmp/site-$n/"; done
  run "learn $n pages" 0 learn "$tmp/site-$n" --db "$all" --site news -q || return
  for k in "$@"; do
    local page=page-$(printf %05d "$k").html others=$tmp/others-$n-$k
    mkdir -p "$others"
    cp "$tmp/site-$n/"*.html "$others/"
    rm "$others/$page"
    run "learn the $((n - 1)) pages but $k" 0 learn "$others" --db "$others.db" --site news -q || continue
    run "extract page $k of $n with --exclude-self" 0 extract "$tmp/pages/$page" --db "$all" --site news --exclude-self || continue
    cp "$tmp/out" "$tmp/loo.txt"
    cp "$tmp/out" "$tmp/loo.$k"
    run "extract page $k of $n with the others' model" 0 extract "$tmp/pages/$page" --db "$others.db" --site news || continue
    cp "$tmp/out" "$tmp/others.txt"
    cp "$tmp/out" "$tmp/others.$k"
    if [ ! -s "$tmp/loo.txt" ]; then
      bad "site of $n pages, page $k: no text"
    elif cmp -s "$tmp/loo.txt" "$tmp/others.txt"; then
      ok "site of $n pages, page $k: --exclude-self gives the text of the model without the page"
    else
      diff "$tmp/others.txt" "$tmp/loo.txt" | cut -c1-120 >"$tmp/diff"
      bad "site of $n pages, page $k: --exclude-self differs from the model without the page (diff others loo)" "$tmp/diff"
    fi
  done
}

loo 24 0 5 12 23

if run "page 5 plain" 0 extract "$tmp/pages/page-00005.html" --db "$tmp/all-24.db" --site news; then
  if grep -qF "$correction" "$tmp/out"; then
    bad "page 5: the correction on 3 of 24 pages is not template in a plain extract (the test proves nothing)"
  elif grep -qF "$correction" "$tmp/loo.5" && grep -qF "$correction" "$tmp/others.5"; then
    ok "page 5: the correction shared with 2 other pages is dropped, kept with --exclude-self and without the page"
  else
    bad "page 5: the correction is dropped with --exclude-self or without the page"
  fi
fi

# a page the model never learned: nothing of it to leave out
for f in "$tmp/new/"*.html; do
  run "new page plain" 0 extract "$f" --db "$tmp/all-24.db" --site news && cp "$tmp/out" "$tmp/plain.txt"
  run "new page --exclude-self" 0 extract "$f" --db "$tmp/all-24.db" --site news --exclude-self
  if cmp -s "$tmp/out" "$tmp/plain.txt" && [ -s "$tmp/out" ]; then
    ok "$(basename "$f"), never learned: --exclude-self changes nothing"
  else
    bad "$(basename "$f"), never learned: --exclude-self changes the text"
  fi
done

# a whole directory at once, with -o: every page left out in turn
if run "exclude-self on a directory" 0 extract "$tmp/pages" --db "$tmp/all-24.db" --site news --exclude-self -o "$tmp/dirout"; then
  "$winnow" extract "$tmp/pages/page-00005.html" --db "$tmp/others-24-5.db" --site news >"$tmp/five.txt" 2>/dev/null
  if [ "$(ls "$tmp/dirout"/*.txt | wc -l)" -eq 24 ] && cmp -s "$tmp/dirout/page-00005.txt" "$tmp/five.txt"; then
    ok "exclude-self on a directory: 24 outputs, page 5 as without it"
  else
    bad "exclude-self on a directory: page 5 differs from the model without it"
  fi
fi

# at auto mode's edge: 5 pages minus one is 4, 6 minus one is 5
loo 5 0 4
loo 6 0 3
finish
