#!/usr/bin/env bash
# man/winnow.1 against the tool: every command and option that 'winnow help',
# 'winnow help COMMAND' for each command and 'winnow train --help' list is
# documented, the version matches, and the page renders without warnings
# (groff, and man -l when man-db is there).
#
#   man_page.sh MAN_PAGE WINNOW
set -uo pipefail
page=$1 winnow=$2
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

[ -f "$page" ] || { bad "$page does not exist"; echo "$passed passed, $failed failed"; exit 1; }
# the page's source with roff's escaped hyphens as plain ones
text=$(sed 's/\\-/-/g' "$page")

help=$("$winnow" help)
train_help=$("$winnow" train --help)

# commands: the words that start the lines of "commands:" in the usage
commands=$(awk '/^commands:/ {on = 1; next} on && /^$/ {exit} on && /^  [a-z]/ {print}' <<<"$help" |
           sed 's/^ *//; s/ .*//; s/,$//')
commands="$commands help"
for c in $commands; do
  # a paragraph tag in COMMANDS: .B/.BI/.BR/.TP line starting with the command
  if grep -Eq "^\.(B|BI|BR) \"?$c\b" <<<"$text"; then ok; else bad "command '$c' is not documented in $page"; fi
done

# options: every --long and -x option in the usage texts: the top-level one
# and each command's ('winnow help CMD')
all_help=$(echo "$help"; echo "$train_help"; for c in $commands; do "$winnow" help "$c"; done)
for c in $commands; do
  if "$winnow" help "$c" >/dev/null 2>&1; then ok; else bad "'winnow help $c' fails"; fi
done
options=$(echo "$all_help" | grep -oE '(^|[ ,(])--?[a-z][a-z0-9-]*' | sed 's/^[ ,(]//' | sort -u)
[ -n "$options" ] || bad "no options read from the usage texts"
for o in $options; do
  # as a bold word: .B, .BI, .BR arguments or \fB...\fR
  if grep -Eq "^\.(B|BI|BR) (.* )?\"?$o([^a-z0-9-]|\$)|\\\\fB$o([^a-z0-9-]|\$)" <<<"$text"; then ok
  else bad "option '$o' (in the usage) is not documented in $page"; fi
done

# the version in the title line is the tool's
version=$("$winnow" --version | awk '{print $2}')
if grep -Eq "^\.TH WINNOW 1 .*\"winnow $version\"" "$page"; then ok
else bad "the .TH line does not name winnow $version: $(grep '^\.TH' "$page")"; fi

# rendering: groff with all warnings, then man-db's man if present
if command -v groff >/dev/null; then
  warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
  if [ -z "$warnings" ]; then ok; else bad "groff warns: $(head -5 <<<"$warnings")"; fi
  if command -v man >/dev/null && man --help 2>&1 | grep -q -- '--warnings'; then
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    if [ -z "$warnings" ]; then ok; else bad "man -l warns: $(head -5 <<<"$warnings")"; fi
  else
    echo "SKIP: man (man-db) not found; rendered with groff only"
  fi
else
  echo "SKIP: groff not found (Debian groff-base, installed by scripts/install-deps.sh): the page is not rendered"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
