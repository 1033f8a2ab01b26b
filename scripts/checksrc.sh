#!/usr/bin/env bash
# The style check: every C file of the tree formatted as .clang-format says
# (clang-format from Debian's clang-format package). `make check` runs it;
# `scripts/checksrc.sh --fix` rewrites the files in place.
#
# usage: scripts/checksrc.sh [--fix] [ROOT]
# Exit status: 0 when every file is formatted, 1 when some file is not (each
# named with its first differing lines), 2 when clang-format is missing.
set -uo pipefail
fix=0
if [ "${1:-}" = --fix ]; then fix=1; shift; fi
# --self-test: the check must fail on a misformatted file and pass on the
# same file formatted (a check that cannot fail checks nothing)
if [ "${1:-}" = --self-test ]; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/src" && cp "$here/.clang-format" "$t/"
  printf 'int f(int x){if(x)  return 1;\n  return 0;}\n' > "$t/src/a.c"
  if "$0" "$t" >/dev/null; then echo "checksrc: self-test: a misformatted file passed" >&2; exit 1; fi
  "$0" --fix "$t" && "$0" "$t" >/dev/null || { echo "checksrc: self-test: a formatted file failed" >&2; exit 1; }
  echo "checksrc: self-test passed"
  exit 0
fi
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null || { echo "checksrc: $cf not found (Debian package clang-format)" >&2; exit 2; }
cd "$root" || exit 2
[ -f .clang-format ] || { echo "checksrc: no .clang-format in $root" >&2; exit 2; }
mapfile -t files < <(for d in src cli include tests fuzz bench; do [ -d "$d" ] && find "$d" -name '*.[ch]' -not -path '*/data/*'; done | LC_ALL=C sort)
if [ $fix -eq 1 ]; then
  "$cf" -i --style=file "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! out=$("$cf" --style=file "$f" | diff -u "$f" - 2>&1); then
    echo "checksrc: $f is not formatted as .clang-format says; scripts/checksrc.sh --fix rewrites it:"
    echo "$out" | sed -n '3,12p'
    bad=$((bad + 1))
  fi
done
if [ $bad -gt 0 ]; then
  echo "checksrc: $bad of ${#files[@]} files not formatted"
  exit 1
fi
echo "checksrc: ${#files[@]} files formatted"
