#!/usr/bin/env bash
# Regression check on unlabelled pages: run two winnow binaries over WARC files
# and compare their text page by page (bench/corpus_diff.py does the comparing).
#
# usage: bench/corpus_diff.sh OLD_WINNOW NEW_WINNOW [WARC...]
#   default WARCs: ../shared/corpus/sites/*.warc.gz (relative to the repo root)
# env:
#   FLAGS      extra `extract` flags for both binaries (e.g. --no-model)
#   OLD_FLAGS, NEW_FLAGS   extra flags for one side only (after FLAGS)
#   OUT        work directory (default /tmp/corpus-diff); outputs in OUT/runs
#   TSV        per-page table (default OUT/pages.tsv)
#   JOBS       winnow processes at a time, both binaries together (default 2)
#   TOP        rows in the losers/gainers/swapped tables (default 25)
#   TIMEOUT    seconds one binary may spend on one WARC (default 900)
#
# Each binary gets its own output directory per WARC (OUT/runs/old/NNN-SITE,
# OUT/runs/new/NNN-SITE): record ids restart in every WARC and container names
# can collide, so two WARCs never share a directory.
#
# Exit status: 0 whatever the differences; 1 when a binary is missing, crashes,
# hangs, rejects its flags or prints a sanitizer report; 2 on usage errors.
set -uo pipefail

usage() {
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
die() { echo "corpus_diff: $*" >&2; exit "${2:-2}"; }

[ $# -ge 2 ] || usage
case $1 in -h|--help) usage ;; esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-/tmp/corpus-diff}
tsv=${TSV:-$out/pages.tsv}
jobs=${JOBS:-2}
top=${TOP:-25}
timeout_s=${TIMEOUT:-900}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "JOBS must be a positive integer"
[[ $top =~ ^[0-9]+$ ]] || die "TOP must be a number"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "TIMEOUT must be a positive number of seconds"

resolve_bin() {
  local b=$1 p
  if [[ $b == */* ]]; then p=$b; else p=$(command -v -- "$b" 2>/dev/null) || p=; fi
  if [ -z "$p" ] || [ ! -f "$p" ] || [ ! -x "$p" ]; then
    echo "corpus_diff: binary not found or not executable: $b" >&2
    exit 1
  fi
  realpath -- "$p"
}
old_bin=$(resolve_bin "$1") || exit 1
new_bin=$(resolve_bin "$2") || exit 1
shift 2

warcs=("$@")
if [ ${#warcs[@]} -eq 0 ]; then
  shopt -s nullglob
  warcs=("$repo"/../shared/corpus/sites/*.warc.gz)
  shopt -u nullglob
  [ ${#warcs[@]} -gt 0 ] || die "no WARC files in $repo/../shared/corpus/sites"
fi
for w in "${warcs[@]}"; do
  if [ ! -f "$w" ] || [ ! -r "$w" ]; then die "cannot read $w"; fi
done

command -v python3 >/dev/null || die "python3 is needed" 1
command -v timeout >/dev/null || die "timeout (coreutils) is needed" 1

# Never wipe a directory this script did not create.
runs=$out/runs
if [ -e "$runs" ] && [ ! -e "$runs/.corpus-diff" ]; then
  die "$runs exists and was not made by corpus_diff.sh; set OUT to another directory"
fi
rm -rf -- "$runs"
mkdir -p -- "$runs/old" "$runs/new" || die "cannot create $runs" 1
: >"$runs/.corpus-diff"

# Manifest: TAG<TAB>SITE<TAB>WARC. TAG (NNN-SITE) names the output directories;
# SITE is the WARC's name without .warc.gz, made unique if two WARCs share it.
manifest=$runs/manifest.tsv
: >"$manifest"
declare -A seen=()
i=0
for w in "${warcs[@]}"; do
  i=$((i + 1))
  site=$(basename -- "$w"); site=${site%.gz}; site=${site%.warc}
  site=${site//[$'\t\n']/_}
  if [ -n "${seen[$site]:-}" ]; then site="$site#$i"; fi
  seen[$site]=1
  tag=$(printf '%03d-%s' "$i" "${site//\//_}")
  printf '%s\t%s\t%s\n' "$tag" "$site" "$(realpath -- "$w")" >>"$manifest"
done

# Run copies, so a rebuild of build/winnow during the run cannot mix two
# binaries into one side (the CLI links libwinnow statically). A binary that
# does not run from elsewhere (a shared libwinnow found by a relative rpath)
# is run in place.
snapshot() {
  local src=$1 dst=$runs/bin/$2
  mkdir -p -- "$runs/bin"
  if cp -- "$src" "$dst" 2>/dev/null && chmod +x -- "$dst" && "$dst" version >/dev/null 2>&1; then
    echo "$dst"
  else
    echo "corpus_diff: note: running $src in place (its copy does not run)" >&2
    echo "$src"
  fi
}
old_run=$(snapshot "$old_bin" old-winnow)
new_run=$(snapshot "$new_bin" new-winnow)
fingerprint() { sha256sum -- "$1" | cut -c1-16; }
old_sum=$(fingerprint "$old_run"); new_sum=$(fingerprint "$new_run")
echo "old: $old_bin (sha256 $old_sum) flags: ${FLAGS:-} ${OLD_FLAGS:-}"
echo "new: $new_bin (sha256 $new_sum) flags: ${FLAGS:-} ${NEW_FLAGS:-}"
echo "${#warcs[@]} WARC(s), $jobs job(s), outputs in $runs"

# One job: one binary over one WARC, single-threaded, into its own directory.
# Writes DIR.rc, DIR.err and DIR.secs next to the output directory.
# shellcheck disable=SC2317  # called through xargs
run_one() {
  local side=$1 bin=$2 tag=$3 warc=$4 flags=() more=() t0 rc
  read -r -a flags <<<"${FLAGS:-}"
  if [ "$side" = old ]; then read -r -a more <<<"${OLD_FLAGS:-}"; else read -r -a more <<<"${NEW_FLAGS:-}"; fi
  flags+=("${more[@]}")
  local dir=$RUNS/$side/$tag
  mkdir -p -- "$dir"
  t0=$EPOCHREALTIME
  timeout -k 10 "$TIMEOUT_S" "$bin" extract -q -f json "${flags[@]}" -o "$dir" "$warc" \
    >"$dir.out" 2>"$dir.err" </dev/null
  rc=$?
  echo "$rc" >"$dir.rc"
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f\n", b - a }' >"$dir.secs"
}
export -f run_one
export RUNS=$runs TIMEOUT_S=$timeout_s

# Largest WARCs first so the two job slots end together; old and new alternate.
t_start=$EPOCHREALTIME
while IFS=$'\t' read -r tag site w; do
  printf '%s\t%s\t%s\n' "$(stat -c %s -- "$w")" "$tag" "$w"
done <"$manifest" | sort -t$'\t' -k1,1nr |
  while IFS=$'\t' read -r _ tag w; do
    printf 'old\0%s\0%s\0%s\0new\0%s\0%s\0%s\0' "$old_run" "$tag" "$w" "$new_run" "$tag" "$w"
  done | xargs -0 -n 4 -P "$jobs" bash -c 'run_one "$@"' _
t_run=$(awk -v a="$t_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

for side in old new; do
  [ $side = old ] && b=$old_bin r=$old_run sum=$old_sum || b=$new_bin r=$new_run sum=$new_sum
  if [ "$(fingerprint "$b")" != "$sum" ]; then
    if [ "$r" != "$b" ]; then
      echo "corpus_diff: note: $b was rebuilt during the run; the $side side used its copy from the start ($sum)" >&2
    else
      echo "corpus_diff: WARNING: $b changed during the run; the $side side mixes two builds" >&2
    fi
  fi
done

# Crashes, hangs and sanitizer reports. Status 1 (a page failed) and 3 (a page
# without visible text) are ordinary; anything else is not.
# glibc's heap and stack checks abort (exit 134), so the exit status finds them.
sanitizer='AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer|MemorySanitizer|runtime error:'
problems=()
declare -A secs=([old]=0 [new]=0) fails=([old]=0 [new]=0)
while IFS=$'\t' read -r tag site w; do
  for side in old new; do
    d=$runs/$side/$tag
    [ "$side" = old ] && other=new || other=old
    rc=$(cat "$d.rc" 2>/dev/null || echo missing)
    secs[$side]=$(awk -v a="${secs[$side]}" -v b="$(cat "$d.secs" 2>/dev/null)" 'BEGIN { printf "%.1f", a + b }')
    [ "$rc" = 1 ] && fails[$side]=$((fails[$side] + 1))
    why=
    case $rc in
      0|1|3) ;;
      missing) why="did not run" ;;
      2) why="usage error (exit 2): the binary rejected its arguments" ;;
      124) why="timed out after ${timeout_s}s (exit 124)" ;;
      137) why="killed by SIGKILL (exit 137: timed out and did not stop, or out of memory)" ;;
      *) if [ "$rc" -gt 128 ] 2>/dev/null; then
           why="killed by SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))) (exit $rc)"
         else
           why="exit $rc"
         fi ;;
    esac
    if grep -qE "$sanitizer" "$d.err" 2>/dev/null; then
      why="${why:+$why; }sanitizer report on stderr"
    fi
    if [ -n "$why" ]; then
      # With one thread pages are written in record order: the culprit is
      # likely the first record after the last one written.
      last=$(find "$d" -maxdepth 1 -name '*.json' -printf '%f\n' 2>/dev/null | sort | tail -1)
      last=${last%.json}
      next=$(find "$runs/$other/$tag" -maxdepth 1 -name '*.json' -printf '%f\n' 2>/dev/null |
             sed 's/\.json$//' | sort | awk -v m="$last" '$0 > m' | head -1)
      problems+=("$side binary on $site ($w): $why; last page written: ${last:-none}; first page missing after it: ${next:-none}; stderr: $d.err")
    fi
  done
done <"$manifest"

echo "run: ${t_run}s wall; per binary (sum of job times): old ${secs[old]}s, new ${secs[new]}s"
[ "${fails[old]}${fails[new]}" = 00 ] ||
  echo "WARCs with failed pages (exit 1): old ${fails[old]}, new ${fails[new]} (see $runs/*/*.err)"
if [ ${#problems[@]} -gt 0 ]; then
  echo "!!! ${#problems[@]} crash/hang/sanitizer report(s); details at the end" >&2
fi
echo

python3 "$repo/bench/corpus_diff.py" --runs "$runs" --manifest "$manifest" --tsv "$tsv" \
  --top "$top" --jobs "$jobs"
py_rc=$?

echo
echo "per-page table: $tsv"
echo "outputs: $runs/{old,new}/NNN-SITE/*.json"

status=0
[ $py_rc -eq 0 ] || { echo "corpus_diff: the comparison failed (corpus_diff.py exit $py_rc)" >&2; status=1; }
if [ ${#problems[@]} -gt 0 ]; then
  {
    echo
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    echo "!!! CRASH / HANG / SANITIZER REPORT: ${#problems[@]} run(s)"
    for p in "${problems[@]}"; do
      echo "!!! $p"
      err=${p##*stderr: }
      if grep -qE "$sanitizer" "$err" 2>/dev/null; then
        grep -m 5 -E "$sanitizer|ERROR|SUMMARY" "$err" | sed 's/^/!!!     /'
      else
        tail -n 3 "$err" 2>/dev/null | sed 's/^/!!!     /'
      fi
    done
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  } >&2
  status=1
fi
exit $status
