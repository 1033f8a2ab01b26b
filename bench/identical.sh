#!/usr/bin/env bash
# Byte-identity check for changes meant not to alter any output (refactors,
# layout and speed work): run a winnow binary over the seven bench corpora and
# the unlabelled site corpus in every output format, and compare the output
# trees with those of a reference binary.
#
# usage: bench/identical.sh OLD_WINNOW NEW_WINNOW
#   OLD_WINNOW may be a directory of outputs made earlier by this script
#   (OUT/old): they are reused, not made again.
# env:
#   OUT      work directory (default /tmp/identical): OUT/old, OUT/new
#   FORMATS  output formats (default "text markdown json html jsonl")
#   BENCH    bench corpora folder (default ../shared/bench)
#   CORPUS   site corpus WARCs folder (default ../shared/corpus/sites)
#   JOBS     threads per winnow run (default 2)
#
# Exit status: 0 when every output is byte-identical, 1 when any differs or a
# run crashed (a differing exit status counts), 2 on usage errors.
set -uo pipefail
[ $# -eq 2 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-/tmp/identical}
formats=${FORMATS:-text markdown json html jsonl}
bench=${BENCH:-$repo/../shared/bench}
corpus=${CORPUS:-$repo/../shared/corpus/sites}
jobs=${JOBS:-2}

# run BIN DEST: every format over every input; exit statuses in DEST/status
run() {
  local bin=$1 dest=$2 f c w ext
  rm -rf "$dest"; mkdir -p "$dest"
  for f in $formats; do
    for c in "$bench"/*/; do
      c=$(basename "$c")
      if [ "$f" = jsonl ]; then
        "$bin" extract -q -j "$jobs" -f jsonl --comments --blocks "$bench/$c/html" -o "$dest/$f-$c.jsonl"
      else
        "$bin" extract -q -j "$jobs" -f "$f" "$bench/$c/html" -o "$dest/$f-$c/"
      fi
      echo "$f $c $?" >> "$dest/status"
    done
    for w in "$corpus"/*.warc.gz; do
      ext=$(basename "$w" .warc.gz)
      if [ "$f" = jsonl ]; then
        "$bin" extract -q -j "$jobs" -f jsonl --comments --blocks "$w" -o "$dest/$f-corpus-$ext.jsonl"
      else
        "$bin" extract -q -j "$jobs" -f "$f" "$w" -o "$dest/$f-corpus-$ext/"
      fi
      echo "$f corpus-$ext $?" >> "$dest/status"
    done
  done
}

old=$1
if [ -d "$old" ]; then
  olddir=$old
else
  olddir=$out/old
  [ -x "$old" ] || { echo "identical: $old is not an executable" >&2; exit 2; }
  run "$old" "$olddir"
fi
[ -x "$2" ] || { echo "identical: $2 is not an executable" >&2; exit 2; }
run "$2" "$out/new"
if diff -r -q "$olddir" "$out/new" > "$out/diff.txt"; then
  echo "identical: every output byte-identical ($(find "$olddir" -type f | wc -l) files)"
  exit 0
fi
echo "identical: $(wc -l < "$out/diff.txt") outputs differ (list in $out/diff.txt):"
head -20 "$out/diff.txt"
exit 1
