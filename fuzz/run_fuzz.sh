#!/bin/sh
# Runs a libFuzzer binary for a bounded time on a copy of a seed corpus.
#
# usage: run_fuzz.sh FUZZER SEED_DIR ARTIFACT_DIR SECONDS
#
# libFuzzer adds every input that finds new coverage to its corpus
# directory; pointing it at a temporary copy keeps the committed seeds as
# they are. Inputs that crash, leak or time out are written to ARTIFACT_DIR
# and the run fails. Every file of SEED_DIR but its README and its
# pages.txt is a seed; pages.txt names more seeds elsewhere in the
# repository (the test pages a seed would copy byte for byte), a path
# from the repository root a line.
set -eu
fuzzer=$1 seeds=$2 artifacts=$3 seconds=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/winnow-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/corpus" "$artifacts"
find "$seeds" -maxdepth 1 -type f ! -name README.md ! -name pages.txt -exec cp {} "$work/corpus/" \;
if [ -f "$seeds/pages.txt" ]; then
  root=$(cd "$seeds/../.." && pwd)
  while IFS= read -r page; do
    [ -n "$page" ] || continue
    cp "$root/$page" "$work/corpus/" || { echo "run_fuzz.sh: $seeds/pages.txt names $page, not found" >&2; exit 2; }
  done < "$seeds/pages.txt"
fi
# -timeout: one input taking 10 s is a hang; -rss_limit_mb: a memory blow-up
# is a bug too; -max_len: the seeds are under 20 KB, so is what grows from them.
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=20480 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$work/corpus"
