#!/usr/bin/env bash
# extract --format jsonl as a stream (issue 12): pages/s and peak RSS over the
# corpus WARCs concatenated N times (the same paths N times on the command
# line), with 1 and 2 threads, to /dev/null and to a gzip file; and once (1x)
# for comparison: memory stays flat when the input grows tenfold.
#
# usage: bench/jsonl_stream.sh [WINNOW [CORPUS_SITES_DIR [N]]]
set -u
winnow=${1:-build/winnow}
corpus=${2:-../shared/corpus/sites}
times=${3:-10}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-jsonl-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
warcs=("$corpus"/*.warc.gz)
many=()
for ((i = 0; i < times; i++)); do many+=("${warcs[@]}"); done

# measure LABEL JOBS REPEAT OUT: one run; prints a table row
measure() {
  local label=$1 jobs=$2 rep=$3 out=$4 inputs
  if [ "$rep" = 1 ]; then inputs=("${warcs[@]}"); else inputs=("${many[@]}"); fi
  if [ "$out" = - ]; then
    /usr/bin/time -v "$winnow" extract -f jsonl -q -j "$jobs" "${inputs[@]}" 2>"$tmp/time" >"$tmp/out.jsonl"
  else
    /usr/bin/time -v "$winnow" extract -f jsonl -q -j "$jobs" "${inputs[@]}" -o "$tmp/out.jsonl.gz" 2>"$tmp/time"
    zcat "$tmp/out.jsonl.gz" >"$tmp/out.jsonl"
  fi
  local lines rss wall secs cpu load
  load=$(cut -d' ' -f1 /proc/loadavg)
  lines=$(wc -l <"$tmp/out.jsonl")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$tmp/time")
  secs=$(awk -v w="$wall" 'BEGIN { n = split(w, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }')
  cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$tmp/time")
  printf '| %s | %d | %sx (%d pages) | %s | %.1f s | %.0f | %.1f s | %.0f | %.1f MB | %s |\n' "$label" "$jobs" "$rep" "$lines" \
    "$([ "$out" = - ] && echo stdout || echo "-o .jsonl.gz")" "$secs" "$(awk -v l="$lines" -v s="$secs" 'BEGIN { print l / s }')" \
    "$cpu" "$(awk -v l="$lines" -v s="$cpu" 'BEGIN { print l / s }')" \
    "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')" "$load"
  md5sum <"$tmp/out.jsonl" | cut -c1-12 >"$tmp/sum-$label-$jobs-$rep"
}

echo "| run | -j | input | output | wall | pages/s | CPU (user+sys) | pages per CPU-s | peak RSS | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|"
measure once 1 1 -
measure once 2 1 -
measure tenfold 1 "$times" -
measure tenfold 2 "$times" -
measure tenfold-gz 2 "$times" gz
if cmp -s "$tmp/sum-tenfold-1-$times" "$tmp/sum-tenfold-2-$times" && cmp -s "$tmp/sum-tenfold-1-$times" "$tmp/sum-tenfold-gz-2-$times"; then
  echo "outputs of -j 1, -j 2 and -j 2 gzip: identical ($(cat "$tmp/sum-tenfold-1-$times"))"
else
  echo "outputs DIFFER"
fi
