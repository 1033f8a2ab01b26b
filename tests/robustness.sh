#!/usr/bin/env bash
# Robustness of the command-line tool on hostile input.
#
# usage: robustness.sh WINNOW_BINARY
#
# Every case runs the real binary under a time limit and checks three
# things: no sanitizer report (ASan/UBSan/LSan exit with code 86 here and
# print "Sanitizer"/"runtime error"), the exit status that names the outcome
# (0 content, 1 failed, 2 usage, 3 no content; see cli/winnow.c), and a
# message on stderr that tells the user what happened. Inputs are made at
# run time in a temporary directory, so nothing large is committed.
set -u
winnow=${1:?usage: robustness.sh WINNOW_BINARY}
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
check "50 MB page over --max-bytes" 1 60 'over the .*limit' '' -- extract --max-bytes 1000000 "$tmp/big.html"
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
