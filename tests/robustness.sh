#!/usr/bin/env bash
# Robustness of the command-line tool on hostile input.
#
# usage: robustness.sh WINNOW_BINARY
#
# Every case runs the real binary under a time limit and checks three
# things: no sanitizer report (ASan/UBSan/LSan exit with code 86 here and
# print "Sanitizer"/"runtime error"), the exit status that names the outcome
# (0 content, 1 failed, 2 usage, 3 no content, 4 skipped; see cli/cli.h), and a
# message on stderr that tells the user what happened. Inputs are made at
# run time in a temporary directory, so nothing large is committed.
set -u
winnow=${1:?usage: robustness.sh WINNOW_BINARY}
winnow_abs=$(cd "$(dirname "$winnow")" && pwd)/$(basename "$winnow")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-robust.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Sanitizers exit with a code no outcome of winnow uses.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0

# check NAME EXIT SECONDS STDERR_REGEX [STDOUT_REGEX] -- WINNOW_ARGS...
# An empty regex means "no requirement".
check() {
  local name=$1 want=$2 secs=$3 err_re=$4 out_re=$5
  shift 6
  local start=$SECONDS rc problems=()
  timeout "$secs" "$winnow" "$@" >"$tmp/out" 2>"$tmp/err" <"${stdin_file:-/dev/null}"
  rc=$?
  if [ "$rc" -eq 124 ]; then problems+=("did not finish within ${secs}s")
  elif grep -qE 'Sanitizer|runtime error:' "$tmp/err" || [ "$rc" -eq 86 ]; then problems+=("sanitizer report")
  elif [ "$rc" -ne "$want" ]; then problems+=("exit status $rc, expected $want")
  fi
  if [ -n "$err_re" ] && ! grep -qE -- "$err_re" "$tmp/err"; then problems+=("stderr lacks /$err_re/"); fi
  if [ -n "$out_re" ] && ! grep -qE -- "$out_re" "$tmp/out"; then problems+=("stdout lacks /$out_re/"); fi
  if [ ${#problems[@]} -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok   %-42s exit %d, %ds\n' "$name" "$rc" $((SECONDS - start))
  else
    failed=$((failed + 1))
    printf 'FAIL %-42s %s\n' "$name" "$(IFS=';'; echo "${problems[*]}")"
    sed -n '1,15p' "$tmp/err" | sed 's/^/     stderr: /'
  fi
}

# n copies of a string, without a newline (fast for large n)
rep() { yes "$1" | head -n "$2" | tr -d '\n'; }

page_head='<!DOCTYPE html><html><head><meta charset="utf-8"><title>Robustness</title></head><body>'
para='<p>The tide comes in twice a day, and the pools fill again with water, sand and small fish.</p>'
printf '%s<article>%s%s</article></body></html>' "$page_head" "$para" "$para" >"$tmp/good.html"

# --- the rule table from the command line: names checked, values numbers ----
check "unknown --rule name" 2 60 "no rule named 'NO_SUCH_RULE'" '' -- extract --rule NO_SUCH_RULE=1 "$tmp/good.html"
check "--rule value not a number" 2 60 'needs NAME=NUMBER' '' -- extract --rule SELECT_DECAY=x "$tmp/good.html"
check "--rule sets a rule" 0 60 '' 'tide comes in' -- extract --rule SELECT_DECAY=0.7 "$tmp/good.html"
check "rules lists the table" 0 60 '' '^FALLBACK_WEAK_SHARE' -- rules

# --- empty and binary input: exit 1 with the reason --------------------------
: >"$tmp/empty.html"
check "empty file" 1 60 'input is empty' '' -- extract "$tmp/empty.html"

{ printf '\211PNG\r\n\032\n'; head -c 4096 /dev/urandom; } >"$tmp/image.png"
check "PNG image" 1 60 'not HTML.*PNG' '' -- extract "$tmp/image.png"

# a gzip-compressed page (the aeb corpus ships its sources so) is undone,
# whatever its name; gzip holding something else still fails as it would
gzip -c "$tmp/good.html" >"$tmp/page.html.gz"
check "gzip-compressed page" 0 60 '' 'The tide comes in' -- extract "$tmp/page.html.gz"
cp "$tmp/page.html.gz" "$tmp/page-gz"
check "gzip-compressed page, no .gz name" 0 60 '' 'The tide comes in' -- extract "$tmp/page-gz"
gzip -c "$tmp/image.png" >"$tmp/image.png.gz"
check "gzip-compressed PNG" 1 60 'not HTML.*PNG' '' -- extract "$tmp/image.png.gz"

head -c 65536 "$winnow" >"$tmp/program.bin"
check "executable" 1 60 'not HTML' '' -- extract "$tmp/program.bin"

# control bytes with no magic number at all
head -c 8192 /dev/zero | tr '\000' '\001' >"$tmp/controls.bin"
check "control-byte garbage" 1 60 'not HTML' '' -- extract "$tmp/controls.bin"

# "\x00\x01" pairs look like UTF-16 by their NULs (issue 29) but read as
# U+0001 after U+0001: binary, in either byte order and behind a BOM
for i in $(seq 1000); do printf '\000\001'; done >"$tmp/pairs.bin"
check "NUL/0x01 pairs (UTF-16 shape)" 1 60 'not HTML.*control characters' '' -- extract "$tmp/pairs.bin"
{ printf '\376\377'; cat "$tmp/pairs.bin"; } >"$tmp/pairs-bom.bin"
check "NUL/0x01 pairs behind a UTF-16 BOM" 1 60 'not HTML.*control characters' '' -- extract "$tmp/pairs-bom.bin"

# --- damaged text: content with a warning, exit 0 ------------------------------
printf '%s<p>Before the NUL byte\000after it, the paragraph goes on with words.</p></body></html>' \
  "$page_head" >"$tmp/nul.html"
check "NUL byte mid-page" 0 60 'warning: 1 invalid byte sequence replaced' 'Before the NUL byte.*after it' \
  -- extract "$tmp/nul.html"

# declared UTF-8 with a few broken sequences (few enough, under 0.5% of the
# bytes, that the declaration still holds; more and the page is re-detected)
printf '%s<p>Bad bytes \377\376 and a cut sequence \342\202 and an overlong \300\257 in the text, with words.</p>%s</body></html>' \
  "$page_head" "$(rep "$para" 12)" >"$tmp/bad-utf8.html"
check "invalid UTF-8" 0 60 'warning: 6 invalid byte sequences replaced' $'Bad bytes \xEF\xBF\xBD' \
  -- extract "$tmp/bad-utf8.html"
# no declaration: read as whatever fits, never a failure
printf '<p>Bad bytes \377\376 and \342\202 and \300\257 with words.</p>' >"$tmp/bad-undeclared.html"
check "invalid UTF-8, undeclared" 0 60 '' 'Bad bytes' -- extract "$tmp/bad-undeclared.html"

{ printf '\377\376'; printf '%s<article>%s</article></body></html>' "$page_head" "$para" |
    iconv -f UTF-8 -t UTF-16LE; } >"$tmp/utf16le.html"
check "UTF-16LE with BOM" 0 60 '' 'The tide comes in twice a day' -- extract "$tmp/utf16le.html"

# cut mid-tag and mid-attribute value
printf '%s<article>%s<p>The last paragraph is cut in the middle of a t' "$page_head" "$para" >"$tmp/cut-text.html"
check "truncated mid-text" 0 60 '' 'The tide comes in' -- extract "$tmp/cut-text.html"
printf '%s<article>%s<p>Almost done.</p><di' "$page_head" "$para" >"$tmp/cut-tag.html"
check "truncated mid-tag" 0 60 '' 'The tide comes in' -- extract "$tmp/cut-tag.html"
printf '%s<article>%s<a href="https://example.org/a?b=' "$page_head" "$para" >"$tmp/cut-attr.html"
check "truncated mid-attribute" 0 60 '' 'The tide comes in' -- extract "$tmp/cut-attr.html"
printf '<!DOCTYPE html><html><he' >"$tmp/cut-head.html"
check "truncated in <head>" 3 60 'warning: ' '' -- extract "$tmp/cut-head.html"

# --- no content: exit 3 and the reason -----------------------------------------
printf '<html><head><title>Frames</title></head><frameset cols="50%%,50%%"><frame src="a.html"><frame src="b.html"></frameset></html>' \
  >"$tmp/frameset.html"
check "frameset only" 3 60 'warning: .*frameset' '' -- extract "$tmp/frameset.html"

printf '<html><body>   <div> </div>  </body></html>' >"$tmp/blank.html"
check "whitespace only" 3 60 'warning: .*no visible text' '' -- extract "$tmp/blank.html"

# --- extreme nesting: capped, so it takes well under a second even under ----
# --- ASan; the tight limit catches markup that slips past the cap ------------
nest() { # NAME UNIT
  { printf '<html><body>'; rep "$2" 100000; printf 'Deep text at the bottom, with words.</body></html>'; } >"$tmp/nest.html"
  check "100,000 x $1" 0 15 'nesting depth' 'Deep text at the bottom' -- extract "$tmp/nest.html"
}
nest '<div>' '<div>'
nest '<b><i>' '<b><i>'
nest '<ul><li>' '<ul><li>'
# "/>" does not close a div in HTML, and an end tag that closes nothing is
# ignored: both still nest 100,000 deep in the tree builder
nest '<div/>' '<div/>'
nest '<div></x>' '<div></x>'

# --- blocks of a deeply nested page: each block's text repeats its nested
# blocks', so the text is cut per block and the output stays linear: 500
# levels of 1,000 characters each would be 125 MB written whole
{
  printf '%s' "$page_head"
  for _ in $(seq 500); do printf '<div>%s' "$(rep 'Words of a level of a nested page. ' 28)"; done
  printf '</body></html>'
} >"$tmp/deepblocks.html"
check "blocks of 500 nested 1 kB levels" 0 120 '' '"text_truncated":true' -- blocks "$tmp/deepblocks.html"
bsize=$(wc -c <"$tmp/out")
if [ "$bsize" -gt 0 ] && [ "$bsize" -le 4000000 ]; then passed=$((passed + 1)); echo "ok   blocks output of the nested page is $bsize bytes"
else failed=$((failed + 1)); echo "FAIL blocks output of the nested page is $bsize bytes, expected 1 to 4,000,000"; fi

# --- a 50 MB page ----------------------------------------------------------------
{
  printf '%s<nav><a href="/">Home</a> <a href="/about">About</a></nav><article>' "$page_head"
  rep "$para" 9 >"$tmp/chunk" # 9 x 97 bytes, doubled 16 times: 57 MB
  for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do cat "$tmp/chunk" "$tmp/chunk" >"$tmp/chunk2"; mv "$tmp/chunk2" "$tmp/chunk"; done
  cat "$tmp/chunk"
  printf '</article></body></html>'
} >"$tmp/big.html"
rm -f "$tmp/chunk"
size=$(wc -c <"$tmp/big.html")
[ "$size" -ge 50000000 ] || { echo "FAIL generated page is only $size bytes"; failed=$((failed + 1)); }
check "50 MB page" 0 120 '' '' -- extract -o "$tmp/big.txt" "$tmp/big.html"
lines=$(wc -l <"$tmp/big.txt" 2>/dev/null || echo 0)
if [ "$lines" -ge 500000 ]; then passed=$((passed + 1)); echo "ok   50 MB page text has $lines lines"
else failed=$((failed + 1)); echo "FAIL 50 MB page text has $lines lines, expected >= 500000"; fi
# a page over the limit is skipped with a warning: exit 4, not a failure
check "50 MB page over --max-bytes" 4 60 'warning: .*over the .*limit; skipped' '' -- extract --max-bytes 1000000 "$tmp/big.html"
rm -f "$tmp/big.html" "$tmp/big.txt"

# --- command line contract -----------------------------------------------------
check "missing file" 1 60 'cannot open' '' -- extract "$tmp/no-such-file.html"
check "unknown option" 2 60 "option '--frobnicate'" '' -- extract --frobnicate "$tmp/good.html"
check "unknown format" 2 60 'unknown format' '' -- extract -f pdf "$tmp/good.html"
check "no input" 2 60 'no input' '' -- extract
check "unknown command" 2 60 'unknown command' '' -- frobnicate
check "version" 0 60 '' '^winnow [0-9]+\.[0-9]+\.[0-9]+' -- version
stdin_file="$tmp/good.html" check "stdin" 0 60 '' 'The tide comes in' -- extract -
# a directory with good, empty and frameset pages: the failure wins (exit 1),
# and the good pages are still written
mkdir -p "$tmp/site"
cp "$tmp/good.html" "$tmp/site/a.html"
cp "$tmp/empty.html" "$tmp/site/b.html"
cp "$tmp/frameset.html" "$tmp/site/c.htm"
check "directory, 2 jobs" 1 60 'b\.html: input is empty' '' -- extract -j 2 -o "$tmp/site-out" "$tmp/site"
if [ -s "$tmp/site-out/a.txt" ] && [ -f "$tmp/site-out/c.txt" ] && [ ! -e "$tmp/site-out/b.txt" ]; then
  passed=$((passed + 1)); echo "ok   directory output files"
else
  failed=$((failed + 1)); echo "FAIL directory output files: $(ls "$tmp/site-out" 2>&1 | tr '\n' ' ')"
fi
rm -f "$tmp/site/b.html"
check "directory, no failure, one no-content" 3 60 'c\.htm: warning' '' -- extract -o "$tmp/site-out2" "$tmp/site"
check "blocks command" 0 60 '' '^\{"i":0,' -- blocks "$tmp/good.html"

# --- command line conventions (getopt_long) -----------------------------------
check "--format=json" 0 60 '' '"text":' -- extract --format=json "$tmp/good.html"
check "-fjson" 0 60 '' '"text":' -- extract -fjson "$tmp/good.html"
check "-qfmarkdown grouped" 0 60 '' 'tide comes in' -- extract -qfmarkdown "$tmp/good.html"
check "options after the input" 0 60 '' '"text":' -- extract "$tmp/good.html" -f json
cp "$tmp/good.html" "$tmp/-dash.html"
check "-- ends the options" 0 60 '' 'tide comes in' -- extract -- "$tmp/-dash.html"
(cd "$tmp" && "$winnow_abs" extract -- -dash.html >"$tmp/dash.out" 2>&1)
if grep -q 'tide comes in' "$tmp/dash.out"; then passed=$((passed + 1)); echo "ok   -- then a relative name starting with '-'"
else failed=$((failed + 1)); echo "FAIL -- then -dash.html: $(head -2 "$tmp/dash.out")"; fi
check "--max-bytes -5" 2 60 "max-bytes needs a whole number.*'-5'" '' -- extract --max-bytes -5 "$tmp/good.html"
check "--max-bytes=-5" 2 60 "max-bytes needs a whole number" '' -- extract --max-bytes=-5 "$tmp/good.html"
check "--max-bytes 10x" 2 60 "max-bytes needs a whole number" '' -- extract --max-bytes 10x "$tmp/good.html"
check "--max-bytes ''" 2 60 "max-bytes needs a whole number" '' -- extract --max-bytes '' "$tmp/good.html"
check "--jobs 3x" 2 60 "jobs needs a whole number from 1 to 256" '' -- extract -j 3x "$tmp/good.html"
check "--jobs 0" 2 60 "jobs needs a whole number from 1 to 256" '' -- extract -j0 "$tmp/good.html"
check "--half-life -1" 2 60 "half-life needs a positive number" '' -- learn --half-life -1 --batch "$tmp/good.html"
check "--half-life nan" 2 60 "half-life needs a positive number" '' -- learn --half-life nan --batch "$tmp/good.html"
check "train --rounds -3" 2 60 "rounds needs a whole number" '' -- train "$tmp/good.html" --rounds -3 -o "$tmp/m"
check "empty --output" 2 60 "output needs a path" '' -- extract "$tmp/good.html" -o ''
check "option without its value" 2 60 "option '--output' needs a value" '' -- extract "$tmp/good.html" --output
check "flag given a value" 2 60 "option '--quiet' takes no value" '' -- extract --quiet=1 "$tmp/good.html"
check "ambiguous abbreviation" 2 60 "option '--no' is ambiguous" '' -- extract --no "$tmp/good.html"
check "unique abbreviation" 0 60 '' '"text":' -- extract --form json "$tmp/good.html"
check "another command's option" 2 60 "sites does not take option '--output'" '' -- sites --db "$tmp/x.db" --output x
check "-V" 0 60 '' '^winnow [0-9]+\.[0-9]+\.[0-9]+$' -- -V
check "--version" 0 60 '' '^winnow [0-9]+\.[0-9]+\.[0-9]+$' -- --version
check "extract --version" 0 60 '' '^winnow [0-9]+\.[0-9]+\.[0-9]+$' -- extract --version
check "--mode site without --db" 2 60 'mode site needs --db' '' -- extract --mode site "$tmp/good.html"

# --- help: every command, to stdout, exit 0 ----------------------------------
check "help lists the commands" 0 60 '' '^  extract INPUT' -- help
for cmd in extract blocks segments learn sites site train rules help version; do
  check "$cmd --help" 0 60 '' "^usage: winnow $cmd" -- "$cmd" --help
  "$winnow" help "$cmd" >"$tmp/help.a" 2>&1
  "$winnow" "$cmd" -h >"$tmp/help.b" 2>&1
  if [ -s "$tmp/help.a" ] && cmp -s "$tmp/help.a" "$tmp/help.b"; then passed=$((passed + 1)); echo "ok   winnow help $cmd = $cmd -h"
  else failed=$((failed + 1)); echo "FAIL winnow help $cmd differs from $cmd -h"; fi
done
check "help of an unknown command" 2 60 "unknown command 'frob'" '' -- help frob
# the exit statuses of the usage text are those of docs/cli.md's table
# (which must be there: the table moved out of the README once)
clidoc=$(dirname "$0")/../docs/cli.md
"$winnow" help >"$tmp/help.top"
for k in 0 1 2 3 4 5; do
  if grep -qE "^  $k  " "$tmp/help.top" && grep -qE "^\| \`$k\` \|" "$clidoc"; then passed=$((passed + 1)); echo "ok   exit status $k in the usage text and docs/cli.md"
  else failed=$((failed + 1)); echo "FAIL exit status $k is not in both the usage text and docs/cli.md's table"; fi
done

# --- outputs that cannot be written: one error, and the run stops ------------
mkdir -p "$tmp/three"
for k in 1 2 3; do cp "$tmp/good.html" "$tmp/three/p$k.html"; done
check "an output file that cannot be written" 1 60 'cannot write /dev/full: No space left' '' -- extract "$tmp/good.html" -o /dev/full
"$winnow" extract "$tmp/three" >/dev/full 2>"$tmp/full.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c '^winnow' "$tmp/full.err")" -eq 1 ] && grep -q 'stopped' "$tmp/full.err"; then
  passed=$((passed + 1)); echo "ok   stdout to /dev/full: one error, exit 1"
else
  failed=$((failed + 1)); echo "FAIL stdout to /dev/full: exit $rc, $(grep -c '^winnow' "$tmp/full.err") messages"; sed 's/^/     stderr: /' "$tmp/full.err" | head -5
fi
: >"$tmp/plainfile"
"$winnow" extract "$tmp/three" -o "$tmp/plainfile/out" >/dev/null 2>"$tmp/nodir.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/nodir.err")" -eq 1 ]; then passed=$((passed + 1)); echo "ok   output folder under a file: one error"
else failed=$((failed + 1)); echo "FAIL output folder under a file: exit $rc, $(wc -l <"$tmp/nodir.err") lines"; fi
# a folder that fills up after the first pages (a 64 KiB tmpfs in a private
# mount namespace, where unshare is allowed): one error for the page, no more
# pages read; the manifest, written as the run goes, lists the pages written
# and the one that failed with its error, or an error says it could not be
# written
if unshare -rm true 2>/dev/null; then
  mkdir -p "$tmp/many" "$tmp/small"
  for k in $(seq 1 40); do cp "$tmp/good.html" "$tmp/many/p$k.html"; done
  unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && "$2" extract "$3" -o "$1/out" &&:; r=$?; cp "$1/out/manifest.tsv" "$4" 2>/dev/null; ls "$1/out" >"$4.ls"; exit $r' sh \
    "$tmp/small" "$winnow" "$tmp/many" "$tmp/nospc.manifest" >/dev/null 2>"$tmp/nospc.err"
  rc=$?
  manifest_ok=0
  if grep -q 'manifest.tsv: No space left.*no manifest' "$tmp/nospc.err"; then manifest_ok=1
  elif [ -s "$tmp/nospc.manifest" ] && tail -1 "$tmp/nospc.manifest" | grep -q 'WINNOW_E_IO.*No space left' &&
    [ "$(tail -n +2 "$tmp/nospc.manifest" | awk -F'\t' '$1 != ""' | cut -f1 | sort)" = "$(grep -v '^manifest.tsv$' "$tmp/nospc.manifest.ls" | sort)" ]; then
    manifest_ok=1
  fi
  if [ "$rc" -eq 1 ] && [ "$(grep -c '^winnow' "$tmp/nospc.err")" -le 2 ] && grep -q 'No space left.*stopped' "$tmp/nospc.err" &&
    [ $manifest_ok -eq 1 ]; then
    passed=$((passed + 1)); echo "ok   a full output folder: one error, the manifest true to the files (or said missing), exit 1"
  else
    failed=$((failed + 1)); echo "FAIL a full output folder: exit $rc"; sed 's/^/     stderr: /' "$tmp/nospc.err" | head -5
  fi
else
  echo "note unshare -rm is not allowed here: the full-folder case is not run"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
