#!/usr/bin/env bash
# The set-up scripts: building never installs system packages, and
# scripts/install-deps.sh installs as root without sudo, through sudo
# otherwise, and says what to do when neither is possible.
#
#   setup_scripts.sh SOURCE_DIR
#
# install-deps.sh runs against stand-ins for dpkg-query, id, apt-get and sudo
# on a PATH of their own, so nothing is installed and no real sudo is asked.
set -uo pipefail
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# ---- make: only `make deps` runs install-deps.sh or apt-get ----
if command -v make >/dev/null; then
  for target in all samples check install; do
    out=$(make -n -C "$src" "$target" BUILD="$tmp/b" CHECK_BUILD="$tmp/c" 2>&1)
    if grep -Eq 'install-deps|apt-get' <<<"$out"; then
      bad "make $target would install packages: $(grep -E 'install-deps|apt-get' <<<"$out" | head -1)"
    else
      ok
    fi
  done
  # read make's whole output first: grep -q stopping early would make the
  # pipeline fail under pipefail when make is still writing
  out=$(make -n -C "$src" deps 2>&1)
  if grep -q 'install-deps.sh' <<<"$out"; then ok; else bad "make deps does not run install-deps.sh"; fi
else
  echo "SKIP: make not found, the Makefile is not checked"
fi

# ---- install-deps.sh with stand-in tools ----
# world ROOT MISSING HAS_SUDO: a bin folder with the basic tools, id -u
# answering 0 (root) or 1000, dpkg-query reporting every package missing or
# installed, and a sudo stand-in or none; the stand-ins log their calls.
world() {
  local dir=$tmp/world-$1-$2-$3
  mkdir -p "$dir/bin"
  for t in env bash grep cat; do ln -s "$(command -v $t)" "$dir/bin/$t"; done
  printf '#!%s\n[ "$1" = -u ] && echo %s || echo uid=%s\n' "$(command -v bash)" \
    "$([ "$1" = root ] && echo 0 || echo 1000)" "$([ "$1" = root ] && echo 0 || echo 1000)" >"$dir/bin/id"
  if [ "$2" = missing ]; then
    printf '#!%s\nexit 1\n' "$(command -v bash)" >"$dir/bin/dpkg-query"
  else
    printf '#!%s\necho -n "install ok installed"\n' "$(command -v bash)" >"$dir/bin/dpkg-query"
  fi
  printf '#!%s\necho "apt-get $*" >>"%s/log"\n' "$(command -v bash)" "$dir" >"$dir/bin/apt-get"
  if [ "$3" = sudo ]; then
    printf '#!%s\necho "sudo $1" >>"%s/log"\nexec "$@"\n' "$(command -v bash)" "$dir" >"$dir/bin/sudo"
  fi
  chmod +x "$dir/bin/"*
  : >"$dir/log"
  echo "$dir"
}
run_deps() {  # DIR: runs install-deps.sh there; rc in $rc, stderr in DIR/err
  env -i PATH="$1/bin" HOME="$1" "$1/bin/bash" "$src/scripts/install-deps.sh" >"$1/out" 2>"$1/err"
  rc=$?
}

d=$(world root missing nosudo); run_deps "$d"
if [ "$rc" -eq 0 ] && grep -q '^apt-get install' "$d/log" && ! grep -q '^sudo' "$d/log"; then ok
else bad "root without sudo: rc $rc, calls: $(tr '\n' ';' <"$d/log") stderr: $(cat "$d/err")"; fi

d=$(world user missing nosudo); run_deps "$d"
if [ "$rc" -ne 0 ] && ! grep -q apt-get "$d/log" && grep -q 'run this script as root' "$d/err" \
   && grep -q 'libmodest-dev' "$d/err"; then ok
else bad "user without sudo: want a clear error and no apt-get; rc $rc, calls: $(tr '\n' ';' <"$d/log") stderr: $(cat "$d/err")"; fi

d=$(world user missing sudo); run_deps "$d"
if [ "$rc" -eq 0 ] && grep -q '^sudo apt-get' "$d/log" && grep -q '^apt-get install' "$d/log"; then ok
else bad "user with sudo: rc $rc, calls: $(tr '\n' ';' <"$d/log") stderr: $(cat "$d/err")"; fi

d=$(world user installed nosudo); run_deps "$d"
if [ "$rc" -eq 0 ] && [ ! -s "$d/log" ]; then ok
else bad "nothing missing: rc $rc, calls: $(tr '\n' ';' <"$d/log") stderr: $(cat "$d/err")"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
