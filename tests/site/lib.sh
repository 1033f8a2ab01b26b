# Shared pieces of the site-model shell tests (sourced, not run).
#
# The sourcing script sets `winnow` (the binary under test) first. This
# file makes a temporary directory ($tmp) that is removed on exit, together
# with every background process a test registered with `track PID` and has
# not waited for yet (`untrack PID` after the wait), sets
# the sanitizers up to exit with a code winnow never uses (86), and offers:
#
#   gen ARGS...            gen_site.py (see there): a generated site
#   run NAME WANT ARGS...  run winnow ARGS, stdout in $tmp/out, stderr in
#                          $tmp/err; passes when the exit status is WANT
#                          ("nz" = any non-zero) and no sanitizer spoke
#   ok / bad MESSAGE       count a passed / failed check
#   db_state DB            what `winnow sites` and `winnow site NAME` say of
#                          a database, minus the timestamp of the last learn
#   integrity DB           PRAGMA integrity_check through python3's sqlite3
#   finish                 prints "N passed, M failed" and exits with 0 or 1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-site.XXXXXX")
tracked=()
track() { tracked+=("$1"); }
# untrack PID: once waited for (its id may be reused from then on)
untrack() {
  local p kept=()
  for p in "${tracked[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
  tracked=("${kept[@]}")
}
cleanup() {
  local p
  for p in "${tracked[@]}"; do
    kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0
ok() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
bad() {
  failed=$((failed + 1))
  printf 'FAIL %s\n' "$1"
  shift
  local f
  for f in "$@"; do [ -s "$f" ] && sed -n '1,20p' "$f" | sed "s|^|     $(basename "$f"): |"; done
  return 0
}

gen() { python3 "$here/gen_site.py" "$@"; }

sanitizer_spoke() { [ "$1" -eq 86 ] || grep -qE 'Sanitizer|runtime error:|LeakSanitizer' "$2"; }

# run NAME WANT ARGS...: result in $rc, $tmp/out, $tmp/err
run() {
  local name=$1 want=$2
  shift 2
  "$winnow" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if sanitizer_spoke "$rc" "$tmp/err"; then bad "$name: sanitizer report (exit $rc)" "$tmp/err"; return 1; fi
  if [ "$want" = nz ]; then
    [ "$rc" -ne 0 ] && return 0
  elif [ "$rc" -eq "$want" ]; then
    return 0
  fi
  bad "$name: exit status $rc, expected $want" "$tmp/err"
  return 1
}

# Seconds since the epoch with milliseconds, as an integer of milliseconds.
now_ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }

db_state() {
  local db=$1 name
  "$winnow" sites --db "$db" 2>&1 | awk '{ $NF = ""; print }' || return 1
  for name in $("$winnow" sites --db "$db" 2>/dev/null | awk 'NR > 1 { print $1 }'); do
    echo "== $name"
    "$winnow" site "$name" --db "$db" 2>&1 | LC_ALL=C sort
  done
}

integrity() {
  python3 - "$1" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
rows = con.execute("PRAGMA integrity_check").fetchall()
con.close()
print(" ".join(str(r[0]) for r in rows))
sys.exit(0 if rows == [("ok",)] else 1)
EOF
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}
