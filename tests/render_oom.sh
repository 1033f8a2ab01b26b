#!/usr/bin/env bash
# A page whose rendering runs out of memory is reported by the winnow tool:
# a build of it whose allocations can be made to fail (failalloc/) extracts
# one page to stdout and to a file, in each format (json also with --body
# markdown,html), with each allocation
# made from the rendering on failing in turn.
# Every run either succeeds with exactly the output of a run without
# failures, or exits non-zero with "out of memory" on stderr; at least one
# run per format is the latter. No run may succeed with other output, and
# a failed run to -o FILE leaves neither FILE nor a temporary file behind.
#
# usage: render_oom.sh WINNOW_FAILALLOC SOURCE_DIR
set -uo pipefail
winnow=${1:?usage: render_oom.sh WINNOW_FAILALLOC SOURCE_DIR}
page=${2:?}/tests/data/pages/synthetic-data-table.html
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
# "json+LIST": -f json --body LIST
for fmt in text markdown html json json+markdown,html; do
  for dest in stdout file; do
    args=(extract -q -f "${fmt%%+*}" "$page")
    [[ $fmt == *+* ]] && args+=(--body "${fmt#*+}")
    [[ $dest == file ]] && args+=(-o "$tmp/out")
    rm -f "$tmp/out"
    "$winnow" "${args[@]}" >"$tmp/ref.stdout" 2>"$tmp/ref.err" || { echo "FAIL $fmt $dest: reference run failed"; failed=$((failed + 1)); continue; }
    [[ $dest == file ]] && cp "$tmp/out" "$tmp/ref.stdout"
    total=$(WINNOW_FAIL_ALLOC=count "$winnow" "${args[@]}" 2>&1 >/dev/null | sed -n 's/^allocations: //p' | tail -1)
    if [[ -z $total ]]; then echo "FAIL $fmt $dest: no allocation count"; failed=$((failed + 1)); continue; fi
    reported=0
    bad=0
    for ((k = 1; k <= total; k++)); do
      rm -f "$tmp/out"
      WINNOW_FAIL_ALLOC=$k "$winnow" "${args[@]}" >"$tmp/got.stdout" 2>"$tmp/got.err"
      rc=$?
      [[ $dest == file && -f $tmp/out ]] && cp "$tmp/out" "$tmp/got.stdout"
      if grep -q 'ERROR: AddressSanitizer\|runtime error:' "$tmp/got.err"; then
        echo "FAIL $fmt $dest: allocation $k of $total: sanitizer report"; sed 's/^/     /' "$tmp/got.err" | head -5; bad=1
      elif [[ $rc -eq 0 ]]; then
        if ! cmp -s "$tmp/ref.stdout" "$tmp/got.stdout"; then
          echo "FAIL $fmt $dest: allocation $k of $total failed, exit 0 with other output"; bad=1
        fi
      elif [[ $dest == file && -e $tmp/out ]]; then
        echo "FAIL $fmt $dest: allocation $k of $total failed, exit $rc, and left a half-written $tmp/out"; bad=1
      elif compgen -G "$tmp/.out.*.tmp" >/dev/null; then
        echo "FAIL $fmt $dest: allocation $k of $total failed and left a temporary file"; bad=1
      elif grep -q 'out of memory' "$tmp/got.err"; then
        reported=$((reported + 1))
      else
        echo "FAIL $fmt $dest: allocation $k of $total: exit $rc without 'out of memory':"; sed 's/^/     /' "$tmp/got.err" | head -3; bad=1
      fi
    done
    if [[ $bad -eq 0 && $reported -gt 0 ]]; then
      passed=$((passed + 1)); echo "ok   $fmt to $dest: $reported of $total allocations reported as out of memory"
    else
      failed=$((failed + 1)); [[ $reported -gt 0 ]] || echo "FAIL $fmt $dest: no failure reported as out of memory"
    fi
  done
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
