#!/usr/bin/env bash
# Incremental learning equals one-shot learning; duplicates count once.
#
# usage: incremental.sh WINNOW_BINARY
#
# 1. Pages 0-19 then 20-59 of a site in two `winnow learn` runs, against
#    pages 0-59 in one run, with a short half-life (10 pages, so ageing
#    carries across the runs) and with the default one: `winnow sites`
#    (pages, learned, fingerprints) and `winnow site NAME --all` must agree
#    (df within 0.1 and share within 1%, the printed rounding), and so must
#    the text every method extracts from every page (the ContentExtractor
#    training set, 30 pages, spans both runs).
# 2. Duplicates: a directory holding one page twice under two file names, a
#    JSONL file with one page under two URLs, and a second learn of pages
#    already learned: learn's summary line on stderr counts each page once
#    and the rest as duplicates, and `winnow sites` counts pages once.
set -u
winnow=${1:?usage: incremental.sh WINNOW_BINARY}
. "$(dirname "$0")/lib.sh"

site=courier.example
gen "$tmp/part1.jsonl" --format jsonl --pages 20 --seed 41
gen "$tmp/part2.jsonl" --format jsonl --pages 40 --start 20 --seed 41
gen "$tmp/all.jsonl" --format jsonl --pages 60 --seed 41
gen "$tmp/pages" --pages 60 --seed 41

# same_listing A B: `winnow site --all` listings equal within print rounding
same_listing() {
  python3 - "$1" "$2" <<'EOF'
import sys
def rows(path):
    out = []
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("site ") or line.lstrip().startswith("df "):
            continue
        df, share, rest = line.split(None, 2)
        kind, _, text = rest.partition(" ")
        out.append((kind, text.strip(), float(df), float(share.rstrip("%"))))
    return sorted(out)
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if len(a) != len(b):
    print("%d against %d fingerprints" % (len(a), len(b)))
    sys.exit(1)
for x, y in zip(a, b):
    if x[:2] != y[:2] or abs(x[2] - y[2]) > 0.1001 or abs(x[3] - y[3]) > 1.001:
        print("differs: %r against %r" % (x, y))
        sys.exit(1)
print("%d fingerprints agree" % len(a))
EOF
}

for hl in 10 default; do
  opt=()
  [ "$hl" = default ] || opt=(--half-life "$hl")
  two=$tmp/two-$hl.db one=$tmp/one-$hl.db
  run "half-life $hl: learn part 1" 0 learn "$tmp/part1.jsonl" --db "$two" "${opt[@]}" -q &&
    run "half-life $hl: learn part 2" 0 learn "$tmp/part2.jsonl" --db "$two" -q &&
    run "half-life $hl: learn all" 0 learn "$tmp/all.jsonl" --db "$one" "${opt[@]}" -q || continue
  "$winnow" sites --db "$two" | awk 'NR > 1 { print $1, $2, $3, $4 }' >"$tmp/sites.two"
  "$winnow" sites --db "$one" | awk 'NR > 1 { print $1, $2, $3, $4 }' >"$tmp/sites.one"
  if cmp -s "$tmp/sites.two" "$tmp/sites.one" && grep -q "^$site [0-9.]* 60 " "$tmp/sites.one"; then
    ok "half-life $hl: winnow sites agrees: $(cat "$tmp/sites.one")"
  else
    bad "half-life $hl: winnow sites differs" "$tmp/sites.two" "$tmp/sites.one"
  fi
  "$winnow" site "$site" --db "$two" --all >"$tmp/site.two"
  "$winnow" site "$site" --db "$one" --all >"$tmp/site.one"
  if same_listing "$tmp/site.two" "$tmp/site.one" >"$tmp/cmp.out"; then
    ok "half-life $hl: winnow site --all agrees: $(cat "$tmp/cmp.out")"
  else
    bad "half-life $hl: winnow site --all differs" "$tmp/cmp.out"
  fi
  for m in auto blocks path-blocks chunks table-chunks ce fastce; do
    for db in two one; do
      "$winnow" extract "$tmp/pages" --db "$tmp/$db-$hl.db" --site "$site" --method "$m" -q \
        -o "$tmp/out-$db-$hl-$m" 2>"$tmp/err"
      r=$?
      if [ "$r" -ne 0 ] || sanitizer_spoke "$r" "$tmp/err"; then bad "half-life $hl, $m, $db: extract exit $r" "$tmp/err"; fi
    done
    if diff -r "$tmp/out-two-$hl-$m" "$tmp/out-one-$hl-$m" >"$tmp/diff" 2>&1; then
      ok "half-life $hl: method $m extracts the same text from the 60 pages"
    else
      bad "half-life $hl: method $m extracts other text after incremental learning" "$tmp/diff"
    fi
  done
done

# --- duplicates --------------------------------------------------------------
# summary LINE_FILE: "pages counted duplicates failed" from learn's summary line
summary() {
  sed -n 's/^learned \([0-9]*\) pages (\([0-9]*\) counted, \([0-9]*\) duplicates, \([0-9]*\) failed).*/\1 \2 \3 \4/p' "$1"
}
learned_column() { "$winnow" sites --db "$1" | awk -v s="$2" '$1 == s { print $3 }'; }

mkdir "$tmp/dupdir"
cp "$tmp/pages/page-0000"[0-9].html "$tmp/dupdir/"
cp "$tmp/pages/page-00004.html" "$tmp/dupdir/copy-of-4.html"
if run "directory with a page twice" 0 learn "$tmp/dupdir" --db "$tmp/dup.db" --site dir.example; then
  s=$(summary "$tmp/err")
  if [ "$s" = "11 10 1 0" ]; then ok "directory with a page twice: 11 pages, 10 counted, 1 duplicate"
  else bad "directory with a page twice: summary '$s', expected '11 10 1 0'" "$tmp/err"; fi
  n=$(learned_column "$tmp/dup.db" dir.example)
  [ "$n" = 10 ] && ok "directory with a page twice: winnow sites counts 10" || bad "directory with a page twice: winnow sites counts '$n'"
fi

python3 - "$tmp/all.jsonl" "$tmp/twourls.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[:8]
out = list(lines)
for i in (2, 5):
    rec = json.loads(lines[i])
    rec["url"] += "?utm_source=newsletter"
    out.append(json.dumps(rec))
rec = json.loads(lines[6])
rec["url"] = rec["url"].replace("/story-", "/amp/story-")
out.append(json.dumps(rec))
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(out) + "\n")
EOF
if run "JSONL with pages under two URLs" 0 learn "$tmp/twourls.jsonl" --db "$tmp/dup.db"; then
  s=$(summary "$tmp/err")
  if [ "$s" = "11 8 3 0" ]; then ok "JSONL with 3 pages under two URLs: 11 pages, 8 counted, 3 duplicates"
  else bad "JSONL with pages under two URLs: summary '$s', expected '11 8 3 0'" "$tmp/err"; fi
  n=$(learned_column "$tmp/dup.db" "$site")
  [ "$n" = 8 ] && ok "JSONL with pages under two URLs: winnow sites counts 8" || bad "JSONL with pages under two URLs: winnow sites counts '$n'"
fi

db_state "$tmp/one-default.db" >"$tmp/state.before"
if run "learning the same pages again" 0 learn "$tmp/all.jsonl" --db "$tmp/one-default.db"; then
  s=$(summary "$tmp/err")
  if [ "$s" = "60 0 60 0" ]; then ok "learning the same 60 pages again: 0 counted, 60 duplicates"
  else bad "learning the same pages again: summary '$s', expected '60 0 60 0'" "$tmp/err"; fi
  db_state "$tmp/one-default.db" >"$tmp/state.after"
  if cmp -s "$tmp/state.before" "$tmp/state.after"; then ok "learning the same pages again changes nothing"
  else diff "$tmp/state.before" "$tmp/state.after" | head >"$tmp/diff"; bad "learning the same pages again changed the database" "$tmp/diff"; fi
fi
finish
